/// A placed box ready to draw, in device pixels.
package struct PlacedBox: Sendable {
  package var box: Rect
  /// The style with its sizes in device pixels.
  package var style: ViewAnnotation.Style
  package var text: GlyphRun
}

