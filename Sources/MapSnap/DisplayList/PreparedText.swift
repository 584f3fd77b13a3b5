internal import _MapSnapRaster

/// Glyphs ready to draw, in device pixels: cached coverage masks for
/// unrotated text, outlines for rotated or large text.
struct PreparedText: Sendable {
  var color: Color
  var haloColor: Color?
  /// Outlines: the glyphs, filled with the non-zero rule.
  var path: Path?
  /// Outlines: the halo, every glyph outline stroked with round joins.
  var halo: Path?
  /// Masks: glyph masks and their integer positions.
  var glyphMasks: [(mask: Int, x: Int, y: Int)] = []
  var haloMasks: [(mask: Int, x: Int, y: Int)] = []
  var atlas: MaskAtlas?
}

