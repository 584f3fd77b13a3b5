/// A halo: the glyph outline stroked under the text, reaching `width` logical
/// pixels beyond it.
public struct Halo: Sendable {
  public var color: Color
  public var width: Double

  public init(color: Color, width: Double) {
    self.color = color
    self.width = width
  }
}
