/// Text as placement leaves it: a laid-out block at its place in device
/// pixels, with its colours. The display-list stage turns it into glyph masks
/// or outlines; placement rasterises nothing.
package struct GlyphRun: Sendable {
  /// The glyphs, laid out at their pixel size.
  var block: TextBlock
  /// The block's top-left corner, in device pixels.
  var origin: Point
  /// Rotation in degrees counter-clockwise (as seen on screen) about `pivot`.
  var degrees: Double = 0
  var pivot = Point(0, 0)
  /// How far the halo reaches beyond the glyph outlines, in device pixels.
  var haloWidth: Double = 0
  package var color: Color
  package var haloColor: Color?

  /// The block's box in device pixels before rotation.
  package var box: Rect {
    Rect(minX: origin.x, minY: origin.y, maxX: origin.x + block.width, maxY: origin.y + block.height)
  }

  /// True when the glyphs are drawn from cached masks: unrotated text no
  /// larger than `FontLibrary.maxMaskedTextSize`; other text is drawn from
  /// its outlines.
  var usesMasks: Bool {
    poses == nil && degrees.truncatingRemainder(dividingBy: 360) == 0 && block.size <= FontLibrary.maxMaskedTextSize
  }

  /// Text along a line: each glyph's own place and turn (one per glyph of
  /// `block`, in order), instead of `origin` and `degrees`.
  var poses: [GlyphPose]? = nil
}

/// Where one glyph of a text along a line is drawn: its origin (the pen
/// position on the baseline, offsets included) in device pixels, and the
/// turn of its x axis, as the cosine and sine of the line's direction on
/// screen (y down).
struct GlyphPose: Sendable {
  var origin: Point
  var cos: Double
  var sin: Double

  /// `q`, a point of the glyph relative to its origin, on the image.
  @inline(__always) func apply(_ q: Point) -> Point {
    Point(origin.x + q.x * cos - q.y * sin, origin.y + q.x * sin + q.y * cos)
  }
}
