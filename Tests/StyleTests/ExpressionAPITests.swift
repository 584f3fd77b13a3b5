import XCTest
import _MapSnapJSON
@testable import _MapSnapStyle

/// The expression API as the renderer and the validator use it: compiling
/// against a property, legacy functions and filters, constants and the
/// default for failed evaluations.
final class ExpressionAPITests: XCTestCase {
  func spec(_ type: String, default d: JSONValue? = nil, dataDriven: Bool = true, interpolated: Bool = true) -> PropertySpec {
    var s = PropertySpec(type: type)
    s.defaultValue = d
    s.propertyType = dataDriven ? "data-driven" : "data-constant"
    s.interpolated = interpolated
    s.parameters = dataDriven ? ["zoom", "feature"] : ["zoom"]
    return s
  }

  func compile(_ json: JSONValue, _ spec: PropertySpec?) throws -> StyleExpression {
    switch StyleExpression.compile(json, spec: spec) {
    case .success(let e): return e
    case .failure(let e): throw e
    }
  }

  func testZoomCurveIsFeatureConstantAndEvaluatesAtAZoom() throws {
    let e = try compile(["interpolate", ["linear"], ["zoom"], 0, 1, 10, 11], spec("number", default: 1))
    XCTAssertTrue(e.isFeatureConstant)
    XCTAssertFalse(e.isZoomConstant)
    XCTAssertEqual(e.zoomStops, [0, 10])
    XCTAssertEqual(e.zoomInterpolation, .linear)
    XCTAssertEqual(e.evaluate(EvaluationContext(zoom: 5), nil), .number(6))
  }

  func testColorPropertyConvertsStringsAndFallsBackToTheDefault() throws {
    let e = try compile(["get", "c"], spec("color", default: "#000"))
    XCTAssertEqual(e.evaluate(EvaluationContext(), EvaluationFeature(properties: ["c": .string("red")])), .color(StyleColor(r: 1, g: 0, b: 0)))
    XCTAssertEqual(e.evaluate(EvaluationContext(), EvaluationFeature(properties: ["c": .string("nope")])), .color(.black))
  }

  func testLegacyExponentialZoomFunction() throws {
    let e = try compile(["base": 2, "stops": [[0, 0], [2, 12]]], spec("number", default: 0))
    XCTAssertFalse(e.isZoomConstant)
    XCTAssertEqual(e.evaluate(EvaluationContext(zoom: 1), nil), .number(4))
  }

  func testLegacyCategoricalPropertyFunctionWithDefault() throws {
    let e = try compile(["property": "kind", "type": "categorical", "stops": [["a", 1], ["b", 2]], "default": 9], spec("number", default: 0))
    XCTAssertEqual(e.evaluate(EvaluationContext(), EvaluationFeature(properties: ["kind": .string("b")])), .number(2))
    XCTAssertEqual(e.evaluate(EvaluationContext(), EvaluationFeature(properties: ["kind": .string("z")])), .number(9))
  }

  func testLegacyFiltersConvert() throws {
    let polygon = EvaluationFeature(kind: .polygon, properties: ["a": .number(3)])
    let cases: [(JSONValue, Bool)] = [
      (["==", "$type", "Polygon"], true), (["==", "a", 3], true), (["!=", "a", 3], false), (["in", "a", 1, 2, 3], true),
      (["!in", "a", 1, 2], true), (["has", "a"], true), (["!has", "a"], false), (["none", ["==", "a", 3]], false),
      (["all", ["<", "a", 4], [">=", "a", 3]], true), (["any", ["==", "$id", 1], ["==", "a", 4]], false),
      (["==", ["get", "a"], 3], true), (true, true),
    ]
    for (json, expected) in cases {
      guard case .success(let filter) = StyleFilter.compile(json) else {
        XCTFail("\(json) did not compile")
        continue
      }
      XCTAssertEqual(filter.evaluate(EvaluationContext(zoom: 1), polygon), .bool(expected), "\(json)")
    }
  }

  func testCSSColors() {
    XCTAssertEqual(StyleColor(css: "#ff0000"), StyleColor(r: 1, g: 0, b: 0))
    XCTAssertEqual(StyleColor(css: "rgba(0, 0, 255, 0.5)"), StyleColor(r: 0, g: 0, b: 1, a: 0.5))
    XCTAssertEqual(StyleColor(css: "hsl(120, 100%, 50%)"), StyleColor(r: 0, g: 1, b: 0))
    XCTAssertEqual(StyleColor(css: " Blue "), StyleColor(r: 0, g: 0, b: 1))
    XCTAssertNil(StyleColor(css: "bluish"))
  }

  func testConstantsOfThePropertyType() throws {
    guard case .success(let e) = StyleExpression.constant("#00ff00", spec: spec("color")) else { return XCTFail() }
    XCTAssertEqual(e.evaluate(EvaluationContext(), nil), .color(StyleColor(r: 0, g: 1, b: 0)))
    guard case .success(let p) = StyleExpression.constant([1, 2], spec: spec("padding")) else { return XCTFail() }
    XCTAssertEqual(p.evaluate(EvaluationContext(), nil), .padding([1, 2, 1, 2]))
  }

  func testDataExpressionRefusedForDataConstantProperty() {
    guard case .failure(let e) = StyleExpression.compile(["get", "x"], spec: spec("number", dataDriven: false)) else { return XCTFail() }
    XCTAssertEqual(e.errors.first?.message, "data expressions not supported")
  }

  func testRuntimeErrorKeepsTheKeyPath() throws {
    let e = try compile(["+", 1, ["number", ["get", "x"]]], nil)
    guard case .failure(let error) = e.evaluateRaw(EvaluationContext(), EvaluationFeature(properties: ["x": .string("a")])) else {
      return XCTFail()
    }
    XCTAssertEqual(error.key, "[2]")
  }
}

extension ExpressionAPITests {
  func testPropertyValuesDispatchOnTheirForm() throws {
    guard case .success(let constant) = StyleExpression.property([2, 3], spec: spec("padding")),
      case .success(let expression) = StyleExpression.property(["+", 1, 2], spec: spec("number")),
      case .success(let function) = StyleExpression.property(["stops": [[0, 1], [10, 2]]], spec: spec("number", interpolated: false))
    else { return XCTFail() }
    XCTAssertEqual(constant.evaluate(EvaluationContext(), nil), .padding([2, 3, 2, 3]))
    XCTAssertEqual(expression.evaluate(EvaluationContext(), nil), .number(3))
    XCTAssertEqual(function.evaluate(EvaluationContext(zoom: 12), nil), .number(2))
    XCTAssertEqual(function.interpolationFactor(zoom: 5, lower: 0, upper: 10), 0)
  }
}
