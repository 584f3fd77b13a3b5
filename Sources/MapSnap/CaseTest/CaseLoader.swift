/// Reads a folder of `mapsnap test` cases. The layout, shared with the
/// project's own `Golden/`:
///
/// ```
/// CASES/<case>/scene.json
/// CASES/<case>/golden.json    {"scales": [2000, 8000], "pixelRatios": [1, 2], "floors": ["1"],
///                              "variants": {"marker": {"scale": 4000, "overlays": [...]}},
///                              "threshold": 0.05, "maxDiffPixels": 10, "includeAA": false,
///                              "toleranceReason": "why", "palette": 16, "dither": false,
///                              "reports": true}
/// CASES/<case>/<scale>[@<ratio>x][-floor<F>].png    one expected image per combination
/// CASES/<case>/<variant>.png                         one per variant
/// CASES/<case>/<image>.report.json                   one expected report per image
/// ```
///
/// - Every combination of `scales` × `pixelRatios` × `floors` is one image
///   (pixel ratio and floor default to the scene's). A ratio of 1 adds no
///   `@1x` to the name.
/// - A variant is one more image with any option a batch line takes
///   (`scale`, `zoom`, `center`, `size`, `pixelRatio`, `floor`, `bounds`,
///   `padding`, `fit`, `overlays`), in the batch line's JSON forms; it does
///   not combine with `scales`. Its name is the image's name (letters,
///   digits, `-`, `_`).
/// - Comparison: exact by default (every channel of every pixel equal);
///   `threshold`, `includeAA` and `maxDiffPixels` in `mapsnap diff`'s
///   terms, each only with a `toleranceReason`.
/// - `palette` (2…256) renders every image of the case as a palette PNG
///   (PNG8) of that many colours, `dither` with dithering (only with a
///   `palette`); the expected images are compared as decoded pixels, as always.
/// - Reports: each image's report is compared with `<image>.report.json`
///   (`ReportDiff`), which must exist, unless `"reports": false`.
/// - Style cases (`StyleCase`: the Mapbox GL render suite's layout):
///   `CASES/<case>/style.json` + `expected.png`, or grouped one level deep,
///   `CASES/<group>/<case>/style.json` + `expected.png` (case name
///   `group/case`). Each is one image judged by `StyleCriterion`.
/// - A folder without `golden.json` (nor a style case or a group of them) is not a case; `mapsnap test` warns of
///   each (``folderWarnings()``), with a hint when it holds a near miss
///   such as `goldens.json`.
/// - A `.png` or `.report.json` directly in a case folder that no image of
///   the case is named after, and that no frame of the case drew as an
///   icon, is obsolete (``obsoleteFiles(of:icons:)``).
public struct CaseLoader {
  public let root: String

  public init(root: String) { self.root = root }

  /// A case folder that cannot be read as one: the case cannot run.
  public struct Problem: Sendable, CustomStringConvertible {
    public var caseName: String
    public var error: SceneError
    public var description: String { "\(caseName): \(error)" }
  }

  /// Every image of every case, in name order, and the cases that cannot run.
  public func load() -> (cases: [ImageCase], problems: [Problem]) {
    var cases: [ImageCase] = []
    var problems: [Problem] = []
    for name in FileIO.listDirectory(root).sorted() {
      let dir = FileIO.resolve(name, against: root)
      let meta = dir + "/golden.json"
      if FileIO.isRegularFile(meta) {
        do throws(SceneError) {
          cases += try load(name, directory: dir)
        } catch {
          problems.append(Problem(caseName: name, error: error))
        }
        continue
      }
      // Style cases: the folder itself, or the folders of a group.
      let styles = Self.isStyleCase(dir) ? [(name, dir)] : Self.styleCases(inGroup: dir).map { (name + "/" + $0, dir + "/" + $0) }
      for (caseName, caseDir) in styles {
        do throws(SceneError) {
          cases.append(try loadStyle(caseName, directory: caseDir, group: name))
        } catch {
          problems.append(Problem(caseName: caseName, error: error))
        }
      }
    }
    return (cases, problems)
  }

  /// The largest `style.json` read (inline GeoJSON can make styles large).
  static let maximumStyleBytes = 256 << 20

  /// A folder holding `style.json`: a style case.
  static func isStyleCase(_ dir: String) -> Bool { FileIO.isRegularFile(dir + "/style.json") }

  /// The style cases of a group folder, in name order (none when `dir` is not a group).
  static func styleCases(inGroup dir: String) -> [String] {
    guard FileIO.isDirectory(dir) else { return [] }
    return FileIO.listDirectory(dir).sorted().filter { !$0.hasPrefix(".") && isStyleCase(dir + "/" + $0) }
  }

