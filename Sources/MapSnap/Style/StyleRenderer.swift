internal import _MapSnapStyle

/// Draws a MapLibre style: the style front end's entry point.
package enum StyleRenderer {
  /// The frame `request` asks for, premultiplied RGBA.
  package static func render(_ request: StyleRenderRequest) throws -> Canvas {
    throw StyleRenderError.notDrawnYet
  }
}

package enum StyleRenderError: Error {
  case notDrawnYet
}
