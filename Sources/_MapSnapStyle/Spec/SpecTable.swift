internal import _MapSnapJSON

/// Named specs in the specification's order, with lookup by name: the
/// properties of one layer type, the members of a source or of the root.
/// The order is kept for listings and "did you mean" candidates.
package struct SpecTable<Spec: Sendable>: Sendable {
  /// The names in the specification's order.
  package let names: [String]
  private let index: [String: Spec]

  init(_ pairs: KeyValuePairs<String, Spec>) {
    names = pairs.map(\.key)
    index = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  package subscript(name: String) -> Spec? { index[name] }

  /// The entries in the specification's order.
  package var entries: [(name: String, spec: Spec)] { names.map { ($0, index[$0]!) } }
}

/// A member of an object the specification describes that is not a paint or
/// layout property: a root property, a source's member, a layer's member,
/// `light`, `terrain`, a legacy function's member.
package struct MemberSpec: Sendable {
  package var spec: PropertySpec
  /// The validator reports the member missing when it has no default.
  package var required: Bool
  /// The spec of each element when the elements are themselves arrays with
  /// a spec of their own (an image source's `coordinates`: four
  /// `[longitude, latitude]` pairs).
  package var element: PropertySpec?

  init(_ spec: PropertySpec, required: Bool = false, element: PropertySpec? = nil) {
    self.spec = spec
    self.required = required
    self.element = element
  }
}

/// What an expression of a property may be, as the specification's
/// `expression` and `property-type` give it. The presets name the
/// combinations the specification uses.
struct ExpressionTraits: Sendable {
  var interpolated: Bool
  var parameters: [String]
  var propertyType: String

  /// Stepped by zoom only: enums and booleans of the layout, anchors.
  static let zoomStep = ExpressionTraits(interpolated: false, parameters: ["zoom"], propertyType: "data-constant")
  /// Interpolated by zoom only.
  static let zoomInterpolated = ExpressionTraits(interpolated: true, parameters: ["zoom"], propertyType: "data-constant")
  /// Paint properties that read features and their state, interpolated.
  static let paintData = ExpressionTraits(
    interpolated: true, parameters: ["zoom", "feature", "feature-state"], propertyType: "data-driven")
  /// Layout properties that read features, interpolated (no feature state in layout).
  static let layoutData = ExpressionTraits(interpolated: true, parameters: ["zoom", "feature"], propertyType: "data-driven")
  /// Properties that read features, stepped.
  static let dataStep = ExpressionTraits(interpolated: false, parameters: ["zoom", "feature"], propertyType: "data-driven")
  /// Images and dash arrays that read features and cross-fade between zooms.
  static let crossFadedData = ExpressionTraits(
    interpolated: false, parameters: ["zoom", "feature"], propertyType: "cross-faded-data-driven")
  /// A background pattern: cross-faded, by zoom only.
  static let crossFaded = ExpressionTraits(interpolated: false, parameters: ["zoom"], propertyType: "cross-faded")
  /// `visibility`: constant but for `global-state`.
  static let visibility = ExpressionTraits(interpolated: false, parameters: ["global-state"], propertyType: "data-constant")
  /// A layer's whole opacity: zoom and global state.
  static let layerOpacity = ExpressionTraits(interpolated: true, parameters: ["zoom", "global-state"], propertyType: "data-constant")
  /// No expressions at all (root members, sources, `terrain`).
  static let none = ExpressionTraits(interpolated: false, parameters: [], propertyType: "constant")

  /// A colour ramp over `parameter` (`line-progress`, `heatmap-density`, `elevation`).
  static func colorRamp(_ parameter: String) -> ExpressionTraits {
    ExpressionTraits(interpolated: true, parameters: [parameter], propertyType: "color-ramp")
  }
}

extension PropertySpec {
  /// `supportsExpressions`: the spec has an `expression` member (it names
  /// the parameters expressions may read).
  package var supportsExpressions: Bool { !parameters.isEmpty }
  /// Legacy property functions and data expressions are allowed.
  package var supportsDataExpressions: Bool {
    propertyType == "data-driven" || propertyType == "cross-faded-data-driven"
  }
  /// Legacy zoom functions and zoom expressions are allowed.
  package var supportsZoomExpressions: Bool { parameters.contains("zoom") }

  init(
    _ type: String, _ defaultValue: JSONValue?, _ traits: ExpressionTraits, transition: Bool = false,
    minimum: Double? = nil, maximum: Double? = nil, value: String? = nil, length: Int? = nil, values: [String] = []
  ) {
    self.init(type: type)
    self.defaultValue = defaultValue
    self.interpolated = traits.interpolated
    self.parameters = traits.parameters
    self.propertyType = traits.propertyType
    self.transition = transition
    self.minimum = minimum
    self.maximum = maximum
    self.value = value
    self.length = length
    self.values = values
  }

  static func number(
    _ defaultValue: Double?, min: Double? = nil, max: Double? = nil, _ traits: ExpressionTraits = .none,
    transition: Bool = false
  ) -> PropertySpec {
    PropertySpec("number", defaultValue.map { .number($0) }, traits, transition: transition, minimum: min, maximum: max)
  }

  static func color(_ defaultValue: String?, _ traits: ExpressionTraits, transition: Bool = false) -> PropertySpec {
    PropertySpec("color", defaultValue.map { .string($0) }, traits, transition: transition)
  }

  static func boolean(_ defaultValue: Bool?, _ traits: ExpressionTraits = .none, transition: Bool = false) -> PropertySpec {
    PropertySpec("boolean", defaultValue.map { .bool($0) }, traits, transition: transition)
  }

  static func string(_ defaultValue: String? = nil, _ traits: ExpressionTraits = .none) -> PropertySpec {
    PropertySpec("string", defaultValue.map { .string($0) }, traits)
  }

  static func choice(_ values: [String], _ defaultValue: String?, _ traits: ExpressionTraits = .none) -> PropertySpec {
    PropertySpec("enum", defaultValue.map { .string($0) }, traits, values: values)
  }

  static func array(
    of value: String, length: Int? = nil, _ defaultValue: JSONValue?, _ traits: ExpressionTraits = .none,
    transition: Bool = false, min: Double? = nil, values: [String] = []
  ) -> PropertySpec {
    PropertySpec(
      "array", defaultValue, traits, transition: transition, minimum: min, value: value, length: length, values: values)
  }

  /// Any value (`metadata`, a GeoJSON source's `data`).
  static let any = PropertySpec("*", nil, .none)

  /// The `visibility` every layer type has.
  static let visibility = PropertySpec.choice(["visible", "none"], "visible", .visibility)

  /// A pair of numbers (translations, offsets).
  static func pair(_ traits: ExpressionTraits, transition: Bool = false) -> PropertySpec {
    .array(of: "number", length: 2, [0, 0], traits, transition: transition)
  }

  /// `map` or `viewport`, with its default.
  static func anchor(_ defaultValue: String) -> PropertySpec {
    .choice(["map", "viewport"], defaultValue, .zoomStep)
  }
}
