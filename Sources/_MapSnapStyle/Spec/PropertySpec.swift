public import _MapSnapJSON

/// What the specification says of one property (a paint or layout property,
/// or a test's `propertySpec`): its value type, default, limits and what its
/// expressions may depend on.
package struct PropertySpec: Sendable {
  /// `number`, `string`, `boolean`, `color`, `enum`, `array`, `formatted`,
  /// `resolvedImage`, `padding`, ...
  package var type: String
  /// The element type of an `array`.
  package var value: String?
  /// The fixed length of an `array`.
  package var length: Int?
  /// The values of an `enum`.
  package var values: [String] = []
  package var defaultValue: JSONValue?
  package var minimum: Double?
  package var maximum: Double?
  /// Whether zoom functions interpolate (`expression.interpolated`).
  package var interpolated = false
  /// What expressions may read: `zoom`, `feature`, `feature-state`,
  /// `heatmap-density`, `line-progress`, ... (`expression.parameters`).
  package var parameters: [String] = []
  /// `data-driven`, `data-constant`, `cross-faded`, `cross-faded-data-driven`,
  /// `color-ramp`, `constant`.
  package var propertyType: String = "data-constant"
  /// Whether the property accepts a transition.
  package var transition = false
  /// Whether the property's strings may hold `{name}` tokens (`text-field`, `icon-image`).
  package var tokens = false

  package init(type: String) {
    self.type = type
  }
}

extension PropertySpec {
  /// A property's entry as the specification's reference writes it (and the
  /// conformance tests' `propertySpec`): `type`, `value`, `length`, `values`
  /// (an array or an object of names), `default`, `minimum`, `maximum`,
  /// `transition`, `property-type` and `expression` (`interpolated`,
  /// `parameters`).
  package init(json: JSONValue) {
    guard case .object(let o) = json else {
      self.init(type: "value")
      return
    }
    if case .string(let t) = o["type"] { self.init(type: t) } else { self.init(type: "value") }
    if case .string(let v) = o["value"] { value = v }
    if case .number(let n) = o["length"] { length = Int(n) }
    switch o["values"] {
    case .array(let a)?: values = a.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    case .object(let names)?: values = names.keys
    default: break
    }
    defaultValue = o["default"]
    if case .number(let n) = o["minimum"] { minimum = n }
    if case .number(let n) = o["maximum"] { maximum = n }
    if case .bool(let b) = o["transition"] { transition = b }
    if case .bool(let b) = o["tokens"] { tokens = b }
    if case .string(let p) = o["property-type"] { propertyType = p }
    if case .object(let e) = o["expression"] {
      if case .bool(let b) = e["interpolated"] { interpolated = b }
      if case .array(let params) = e["parameters"] {
        parameters = params.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
      }
    }
  }
}
