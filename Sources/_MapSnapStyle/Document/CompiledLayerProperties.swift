import Synchronization
public import _MapSnapJSON

/// A style layer's compiled filter and properties, kept with the layer so
/// that the frames of one style (a batch's thousands of thumbnails) compile
/// each expression once. The layer's JSON never changes after parsing (a
/// test case's `operations` parse the edited style again), so a key names
/// one JSON value for the store's life. Compiling is deterministic, so two
/// threads that compile one entry at once store the same result.
package final class CompiledLayerProperties: Sendable {
  private let entries = Mutex<[String: Result<StyleExpression, ExpressionErrors>]>([:])

  package init() {}

  /// The layer's expression under `key` (`"filter"`, `"paint:fill-color"`,
  /// ...), compiled by `compile` on first use.
  package func expression(
    _ key: String, compile: () -> Result<StyleExpression, ExpressionErrors>
  ) -> Result<StyleExpression, ExpressionErrors> {
    if let kept = entries.withLock({ $0[key] }) { return kept }
    let result = compile()
    entries.withLock { $0[key] = result }
    return result
  }

  private static let defaults = Mutex<[String: StyleValue]>([:])

  /// The specification's default of property `name` of layer type `type`
  /// read as the property's type (a colour string is a colour), `.null`
  /// when it has none; computed once per process.
  package static func defaultValue(layerType type: String, name: String, layout: Bool) -> StyleValue {
    let key = "\(type)|\(layout ? "layout" : "paint")|\(name)"
    if let v = defaults.withLock({ $0[key] }) { return v }
    let spec = layout ? StyleReference.layout(layerType: type, name: name) : StyleReference.paint(layerType: type, name: name)
    let value = spec.flatMap { spec in
      spec.defaultValue.flatMap { try? StyleExpression.property($0, spec: spec).get().evaluate(EvaluationContext(zoom: 0), nil) }
    } ?? .null
    defaults.withLock { $0[key] = value }
    return value
  }
}
