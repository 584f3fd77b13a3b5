/// A placed box ready to draw, in device pixels.
public struct PlacedBox: Sendable {
  public var box: Rect
  /// The style with its sizes in device pixels.
  public var style: ViewAnnotation.Style
  public var text: GlyphRun
}

