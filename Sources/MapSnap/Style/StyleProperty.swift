internal import _MapSnapRaster
internal import _MapSnapStyle

/// One paint or layout property of a style layer, compiled once per frame:
/// its expression (or the specification's default), evaluated once when it
/// reads no feature, per feature otherwise. A value that does not compile
/// is a warning of the layer, and the default stands in for it, as
/// MapLibre draws it.
struct StyleProperty: Sendable {
  private let expression: StyleExpression?
  private let constant: StyleValue
  private let context: EvaluationContext
  /// True when the value is the same for every feature of the frame.
  let isConstant: Bool

  /// Property `name` of `layer`'s `paint` (or `layout`) at MapLibre zoom
  /// `zoom`; `availableImages` are the sprite's images (what `image`
  /// expressions find).
  init(_ layer: StyleLayer, _ name: String, layout: Bool = false, zoom: Double, availableImages: [String] = [], problems: inout [String]) {
    let type = layer.typeName
    let spec = layout ? StyleReference.layout(layerType: type, name: name) : StyleReference.paint(layerType: type, name: name)
    context = EvaluationContext(zoom: zoom, availableImages: availableImages)
    let fallback = CompiledLayerProperties.defaultValue(layerType: type, name: name, layout: layout)
    let json = layout ? layer.layout[name] : layer.paint[name]
    guard let json else {
      expression = nil
      constant = fallback
      isConstant = true
      return
    }
    let compiled = layer.compiled.expression((layout ? "layout:" : "paint:") + name) {
      spec.map { StyleExpression.property(json, spec: $0) } ?? StyleExpression.compile(json, spec: nil)
    }
    switch compiled {
    case .success(let e):
      if e.isFeatureConstant {
        expression = nil
        constant = e.evaluate(context, nil)
        isConstant = true
      } else {
        expression = e
        constant = fallback
        isConstant = false
      }
    case .failure(let errors):
      let path = "\(layer.path).\(layout ? "layout" : "paint")[\(Echo.quoted(name))]"
      let why = errors.errors.map { "\($0.key.isEmpty ? "" : $0.key + ": ")\($0.message)" }.joined(separator: "; ")
      problems.append("\(path): \(why); the default is drawn")
      expression = nil
      constant = fallback
      isConstant = true
    }
  }

  /// The value for `feature`.
  @inline(__always) func value(_ feature: EvaluationFeature?) -> StyleValue {
    guard let expression else { return constant }
    return expression.evaluate(context, feature)
  }

  func number(_ feature: EvaluationFeature?) -> Double {
    if case .number(let n) = value(feature), n.isFinite { return n }
    return 0
  }

  func string(_ feature: EvaluationFeature?) -> String? {
    if case .string(let s) = value(feature) { return s }
    return nil
  }

  /// The image a `resolvedImage` property names (a string reads as its name).
  func imageName(_ feature: EvaluationFeature?) -> String? {
    switch value(feature) {
    case .image(let i): return i.name
    case .string(let s): return s
    default: return nil
    }
  }

  /// An 8-bit straight-alpha colour with `opacity` (0…1) applied to its alpha.
  func color(_ feature: EvaluationFeature?, opacity: Double = 1) -> Color {
    guard case .color(let c) = value(feature) else { return Color(r: 0, g: 0, b: 0, a: 0) }
    return Self.color(c, opacity: opacity)
  }

  static func color(_ c: StyleColor, opacity: Double) -> Color {
    func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
    return Color(r: byte(c.r), g: byte(c.g), b: byte(c.b), a: byte(c.a * max(0, min(1, opacity))))
  }

  func numbers(_ feature: EvaluationFeature?) -> [Double] {
    guard case .array(let a) = value(feature) else { return [] }
    return a.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
  }
}
