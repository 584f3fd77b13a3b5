/// How far a feature's symbols can paint beyond its geometry: the geometric
/// rules that culling, collision and drawing share, each written once.
///
/// Distances are in the pixel space of their arguments (logical or device
/// pixels: the rules are linear in the sizes they are given).
enum SymbolReach {
  /// Anti-aliased coverage of an edge can reach one pixel past the edge.
  static let antialiasMargin = 1.0

  /// How far a stroke of `width` paints past its centre line: half the width
  /// times the join's spike factor. A miter can reach `miterLimit` half
  /// widths (at least 1.5, so that square caps, whose corners are √2 ≈ 1.41
  /// half widths away, are covered); round and bevel joins reach 1.5.
  static func stroke(width: Double, join: LineJoin, miterLimit: Double) -> Double {
    let factor = join == .miter ? max(miterLimit, 1.5) : 1.5
    return width / 2 * factor
  }

  /// How far a style can paint beyond its geometry, in logical pixels: the
  /// stroke's reach, or the marker's (`marker(_:icon:)` plus its offset),
  /// whichever is larger, plus the anti-aliasing margin.
  static func style(_ s: Style, icon: IconSize?) -> Double {
    var r = 0.0
    if s.stroke != nil { r = stroke(width: s.strokeWidth, join: s.lineJoin, miterLimit: s.miterLimit) }
    if let m = s.marker { r = max(r, marker(m, icon: icon) + abs(m.offset.0) + abs(m.offset.1)) }
    return r + antialiasMargin
  }

  /// How far from its centre (the point plus `offset`) a marker paints, in
  /// logical pixels: an icon's half diagonal, or for a built-in shape
  /// 1.5 × `size` (the pin's head top is 1.5 × size above its tip; every other
  /// shape stays within size / 2) plus the outline's width.
  static func marker(_ m: MarkerStyle, icon: IconSize?) -> Double {
    if m.icon != nil {
      guard let icon else { return 0 }  // an icon that failed to load draws nothing
      let box = MarkerBox.iconRect(for: icon, at: Point(0, 0), size: m.size, offset: (0, 0), pixelRatio: 1)
      return (box.width * box.width + box.height * box.height).squareRoot() / 2
    }
    return m.size * 1.5 + m.strokeWidth
  }

  /// How far a text block can reach from the point it is anchored at, in
  /// logical pixels, before it is laid out: at most `advance` ems (the fonts'
  /// widest glyph advance) per character of its longest line across,
  /// `lineHeightEms` per line down, turned any way about its anchor (so
  /// width plus height bounds it), plus one em of slack for glyph overhangs,
  /// the halo and the offset.
  static func text(_ text: String, size: Double, halo: Double, offset: (Double, Double) = (0, 0), advance: Double) -> Double {
    self.text(TextExtent(text), size: size, halo: halo, offset: offset, advance: advance)
  }

  /// The same reach for a text of `extent`. It grows with the extent's
  /// longest line and line count (and every operation on them rounds
  /// monotonically), so the extent of a field's largest texts bounds the
  /// reach of each of them.
  static func text(_ extent: TextExtent, size: Double, halo: Double, offset: (Double, Double) = (0, 0), advance: Double) -> Double {
    let ems = Double(extent.longestLine) * advance + Double(extent.lines) * lineHeightEms + 1
    return size * ems + halo + abs(offset.0) + abs(offset.1)
  }

  /// The reach of a label of `text` in `style`: `text`'s, its lines wrapped
  /// at the style's `maxWidth` (`TextExtent.wrapped`) and each character's
  /// advance grown by a positive `letterSpacing`. The one rule the resolver
  /// (which features to keep) and the placer (which positions) share.
  /// A label along a line reaches nowhere beyond its line: it is placed
  /// only on the line's parts inside the image (`LinePlacer`), so it is 0.
  static func label(_ text: String, style: LabelStyle, advance: Double) -> Double {
    label(TextExtent(text), style: style, advance: advance)
  }

  /// The same for a text of `extent` (a bound over a field's texts); NaN
  /// (reach everything) for a negative advance.
  static func label(_ extent: TextExtent, style: LabelStyle, advance: Double) -> Double {
    guard style.placement == .point else { return 0 }
    guard advance >= 0 else { return .nan }
    return self.text(
      extent.wrapped(style.maxWidth), size: style.size, halo: style.halo?.width ?? 0, offset: (style.offsetReach, 0),
      advance: advance + max(0, style.letterSpacing))
  }

  /// The reach of an annotation text of `extent` in `style`, drawn at
  /// `factor` times its reference-scale size (`referenceScale / scale`):
  /// its size, halo and offset scaled, its lines wrapped at the style's
  /// `maxWidth`, each character's advance grown by a positive
  /// `letterSpacing`; NaN for a negative size or advance. The one rule for
  /// which annotation features are read, listed and kept.
  static func annotation(_ extent: TextExtent, style: AnnotationStyle, factor: Double, advance: Double) -> Double {
    let size = style.size * factor
    guard size >= 0, advance >= 0 else { return .nan }
    return text(
      extent.wrapped(style.maxWidth), size: size, halo: (style.halo?.width ?? 0) * factor,
      offset: (style.offset.0 * factor, style.offset.1 * factor), advance: advance + max(0, style.letterSpacing))
  }

  /// A generous line height in ems: DejaVu Sans's ascent plus descent is
  /// 1.164 em, Droid Sans Fallback's less.
  static let lineHeightEms = 1.25
}

