import Foundation
import XCTest
import _MapSnapJSON
@testable import _MapSnapStyle

/// The MapLibre style specification's expression tests
/// (`../shared/conformance/style-spec/expression`), judged as its harness
/// judges them: the compiled result (type, feature and zoom constancy, or
/// the errors with their keys), then each output, numbers compared at 6
/// significant digits and colours as premultiplied [r, g, b, a]. The
/// `serialized` expectations are not compared.
final class ExpressionConformanceTests: XCTestCase {
  /// Where every run-time error of the suite is reported from.
  static let rootKey = "layers[0].paint.some-property"

  static var suiteFolder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("shared/conformance/style-spec/expression")
  }

  func testConformance() throws {
    let folder = Self.suiteFolder
    guard FileManager.default.fileExists(atPath: folder.path) else {
      XCTFail("The conformance suite is missing: expected \(folder.path) (the repository's sibling ../shared).")
      return
    }
    var tests: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: folder.path)!
    while let path = enumerator.nextObject() as? String {
      if path.hasSuffix("test.json") { tests.append(path) }
    }
    tests.sort()
    var passed = 0
    var failures: [String] = []
    for path in tests {
      let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(path)))
      let fixture = try JSONParser.parse(bytes)
      let name = String(path.dropLast("/test.json".count))
      if let reason = Self.judge(fixture) {
        failures.append("\(name): \(reason)")
      } else {
        passed += 1
      }
    }
    print("Expression conformance: \(passed) of \(tests.count) pass")
    for f in failures { print("  FAIL \(f)") }
    let recordURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("expression-pass-count.txt")
    let record = (try? String(contentsOf: recordURL, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    XCTAssertGreaterThanOrEqual(passed, record, "Fewer expression conformance tests pass than recorded in expression-pass-count.txt")
  }

  /// nil when the fixture passes; otherwise why not.
  static func judge(_ fixture: JSONValue) -> String? {
    let spec = completeSpec(fixture["propertySpec"])
    let expected = fixture["expected"] ?? .null
    let compiled = StyleExpression.compile(fixture["expression"] ?? .null, spec: spec)
    let actualCompiled: JSONValue
    switch compiled {
    case .failure(let errors):
      actualCompiled = [
        "result": "error",
        "errors": .array(errors.errors.map { ["key": .string($0.key), "error": .string($0.message)] }),
      ]
    case .success(let e):
      actualCompiled = [
        "result": "success", "isFeatureConstant": .bool(e.isFeatureConstant), "isZoomConstant": .bool(e.isZoomConstant),
        "type": .string(e.resultType),
      ]
    }
    guard deepEqual(actualCompiled, expected["compiled"] ?? .null) else {
      return "compiled \(compact(actualCompiled)), expected \(compact(expected["compiled"] ?? .null))"
    }
    guard case .success(let expression) = compiled else { return nil }
    var globalState: [String: StyleValue] = [:]
    if case .object(let o) = fixture["globalState"] ?? .null {
      for (k, v) in o.pairs { globalState[k] = StyleValue(json: v) }
    }
    var outputs: [JSONValue] = []
    if case .array(let inputs) = fixture["inputs"] ?? .null {
      for input in inputs {
        let (context, feature) = evaluationInput(input, globalState: globalState)
        switch expression.evaluateRaw(context, feature) {
        case .success(let v): outputs.append(outputJSON(v, top: true, colorType: expression.type == .color))
        case .failure(let e): outputs.append(["error": .string("\(rootKey)\(e.key): \(e.message)")])
        }
      }
    }
    let expectedOutputs = expected["outputs"] ?? .array([])
    guard deepEqual(.array(outputs), expectedOutputs) else {
      return "outputs \(compact(.array(outputs))), expected \(compact(expectedOutputs))"
    }
    return nil
  }

  /// The fixture's property spec with the harness's defaults: data-driven,
  /// interpolated, reading zoom and the feature.
  static func completeSpec(_ json: JSONValue?) -> PropertySpec {
    var spec = PropertySpec(json: json ?? .object(JSONObject()))
    if json?["property-type"] == nil { spec.propertyType = "data-driven" }
    if json?["expression"] == nil {
      spec.interpolated = true
      spec.parameters = ["zoom", "feature"]
    }
    return spec
  }

  static func evaluationInput(_ input: JSONValue, globalState: [String: StyleValue]) -> (EvaluationContext, EvaluationFeature) {
    let c = input[0] ?? .null, f = input[1] ?? .null
    var context = EvaluationContext(globalState: globalState)
    if case .number(let z) = c["zoom"] ?? .null { context.zoom = z }
    if case .number(let z) = c["heatmapDensity"] ?? .null { context.heatmapDensity = z }
    if case .number(let z) = c["lineProgress"] ?? .null { context.lineProgress = z }
    if case .number(let z) = c["elevation"] ?? .null { context.elevation = z }
    if let a = c["accumulated"] { context.accumulated = StyleValue(json: a) }
    if case .array(let images) = c["availableImages"] ?? .null {
      context.availableImages = images.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }
    if let id = c["canonicalID"], case .number(let z) = id["z"] ?? .null, case .number(let x) = id["x"] ?? .null,
      case .number(let y) = id["y"] ?? .null
    {
      context.canonical = CanonicalTileID(z: Int(z), x: Int(x), y: Int(y))
    }
    if case .object(let state) = f["featureState"] ?? .null {
      for (k, v) in state.pairs { context.featureState[k] = StyleValue(json: v) }
    }
    var feature = EvaluationFeature()
    if case .object(let props) = f["properties"] ?? .null {
      for (k, v) in props.pairs { feature.properties[k] = StyleValue(json: v) }
    }
    if let id = f["id"] { feature.id = StyleValue(json: id) }
    if let geometry = f["geometry"] {
      switch geometry["type"] {
      case .string("Point")?: feature.kind = .point
      case .string("MultiPoint")?: (feature.kind, feature.isMulti) = (.point, true)
      case .string("LineString")?: feature.kind = .lineString
      case .string("MultiLineString")?: (feature.kind, feature.isMulti) = (.lineString, true)
      case .string("Polygon")?: feature.kind = .polygon
      case .string("MultiPolygon")?: (feature.kind, feature.isMulti) = (.polygon, true)
      default: break
      }
      if context.canonical != nil {
        feature.isMulti = false
        feature.geometry = FeatureGeometryFixture.tileGeometry(geometry, context.canonical!)
      }
    }
    return (context, feature)
  }

  static func colorJSON(_ c: StyleColor) -> JSONValue {
    ["r": .number(c.r * c.a), "g": .number(c.g * c.a), "b": .number(c.b * c.a), "a": .number(c.a)]
  }

  /// A value as the reference harness prints it (JSON of the JavaScript objects).
  static func outputJSON(_ v: StyleValue, top: Bool, colorType: Bool) -> JSONValue {
    switch v {
    case .color(let c):
      if top && colorType { return [.number(c.r * c.a), .number(c.g * c.a), .number(c.b * c.a), .number(c.a)] }
      return colorJSON(c)
    case .array(let items): return .array(items.map { outputJSON($0, top: false, colorType: false) })
    case .object(let members): return .object(JSONObject(members.map { ($0.0, outputJSON($0.1, top: false, colorType: false)) }))
    case .formatted(let f):
      return ["sections": .array(f.sections.map { s in
        [
          "text": .string(s.text), "image": s.image.map { outputJSON(.image($0), top: false, colorType: false) } ?? .null,
          "scale": s.scale.map { .number($0) } ?? .null, "fontStack": s.fontStack.map { .string($0) } ?? .null,
          "textColor": s.textColor.map(colorJSON) ?? .null, "verticalAlign": s.verticalAlign.map { .string($0) } ?? .null,
        ]
      })]
    case .projection(let p): return ["from": .string(p.from), "to": .string(p.to), "transition": .number(p.transition)]
    case .image(let i): return ["name": .string(i.name), "available": .bool(i.available)]
    case .padding(let values), .numberArray(let values): return ["values": .array(values.map { .number($0) })]
    case .colorArray(let colors): return ["values": .array(colors.map(colorJSON))]
    case .anchorOffsets(let pairs):
      return ["values": .array(pairs.flatMap { [JSONValue.string($0.0), .array($0.1.map { .number($0) })] })]
    default: return v.json
    }
  }

  /// The harness's rounding: down to `figures` significant digits, twice.
  static func stripPrecision(_ x: Double, _ figures: Double = 6) -> Double {
    if x == 0 || !x.isFinite { return x }
    let multiplier = pow(10, max(0, figures - ceil(log10(abs(x)))))
    let first = (x * multiplier).rounded(.down) / multiplier
    return (first * multiplier).rounded(.down) / multiplier
  }

  static func deepEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return stripPrecision(x) == stripPrecision(y) || (x.isNaN && y.isNaN)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { deepEqual($0, $1) }
    case (.object(let x), .object(let y)):
      guard Set(x.keys) == Set(y.keys), x.count == y.count else { return false }
      return x.pairs.allSatisfy { deepEqual($0.value, y[$0.key] ?? .null) }
    default: return a == b
    }
  }

  static func compact(_ v: JSONValue) -> String {
    let s = StyleValue(json: v).compactJSON
    return s.count > 400 ? String(s.prefix(400)) + "…" : s
  }
}

