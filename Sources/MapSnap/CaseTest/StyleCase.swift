/// A style case of `mapsnap test`: a folder with `style.json` (a MapLibre /
/// Mapbox GL style) and `expected.png`, the layout of the Mapbox GL render
/// suite, whose parameters `metadata.test` gives and which is judged by the
/// suite's own criterion (`StyleCriterion`).
///
/// `metadata.test` (every member optional):
/// - `width`, `height` (CSS pixels, 512 by default) and `pixelRatio` (1): the
///   frame; the expected image is `pixelRatio` times larger.
/// - `allowed` (0.00015): the largest fraction of the image's pixels that may
///   differ; a numeric `diff` replaces it (a `diff` given per implementation,
///   an object, is left aside).
/// - `skipped` and `ignored` (per implementation): recorded, not obeyed —
///   every case counts.
/// - `operations`: edits applied before the frame is drawn
///   (`StyleOperations`); any other operation makes the case unsupported.
/// - Debug drawing (`debug`, `collisionDebug`, `showOverdrawInspector`, …)
///   and style classes (`classes`, gone from the specification) make the
///   case unsupported: counted, not drawn, never passed.
///
/// The case's ``Kind`` sorts it for the suite's rates: its group (the folder
/// above the case) `fill-extrusion-*` is `fillExtrusion`; a group `text-*`,
/// `icon-*`, `symbol-*` or `sprites`, or a style (or an `addLayer`
/// operation) with a `symbol` layer, is `symbol`; the rest are `flat`.
public struct StyleCase: Sendable {
  /// Which of the suite's rates the case counts in.
  public enum Kind: String, Sendable, CaseIterable {
    case flat
    case symbol
    case fillExtrusion = "fill-extrusion"
  }

  /// The render suite's default `allowed`: 0.015 % of the pixels.
  public static let defaultAllowed = 0.00015
  /// The frame's default side, in CSS pixels.
  public static let defaultSide = 512
  /// The largest frame side a case may ask for: the sides the scene format accepts.
  static let maximumSide = ViewParameter.maxSide
  /// `metadata.test` members that turn on debug drawing no expected image
  /// of a plain frame shows.
  public static let debugSwitches = ["debug", "collisionDebug", "showOverdrawInspector", "showTileBoundaries", "showPadding", "showCollisionBoxes"]
  /// Group prefixes (and names) of the suite's symbol tests.
  static let symbolGroupPrefixes = ["text-", "icon-", "symbol-"]
  static let symbolGroups: Set<String> = ["sprites"]
  static let fillExtrusionGroupPrefix = "fill-extrusion-"

  /// The style as the file holds it (operations not applied).
  public var style: JSONValue
  /// The style file's path: relative URLs in the style start at its folder.
  public var stylePath: String
  /// The folder above the case (the case's own name when it is not in a group).
  public var group: String
  public var width = StyleCase.defaultSide
  public var height = StyleCase.defaultSide
  public var pixelRatio = 1.0
  public var allowed = StyleCase.defaultAllowed
  public var operations: [JSONValue] = []
  /// `skipped` and `ignored` marks with the implementations they name
  /// (`ignored (native)`), recorded only.
  public var marks: [String] = []
  /// Why the case is not drawn (an operation or switch mapsnap does not apply); empty when it is.
  public var unsupported: [String] = []
  public var kind = Kind.flat

  /// The frame's size in image pixels (what the expected image must measure).
  public var imageWidth: Int { Int((Double(width) * pixelRatio).rounded()) }
  public var imageHeight: Int { Int((Double(height) * pixelRatio).rounded()) }

  /// Reads `metadata.test` of `style` (the file at `stylePath`).
  /// - Throws: `SceneError` for a member of the wrong form (a size that is
  ///   not a whole number from 1 to the scene format's largest side, a pixel
  ///   ratio out of range, an `allowed` outside 0…1, `operations` that is not an array).
  public init(style: JSONValue, stylePath: String, group: String) throws(SceneError) {
    self.style = style
    self.stylePath = stylePath
    self.group = group
    guard case .object = style else {
      throw SceneError(file: stylePath, kind: .invalidValue, expected: "a style: a JSON object with \"version\": 8", found: describe(style))
    }
    let at = JSONPath().key("metadata").key("test")
    var test: JSONObject = [:]
    if let t = style["metadata"]?["test"] {
      guard case .object(let o) = t else { throw SceneError(file: stylePath, at: at, kind: .invalidValue, expected: "an object of test parameters", found: describe(t)) }
      test = o
    }
    func number(_ key: String, _ expected: String, _ ok: (Double) -> Bool) throws(SceneError) -> Double? {
      guard let v = test[key] else { return nil }
      guard case .number(let x) = v, ok(x) else { throw SceneError(file: stylePath, at: at.key(key), kind: .invalidValue, expected: expected, found: describe(v)) }
      return x
    }
    let side = "a whole number of CSS pixels from 1 to \(Self.maximumSide)"
    width = Int(try number("width", side, ViewParameter.isSide) ?? Double(Self.defaultSide))
    height = Int(try number("height", side, ViewParameter.isSide) ?? Double(Self.defaultSide))
    pixelRatio = try number("pixelRatio", "a pixel ratio > 0 and <= \(format(ViewParameter.maxPixelRatio))", ViewParameter.isPixelRatio) ?? 1
    allowed = try number("allowed", "a fraction of the pixels from 0 to 1") { $0 >= 0 && $0 <= 1 } ?? Self.defaultAllowed
    if case .number = test["diff"] {
      allowed = try number("diff", "a fraction of the pixels from 0 to 1") { $0 >= 0 && $0 <= 1 } ?? allowed
    }
    for key in ["skipped", "ignored"] {
      switch test[key] {
      case nil, .bool(false)?, .null?: break
      case .object(let by)?: marks.append("\(key) (\(by.keys.joined(separator: ", ")))")
      default: marks.append(key)
      }
    }
    if let ops = test["operations"] {
      guard case .array(let a) = ops else {
        throw SceneError(file: stylePath, at: at.key("operations"), kind: .invalidValue, expected: "an array of operations", found: describe(ops))
      }
      operations = a
    }
    for key in Self.debugSwitches {
      if let v = test[key], v != .bool(false), v != .null {
        unsupported.append("metadata.test.\(key) (debug drawing mapsnap does not make)")
      }
    }
    if case .array(let classes)? = test["classes"], !classes.isEmpty {
      unsupported.append("metadata.test.classes (style classes, gone from the style specification)")
    }
    for op in operations {
      if let reason = StyleOperations.unsupported(op), !unsupported.contains(reason) { unsupported.append(reason) }
    }
    kind = Self.kind(group: group, style: style, operations: operations)
  }

  /// The suite's classification (see ``Kind``).
  public static func kind(group: String, style: JSONValue, operations: [JSONValue]) -> Kind {
    if group.hasPrefix(fillExtrusionGroupPrefix) { return .fillExtrusion }
    if symbolGroups.contains(group) || symbolGroupPrefixes.contains(where: { group.hasPrefix($0) }) { return .symbol }
    func isSymbol(_ layer: JSONValue?) -> Bool { layer?["type"] == .string("symbol") }
    if case .array(let layers)? = style["layers"], layers.contains(where: { isSymbol($0) }) { return .symbol }
    for op in operations where StyleOperations.name(op) == "addLayer" && isSymbol(op[1]) { return .symbol }
    return .flat
  }
}
