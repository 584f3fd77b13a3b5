/// Text as placement leaves it: a laid-out block at its place in device
/// pixels, with its colours. The display-list stage turns it into glyph masks
/// or outlines; placement rasterises nothing.
public struct GlyphRun: Sendable {
  /// The glyphs, laid out at their pixel size.
  var block: TextBlock
  /// The block's top-left corner, in device pixels.
  var origin: Point
  /// Rotation in degrees counter-clockwise (as seen on screen) about `pivot`.
  var degrees: Double = 0
  var pivot = Point(0, 0)
  /// How far the halo reaches beyond the glyph outlines, in device pixels.
  var haloWidth: Double = 0
  public var color: Color
  public var haloColor: Color?

  /// The block's box in device pixels before rotation.
  public var box: Rect {
    Rect(minX: origin.x, minY: origin.y, maxX: origin.x + block.width, maxY: origin.y + block.height)
  }

  /// True when the glyphs are drawn from cached masks: unrotated text no
  /// larger than `FontLibrary.maxMaskedTextSize`; other text is drawn from
  /// its outlines.
  var usesMasks: Bool {
    degrees.truncatingRemainder(dividingBy: 360) == 0 && block.size <= FontLibrary.maxMaskedTextSize
  }
}