/// A fixture's GeoJSON geometry as tile geometry, as the reference harness
/// loads it: each position projected to the tile's coordinates (rounded).
enum FeatureGeometryFixture {
  static func point(_ v: JSONValue, _ tile: CanonicalTileID) -> EvaluationPoint? {
    guard case .array(let a) = v, a.count >= 2, case .number(let lng) = a[0], case .number(let lat) = a[1] else { return nil }
    let scale = pow(2, Double(tile.z))
    let x = (180 + lng) / 360
    let y = (180 - (180 / Double.pi * log(tan(Double.pi / 4 + lat * Double.pi / 360)))) / 360
    return EvaluationPoint(
      x: ((x * scale - Double(tile.x)) * EvaluationPoint.extent).rounded(), y: ((y * scale - Double(tile.y)) * EvaluationPoint.extent).rounded())
  }
  static func line(_ v: JSONValue, _ tile: CanonicalTileID) -> [EvaluationPoint] {
    guard case .array(let a) = v else { return [] }
    return a.compactMap { point($0, tile) }
  }
  static func lines(_ v: JSONValue, _ tile: CanonicalTileID) -> [[EvaluationPoint]] {
    guard case .array(let a) = v else { return [] }
    return a.map { line($0, tile) }
  }

  static func tileGeometry(_ geometry: JSONValue, _ tile: CanonicalTileID) -> [[EvaluationPoint]] {
    let c = geometry["coordinates"] ?? .null
    switch geometry["type"] {
    case .string("Point")?: return point(c, tile).map { [[$0]] } ?? []
    case .string("MultiPoint")?: return line(c, tile).map { [$0] }
    case .string("LineString")?: return [line(c, tile)]
    case .string("MultiLineString")?, .string("Polygon")?: return lines(c, tile)
    case .string("MultiPolygon")?:
      guard case .array(let polygons) = c else { return [] }
      return polygons.flatMap { lines($0, tile) }
    default: return []
    }
  }
}
