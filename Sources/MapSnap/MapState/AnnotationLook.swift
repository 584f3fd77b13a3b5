/// An annotation feature's text as its sublayer's style draws it in this
/// frame, whatever its layer's status: the text (`textField`), its size and
/// halo width scaled with the map (`x × referenceScale / scale`, logical
/// pixels), its angle (`angleField`, degrees; 0 when absent or not a finite
/// number), how far it reaches from its anchor (logical pixels, capped at
/// `LayerResolver.maxListedReach`, so a text too large to draw does not
/// list the whole world) and why it cannot be drawn, in this order: no
/// text, transparent (no colour and no visible halo), too small or too
/// large (device size against `FontLibrary.minTextSize` and `maxTextSize`).
struct AnnotationLook {
  let text: String?
  let size: Double
  let haloWidth: Double
  let angle: Double
  let reach: Double
  let hidden: AnnotationHiddenReason?

  /// The look of `feature` in `anno` drawn with `style` at `factor`
  /// (`referenceScale / scale`), `pixelRatio` and characters at most
  /// `advance` ems wide.
  init(_ feature: Feature, in anno: AnnotationLayer, style: AnnotationStyle, factor: Double, pixelRatio: Double, advance: Double) {
    let text = anno.text.text(feature.properties)
    size = style.size * factor
    haloWidth = (style.halo?.width ?? 0) * factor
    let device = size * pixelRatio
    let invisibleHalo = (style.halo?.color.a ?? 0) == 0 || haloWidth <= 0
    if text == nil {
      hidden = .noText
    } else if style.color.a == 0 && invisibleHalo {
      hidden = .transparent
    } else if device < FontLibrary.minTextSize {
      hidden = .tooSmall
    } else if device > FontLibrary.maxTextSize {
      hidden = .tooLarge
    } else {
      hidden = nil
    }
    var angle = 0.0
    if let field = anno.angleField, let v = feature.properties[field] {
      switch v {
      case .number(let n) where n.isFinite: angle = n
      case .string(let t): angle = Double(t).flatMap { $0.isFinite ? $0 : nil } ?? 0
      default: break
      }
    }
    self.text = text
    self.angle = angle
    reach = min(SymbolReach.annotation(TextExtent(text ?? ""), style: style, factor: factor, advance: advance), LayerResolver.maxListedReach)
  }
}
