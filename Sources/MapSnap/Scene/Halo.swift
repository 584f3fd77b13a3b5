/// A halo: the glyph outline stroked under the text, reaching `width` logical
/// pixels beyond it.
public struct Halo: Sendable {
  /// The outline's colour.
  public var color: Color
  /// How far the outline reaches beyond the glyphs, in logical pixels.
  public var width: Double

  /// A halo of `color` reaching `width` logical pixels.
  public init(color: Color, width: Double) {
    self.color = color
    self.width = width
  }
}
