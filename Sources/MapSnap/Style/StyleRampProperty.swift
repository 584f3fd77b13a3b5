internal import _MapSnapRaster
internal import _MapSnapStyle

/// A colour ramp property: a paint property whose expression reads an input
/// other than zoom and the feature, `heatmap-color` (`["heatmap-density"]`)
/// and `color-relief-color` (`["elevation"]`), compiled once and evaluated
/// at each value of that input. A value that does not compile is a warning
/// of the layer and the specification's default stands in for it; without
/// a default (`color-relief-color`) the ramp is transparent.
struct StyleRampProperty {
  private let expression: StyleExpression?
  /// The labels of the expression's top-level `interpolate` (or
  /// `interpolate-hcl`, `interpolate-lab`), ascending; empty for any other
  /// expression.
  let stops: [Double]
  private let zoom: Double

  /// Property `name` of `layer`'s `paint`, at MapLibre zoom `zoom`.
  init(_ layer: StyleLayer, _ name: String, zoom: Double, problems: inout [String]) {
    self.zoom = zoom
    let spec = StyleReference.paint(layerType: layer.typeName, name: name)
    var json = layer.paint[name]
    if let given = json, let spec, case .failure(let errors) = StyleExpression.property(given, spec: spec) {
      let why = errors.errors.map { "\($0.key.isEmpty ? "" : $0.key + ": ")\($0.message)" }.joined(separator: "; ")
      let problem = "\(layer.path).paint[\(Echo.quoted(name))]: \(why); the default is drawn"
      // Once per layer: the layer's `StylePaint` may have compiled the property too.
      if !problems.contains(problem) { problems.append(problem) }
      json = nil
    }
    if json == nil { json = spec?.defaultValue }
    expression = json.flatMap { j in spec.flatMap { try? StyleExpression.property(j, spec: $0).get() } }
    stops = expression == nil ? [] : json.map(Self.interpolationLabels) ?? []
  }

  /// The labels of `json`'s top-level interpolation: the numbers after its
  /// operator, interpolation type and input, every other member.
  static func interpolationLabels(_ json: JSONValue) -> [Double] {
    guard case .array(let a) = json, a.count >= 5, case .string(let op) = a[0],
      op == "interpolate" || op == "interpolate-hcl" || op == "interpolate-lab"
    else { return [] }
    var labels: [Double] = []
    for i in stride(from: 3, to: a.count - 1, by: 2) {
      guard case .number(let n) = a[i] else { return [] }
      labels.append(n)
    }
    return labels
  }

  /// The colour (straight RGBA 0…1) at `heatmapDensity` or `elevation`;
  /// transparent where the expression gives no colour.
  func color(heatmapDensity: Double? = nil, elevation: Double? = nil) -> (r: Double, g: Double, b: Double, a: Double) {
    guard let expression,
      case .color(let c) = expression.evaluate(EvaluationContext(zoom: zoom, heatmapDensity: heatmapDensity, elevation: elevation), nil)
    else { return (0, 0, 0, 0) }
    return (c.r, c.g, c.b, c.a)
  }
}
