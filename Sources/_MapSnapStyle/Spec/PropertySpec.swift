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

  package init(type: String) {
    self.type = type
  }
}