  /// A style case: its one image, `expected.png`, with its parameters from
  /// `metadata.test` (`StyleCase`).
  private func loadStyle(_ name: String, directory dir: String, group: String) throws(SceneError) -> ImageCase {
    let path = dir + "/style.json"
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(path, maximumBytes: Self.maximumStyleBytes)
    } catch {
      throw SceneError(file: path, kind: .unreadable(reason: error.reason))
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw SceneError(file: path, kind: .syntax(line: error.line, column: error.column), expected: "valid JSON", found: error.message)
    }
    let style = try StyleCase(style: json, stylePath: path, group: group)
    let stem = "expected"
    let line = ManifestLine(number: 1, scene: path, output: dir + "/" + stem + ".png", report: nil, overrides: ViewOverrides(), overlays: [])
    var image = ImageCase(
      caseName: name, directory: dir, stem: stem, line: line,
      comparison: ImageCase.Comparison(threshold: StyleCriterion.threshold, includeAA: false, maxDiffPixels: 0))
    image.comparison.reason = "the render suite's criterion (pixelmatch 4.0.2, threshold 0.13, allowed per case)"
    image.compareReports = false
    image.style = style
    return image
  }

  private func load(_ name: String, directory dir: String) throws(SceneError) -> [ImageCase] {
    let metaPath = dir + "/golden.json"
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(metaPath, maximumBytes: 16 << 20)
    } catch {
      throw SceneError(file: metaPath, kind: .unreadable(reason: error.reason))
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw SceneError(file: metaPath, kind: .syntax(line: error.line, column: error.column), expected: "valid JSON", found: error.message)
    }
    let r = try ObjectReader(
      json, at: JSONPath(), file: metaPath, what: "a case's golden.json",
      allowed: [
        "scales", "pixelRatios", "floors", "variants", "threshold", "includeAA", "maxDiffPixels", "toleranceReason", "palette", "dither",
        "reports",
      ])
    let compareReports = try r.bool("reports") ?? true
    var comparison = ImageCase.Comparison()
    comparison.threshold = try r.number("threshold", "a colour distance from 0 to 1") { $0 >= 0 && $0 <= 1 } ?? 0
    comparison.includeAA = try r.bool("includeAA") ?? true
    comparison.maxDiffPixels = Int(try r.number("maxDiffPixels", "a whole number of pixels >= 0") { $0 >= 0 && $0 == $0.rounded() && $0 < 1e12 } ?? 0)
    comparison.reason = try r.string("toleranceReason", nonEmpty: true)
    if !comparison.isExact && comparison.reason == nil {
      throw r.missing("toleranceReason", "a reason for comparing with a tolerance (cases compare exactly unless one says why)")
    }
    var palette: PaletteOptions? = nil
    if let n = try r.number("palette", "a palette size, a whole number from 2 to 256", where: { $0 >= 2 && $0 <= 256 && $0 == $0.rounded() }) {
      palette = PaletteOptions(colors: Int(n), dither: try r.bool("dither") ?? false)
    } else if r.object["dither"] != nil {
      throw r.missing("palette", "a palette size for \"dither\" (dithering applies to palette output only)")
    }
    let reader = ManifestReader(path: metaPath)
    func line(_ stem: String, _ object: JSONObject, at path: JSONPath) throws(SceneError) -> ManifestLine {
      var o = object
      // Relative to golden.json's folder, as the line's other paths are.
      o["scene"] = .string("scene.json")
      o["output"] = .string(stem + ".png")
      return try reader.decode(json: .object(o), number: 1, at: path)
    }
    var images: [ImageCase] = []
    // Each scale and pixel ratio by the view's rules (`ViewParameter`).
    let scales = try r.numbers("scales", "scale denominators, each from 0.000001 to 1e12", where: ViewParameter.isScale) ?? []
    let ratios: [Double?] = try r.numbers("pixelRatios", "pixel ratios, each > 0 and <= \(format(ViewParameter.maxPixelRatio))", where: ViewParameter.isPixelRatio) ?? [nil]
    var floors: [String?] = [nil]
    if let f = r.object["floors"] {
      guard case .array(let a) = f else { throw r.invalid("floors", expected: "an array of floors (strings or numbers)", found: f) }
      floors = []
      for (i, v) in a.enumerated() {
        guard let floor = FloorValue(json: v) else {
          throw SceneError(file: metaPath, at: JSONPath().key("floors").index(i), kind: .invalidValue, expected: "a floor as a string or number", found: describe(v))
        }
        guard Self.isSafeName(floor.text) else {
          throw SceneError(
            file: metaPath, at: JSONPath().key("floors").index(i), kind: .invalidValue,
            expected: "a floor that can be part of a file name (letters, digits, '.', '-', '_')", found: describe(v))
        }
        floors.append(floor.text)
      }
    }
    for s in scales {
      for ratio in ratios {
        for floor in floors {
          var stem = format(s)
          var o: JSONObject = ["scale": .number(s)]
          if let ratio {
            o["pixelRatio"] = .number(ratio)
            if ratio != 1 { stem += "@\(format(ratio))x" }
          }
          if let floor {
            o["floor"] = .string(floor)
            stem += "-floor\(floor)"
          }
          images.append(
            ImageCase(caseName: name, directory: dir, stem: stem, line: try line(stem, o, at: JSONPath()), comparison: comparison, palette: palette))
        }
      }
    }
    if let v = r.object["variants"] {
      guard case .object(let variants) = v else { throw r.invalid("variants", expected: "an object of variants by name", found: v) }
      for (variant, value) in variants.pairs {
        let path = JSONPath().key("variants").key(variant)
        guard Self.isSafeName(variant), !variant.contains(".") else {
          throw SceneError(file: metaPath, at: path, kind: .invalidValue, expected: "a variant name of letters, digits, '-' and '_'", found: "\(Echo.quoted(variant))")
        }
        guard case .object(let o) = value else {
          throw SceneError(file: metaPath, at: path, kind: .invalidValue, expected: "a variant: the options of a batch line", found: describe(value))
        }
        for key in ["scene", "output", "report"] where o[key] != nil {
          throw SceneError(file: metaPath, at: path.key(key), kind: .unknownKey, expected: "a variant (the scene is the case's, the image is named after the variant)", found: Echo.quoted(key))
        }
        images.append(
          ImageCase(caseName: name, directory: dir, stem: variant, line: try line(variant, o, at: path), comparison: comparison, palette: palette))
      }
    }
    if images.isEmpty { throw r.missing("scales", "at least one scale or variant") }
    // One expected file per image: two images of one name would share it.
    var seen = Set<String>()
    for image in images where !seen.insert(image.stem).inserted {
      throw SceneError(
        file: metaPath, kind: .invalidValue, expected: "images with different names (scales, pixel ratios, floors and variants)",
        found: "two images named \(Echo.quoted(image.stem))")
    }
    for i in images.indices { images[i].compareReports = compareReports }
    return images
  }

  /// Something in the cases folder that is not as `mapsnap test` expects
  /// but does not stop a case from running: a warning.
  public struct Notice: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
      /// A folder without `golden.json`; `nearMiss` is a file whose name
      /// looks like a misspelt `golden.json` (`goldens.json`, `Golden.json`).
      case notACase(nearMiss: String?)
      /// Expected files of a case that no image of it produces any more.
      case obsolete([String])
    }

    /// The folder's name under the cases folder.
    public var folder: String
    public var kind: Kind

    public init(folder: String, kind: Kind) {
      self.folder = folder
      self.kind = kind
    }

    /// `maps/parks: not a case (no golden.json; rename goldens.json to golden.json)`.
    public var description: String {
      switch kind {
      case .notACase(let nearMiss?):
        return "\(folder): not a case: expected golden.json, found \(nearMiss) (rename it to golden.json)"
      case .notACase(nil):
        return "\(folder): not a case: no golden.json (a case is a folder with scene.json and golden.json, or with style.json and expected.png)"
      case .obsolete(let files):
        return "\(folder): obsolete expected file\(files.count == 1 ? "" : "s") that no scale or variant produces: "
          + files.joined(separator: ", ") + " (--record … --remove-obsolete deletes them)"
      }
    }
  }

  /// A notice for each folder under the root without `golden.json` (folders
  /// whose names start with `.` are left out), in name order.
  public func folderWarnings() -> [Notice] {
    var out: [Notice] = []
    for name in FileIO.listDirectory(root).sorted() where !name.hasPrefix(".") {
      let dir = FileIO.resolve(name, against: root)
      guard FileIO.isDirectory(dir), !FileIO.isRegularFile(dir + "/golden.json"), !Self.isStyleCase(dir), Self.styleCases(inGroup: dir).isEmpty else { continue }
      let nearMiss = FileIO.listDirectory(dir).sorted().first { f in
        let l = f.lowercased()
        return f != "golden.json" && l.hasSuffix(".json") && l.hasPrefix("golden")
      }
      out.append(Notice(folder: name, kind: .notACase(nearMiss: nearMiss)))
    }
    return out
  }

  /// The files directly in `images`' case folder named `*.png` or
  /// `*.report.json` that none of `images` (all the images of one case) is
  /// named after and that are not among `icons` (paths of the icon files
  /// the case's frames drew), in name order.
  public static func obsoleteFiles(of images: [ImageCase], icons: Set<String>) -> [String] {
    guard let dir = images.first?.directory else { return [] }
    let kept = Set(images.flatMap { [$0.stem + ".png", $0.stem + ".report.json"] })
    let drawn = Set(icons.compactMap(FileIO.canonicalPath))
    return FileIO.listDirectory(dir).sorted().filter { f in
      let path = dir + "/" + f
      return (f.hasSuffix(".png") || f.hasSuffix(".report.json")) && !kept.contains(f) && FileIO.isRegularFile(path)
        && !drawn.contains(FileIO.canonicalPath(path) ?? path)
    }
  }

  /// Letters, digits, `.`, `-` and `_`, not starting with `.`: safe as part
  /// of a file name (no folder separators, no `..`).
  static func isSafeName(_ s: String) -> Bool {
    !s.isEmpty && !s.hasPrefix(".")
      && s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" || $0 == "." }
  }
}
