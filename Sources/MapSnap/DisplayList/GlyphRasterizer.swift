/// The display-list stage's serial first pass: turns placed glyph runs into
/// masks (rasterised once per face, size, glyph, quarter-pixel offset and
/// halo width into the font library's atlas, then copied) or outlines
/// (`GlyphRun.usesMasks` decides). FreeType is used from this one thread; the
/// parallel build only reads the results.
struct GlyphRasterizer {
  let fonts: FontLibrary

  func prepare(_ run: GlyphRun) -> PreparedText {
    var text = PreparedText(color: run.color, haloColor: run.haloColor)
    if let poses = run.poses {
      text.path = fonts.path(for: run.block, poses: poses)
      if run.haloWidth > 0 { text.halo = fonts.path(for: run.block, poses: poses, halo: run.haloWidth) }
    } else if run.usesMasks {
      text.atlas = fonts.atlas
      text.glyphMasks = fonts.masks(for: run.block, at: run.origin)
      if run.haloWidth > 0 { text.haloMasks = fonts.masks(for: run.block, at: run.origin, halo: run.haloWidth) }
    } else {
      text.path = fonts.path(for: run.block, at: run.origin, degrees: run.degrees, pivot: run.pivot)
      if run.haloWidth > 0 {
        text.halo = fonts.path(for: run.block, at: run.origin, degrees: run.degrees, pivot: run.pivot, halo: run.haloWidth)
      }
    }
    return text
  }
}
