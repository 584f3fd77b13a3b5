package import _MapSnapJSON

/// A compiled expression of a style property or filter: the node tree, its
/// result type, what it depends on, and the property's default for the
/// evaluations that fail.
package final class StyleExpression: Sendable {
  let root: ExpressionNode
  /// The type the specification prints for the result: `number`, `array<number, 2>`, `color`, `value`, ...
  package var resultType: String { root.type.name }
  package var type: ExpressionType { root.type }
  /// True when no evaluation reads the feature (its properties, id, geometry, state).
  package let isFeatureConstant: Bool
  /// True when no evaluation reads the zoom.
  package let isZoomConstant: Bool
  /// True when an evaluation reads `feature-state`.
  package let isStateDependent: Bool
  /// The zoom curve's stops (its input labels) when the expression depends on zoom.
  package let zoomStops: [Double]
  /// The zoom curve's interpolation, nil for `step` curves and zoom-constant expressions.
  package let zoomInterpolation: Interpolation?
  /// What a failed or null evaluation gives: the property's default.
  package let defaultValue: StyleValue
  let enumValues: [String]?

  init(root: ExpressionNode, spec: PropertySpec?, zoomCurve: ExpressionNode?) {
    self.root = root
    isFeatureConstant = ExpressionAnalysis.isFeatureConstant(root)
    isZoomConstant = ExpressionAnalysis.isGlobalPropertyConstant(root, [.zoom])
    isStateDependent = !ExpressionAnalysis.isStateConstant(root)
    if let step = zoomCurve as? StepNode {
      zoomStops = step.labels
      zoomInterpolation = nil
    } else if let curve = zoomCurve as? InterpolateNode {
      zoomStops = curve.labels
      zoomInterpolation = curve.interpolation
    } else {
      zoomStops = []
      zoomInterpolation = nil
    }
    defaultValue = spec.map(StyleExpression.defaultValue(of:)) ?? .null
    enumValues = spec?.type == "enum" ? spec?.values : nil
  }

  /// Parses and type-checks `json` for a property (nil: no expected type),
  /// converting a legacy function (`stops`, `property`, `type`) first, and
  /// applying the property's rules: data and zoom dependence allowed, zoom
  /// only as the input of one top-level `step` or `interpolate`.
  /// `propertyRules` false leaves those rules out, as a filter is compiled:
  /// a filter may read `zoom` anywhere.
  package static func compile(_ json: JSONValue, spec: PropertySpec?, propertyRules: Bool = true) -> Result<StyleExpression, ExpressionErrors> {
    var json = json
    if case .object = json, let spec { json = LegacyFunction.convert(json, spec: spec) }
    let context = ParsingContext(expected: spec.flatMap(expectedType(of:)))
    let annotation: TypeAnnotation? = spec?.type == "string" ? .coerce : nil
    guard let root = context.parse(json, annotation: annotation) else {
      return .failure(ExpressionErrors(context.errors))
    }
    guard propertyRules else { return .success(StyleExpression(root: root, spec: spec, zoomCurve: nil)) }
    let featureConstant = ExpressionAnalysis.isFeatureConstant(root)
    if let spec, !featureConstant, !spec.isDataDriven {
      return .failure(ExpressionErrors([ExpressionError(key: "", message: "data expressions not supported")]))
    }
    let zoomConstant = ExpressionAnalysis.isGlobalPropertyConstant(root, [.zoom])
    if let spec, !zoomConstant, !spec.parameters.contains("zoom") {
      return .failure(ExpressionErrors([ExpressionError(key: "", message: "zoom expressions not supported")]))
    }
    var curve: ExpressionNode?
    switch ExpressionAnalysis.findZoomCurve(root) {
    case .error(let message): return .failure(ExpressionErrors([ExpressionError(key: "", message: message)]))
    case .curve(let c): curve = c
    case .none:
      if !zoomConstant {
        return .failure(ExpressionErrors([ExpressionError(
          key: "", message: "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")]))
      }
    }
    if curve is InterpolateNode, let spec, !spec.interpolated {
      return .failure(ExpressionErrors([ExpressionError(key: "", message: "\"interpolate\" expressions cannot be used with this property")]))
    }
    return .success(StyleExpression(root: root, spec: spec, zoomCurve: curve))
  }

  /// A property's value as the style gives it: a legacy function (an
  /// object), an expression (an array naming an operator), or a constant of
  /// the property's type (`constant`).
  package static func property(_ json: JSONValue, spec: PropertySpec) -> Result<StyleExpression, ExpressionErrors> {
    switch json {
    case .object: return compile(json, spec: spec)
    case .array(let a):
      if case .string(let op)? = a.first, ExpressionRegistry.isOperator(op) { return compile(json, spec: spec) }
      return constant(json, spec: spec)
    default: return constant(json, spec: spec)
    }
  }

  /// The weight of the upper of two zoom stops at `zoom` (0 for `step` curves), as
  /// the renderer blends values evaluated at the stops around the zoom.
  package func interpolationFactor(zoom: Double, lower: Double, upper: Double) -> Double {
    zoomInterpolation?.factor(zoom, lower, upper) ?? 0
  }

  /// A value of the property's own type (not an expression) as a constant
  /// expression: colours from CSS strings, padding from numbers or arrays, ...
  package static func constant(_ json: JSONValue, spec: PropertySpec) -> Result<StyleExpression, ExpressionErrors> {
    var value = StyleValue(json: json)
    if spec.type == "color", case .string(let s) = json {
      guard let c = StyleColor(css: s) else {
        return .failure(ExpressionErrors([ExpressionError(key: "", message: "Could not parse color from value '\(s)'")]))
      }
      value = .color(c)
    } else if let t = expectedType(of: spec), let rich = RichValues.convert(value, to: t) {
      value = rich
    }
    let root = LiteralNode(value, type: expectedType(of: spec) ?? value.type, key: "")
    return .success(StyleExpression(root: root, spec: spec, zoomCurve: nil))
  }

  /// The value, or the error that stopped the evaluation (the raw result the conformance tests compare).
  package func evaluateRaw(_ context: EvaluationContext, _ feature: EvaluationFeature?) -> Result<StyleValue, ExpressionEvaluationError> {
    do {
      return .success(try root.evaluate(EvaluationInput(context, feature)))
    } catch {
      return .failure(error)
    }
  }

  /// The value at a zoom for a feature (nil for zoom-only properties), with
  /// the property's default for failed evaluations.
  package func evaluate(zoom: Double, feature: EvaluationFeature? = nil) -> StyleValue {
    evaluate(EvaluationContext(zoom: zoom), feature)
  }

  /// The value for a property: the property's default when the evaluation
  /// fails, gives null or NaN, or gives a string outside an enum's values.
  package func evaluate(_ context: EvaluationContext, _ feature: EvaluationFeature?) -> StyleValue {
    guard let value = try? root.evaluate(EvaluationInput(context, feature)) else { return defaultValue }
    switch value {
    case .null: return defaultValue
    case .number(let n) where n.isNaN: return defaultValue
    case .string(let s) where enumValues != nil && !enumValues!.contains(s): return defaultValue
    default: return value
    }
  }

  /// The type a property's expressions must produce.
  static func expectedType(of spec: PropertySpec) -> ExpressionType? {
    let types: [String: ExpressionType] = [
      "color": .color, "string": .string, "number": .number, "enum": .string, "boolean": .boolean, "formatted": .formatted,
      "padding": .padding, "numberArray": .numberArray, "colorArray": .colorArray, "resolvedImage": .resolvedImage,
      "variableAnchorOffsetCollection": .variableAnchorOffsetCollection, "projectionDefinition": .projectionDefinition,
    ]
    if spec.type == "array" { return .array(spec.value.flatMap { types[$0] } ?? .value, spec.length) }
    return types[spec.type]
  }

  static func defaultValue(of spec: PropertySpec) -> StyleValue {
    guard let d = spec.defaultValue else { return .null }
    if spec.type == "color" {
      if case .string(let s) = d, let c = StyleColor(css: s) { return .color(c) }
      if case .object = d { return .color(.transparent) }
      return .null
    }
    let value = StyleValue(json: d)
    if let t = expectedType(of: spec), let rich = RichValues.convert(value, to: t) { return rich }
    return value
  }
}

extension PropertySpec {
  /// Whether expressions of this property may read the feature.
  package var isDataDriven: Bool {
    propertyType == "data-driven" || propertyType == "cross-faded-data-driven"
  }
}
