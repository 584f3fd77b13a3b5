import MapSnap
import _MapSnapStyle

/// `expression`: bytes read as JSON and compiled as an expression of any
/// type, as a filter and as a colour property (`StyleExpression`,
/// `StyleFilter`, legacy functions), each evaluated at two zooms over a
/// feature with a few properties.
public enum ExpressionFuzzTarget {
  static let feature = EvaluationFeature(
    id: .number(7), kind: .polygon, properties: ["name": .string("a"), "n": .number(3), "b": .bool(true)])

  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    guard let json = try? JSONParser.parse(Array(data)) else { return .rejected }
    var color = PropertySpec(type: "color")
    color.defaultValue = .string("#000")
    color.propertyType = "data-driven"
    color.parameters = ["zoom", "feature"]
    color.interpolated = true
    var accepted = false
    for compiled in [StyleExpression.compile(json, spec: nil), StyleFilter.compile(json), StyleExpression.property(json, spec: color)] {
      guard case .success(let e) = compiled else { continue }
      accepted = true
      for zoom in [0.0, 14.5] {
        _ = e.evaluate(EvaluationContext(zoom: zoom), feature)
        _ = e.evaluateRaw(EvaluationContext(zoom: zoom), feature)
      }
    }
    return accepted ? .accepted : .rejected
  }
}
