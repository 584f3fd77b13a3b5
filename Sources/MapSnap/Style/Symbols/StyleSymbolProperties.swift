internal import _MapSnapRaster
internal import _MapSnapStyle

/// The layout and paint properties a `symbol` layer reads, compiled for a
/// frame (`StyleProperty`: constant ones evaluated once); a class, so that
/// the layout reads it without copying its fifty properties per feature.
final class StyleSymbolProperties {
  let placement, spacing, avoidEdges, sortKey, zOrder: StyleProperty
  let textField, textFont, textSize, textMaxWidth, textLineHeight, textLetterSpacing, textJustify, textAnchor: StyleProperty
  let textOffset, textRotate, textPadding, textTransform, textAllowOverlap, textIgnorePlacement, textOptional: StyleProperty
  let textMaxAngle, textKeepUpright, textRadialOffset, textVariableAnchor, textVariableAnchorOffset, textRotationAlignment, textWritingMode,
    iconRotationAlignment: StyleProperty
  let iconImage, iconSize, iconRotate, iconOffset, iconAnchor, iconPadding, iconAllowOverlap, iconIgnorePlacement, iconOptional: StyleProperty
  let iconTextFit, iconTextFitPadding, iconKeepUpright: StyleProperty
  let textColor, textOpacity, textHaloColor, textHaloWidth, textHaloBlur, textTranslate, textTranslateAnchor: StyleProperty
  let iconColor, iconOpacity, iconHaloColor, iconHaloWidth, iconHaloBlur, iconTranslate, iconTranslateAnchor: StyleProperty

  init(_ layer: StyleLayer, zoom: Double, images: [String], problems: inout [String]) {
    func l(_ n: String) -> StyleProperty { StyleProperty(layer, n, layout: true, zoom: zoom, availableImages: images, problems: &problems) }
    func p(_ n: String) -> StyleProperty { StyleProperty(layer, n, zoom: zoom, problems: &problems) }
    placement = l("symbol-placement"); spacing = l("symbol-spacing"); avoidEdges = l("symbol-avoid-edges"); sortKey = l("symbol-sort-key"); zOrder = l("symbol-z-order")
    textField = l("text-field"); textFont = l("text-font"); textSize = l("text-size"); textMaxWidth = l("text-max-width")
    textLineHeight = l("text-line-height"); textLetterSpacing = l("text-letter-spacing"); textJustify = l("text-justify")
    textAnchor = l("text-anchor"); textOffset = l("text-offset"); textRotate = l("text-rotate"); textPadding = l("text-padding")
    textTransform = l("text-transform"); textAllowOverlap = l("text-allow-overlap"); textIgnorePlacement = l("text-ignore-placement")
    textOptional = l("text-optional"); textMaxAngle = l("text-max-angle"); textKeepUpright = l("text-keep-upright")
    textRadialOffset = l("text-radial-offset"); textVariableAnchor = l("text-variable-anchor")
    textVariableAnchorOffset = l("text-variable-anchor-offset"); textWritingMode = l("text-writing-mode")
    textRotationAlignment = l("text-rotation-alignment"); iconRotationAlignment = l("icon-rotation-alignment")
    iconImage = l("icon-image"); iconSize = l("icon-size"); iconRotate = l("icon-rotate"); iconOffset = l("icon-offset")
    iconAnchor = l("icon-anchor"); iconPadding = l("icon-padding"); iconAllowOverlap = l("icon-allow-overlap")
    iconIgnorePlacement = l("icon-ignore-placement"); iconOptional = l("icon-optional"); iconTextFit = l("icon-text-fit")
    iconTextFitPadding = l("icon-text-fit-padding"); iconKeepUpright = l("icon-keep-upright")
    textColor = p("text-color"); textOpacity = p("text-opacity"); textHaloColor = p("text-halo-color")
    textHaloWidth = p("text-halo-width"); textHaloBlur = p("text-halo-blur"); textTranslate = p("text-translate")
    textTranslateAnchor = p("text-translate-anchor")
    iconColor = p("icon-color"); iconOpacity = p("icon-opacity"); iconHaloColor = p("icon-halo-color")
    iconHaloWidth = p("icon-halo-width"); iconHaloBlur = p("icon-halo-blur"); iconTranslate = p("icon-translate")
    iconTranslateAnchor = p("icon-translate-anchor")
  }
}

extension StyleProperty {
  func bool(_ f: EvaluationFeature?) -> Bool {
    if case .bool(let b) = value(f) { return b }
    return false
  }

  /// A colour property's value (transparent black when it has none).
  func styleColor(_ f: EvaluationFeature?) -> StyleColor {
    if case .color(let c) = value(f) { return c }
    return StyleColor(r: 0, g: 0, b: 0, a: 0)
  }

  /// A `padding` value as top, right, bottom, left (one number: all four).
  func padding(_ f: EvaluationFeature?) -> [Double] {
    switch value(f) {
    case .number(let n): return [n, n, n, n]
    case .padding(let p) where p.count == 4: return p
    case .array, .numberArray:
      let v = numbers(f)
      switch v.count {
      case 1: return [v[0], v[0], v[0], v[0]]
      case 2: return [v[0], v[1], v[0], v[1]]
      case 3: return [v[0], v[1], v[2], v[1]]
      case 4: return v
      default: return [0, 0, 0, 0]
      }
    default: return [0, 0, 0, 0]
    }
  }

  /// A two-number array (offsets, translates); (0, 0) otherwise.
  func pair(_ f: EvaluationFeature?) -> Point {
    let v: [Double]
    if case .numberArray(let a) = value(f) { v = a } else { v = numbers(f) }
    return v.count == 2 ? Point(v[0], v[1]) : Point(0, 0)
  }

  /// An array of strings (`text-font`).
  func strings(_ f: EvaluationFeature?) -> [String] {
    guard case .array(let a) = value(f) else { return [] }
    return a.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
  }
}
