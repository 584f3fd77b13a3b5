internal import _MapSnapRaster

/// Horizontal alignment of the lines of a text block, and of the block on its anchor.
public enum TextAlign: String, Sendable, CaseIterable {
  case left, center, right
}

/// Vertical placement of a text block on its anchor.
public enum TextBaseline: String, Sendable, CaseIterable {
  case top, middle, bottom
}

/// One glyph of a laid-out block: its face, glyph id and pen position in
/// pixels from the block's top-left corner (y is the line's baseline).
struct PositionedGlyph: Sendable {
  var face: Int
  var glyph: UInt32
  var x: Double
  var y: Double
  /// The pen's advance after the glyph, in pixels.
  var advance: Double = 0
}

/// Text laid out at a pixel size: glyphs on lines, and the block's box.
///
/// Rules: lines break at `\n`; glyphs come from ``TextShaper`` (HarfBuzz,
/// in visual order); each line's height is the first face's ascent plus
/// descent (DejaVu Sans: 1.164 em); the block is as wide as its widest
/// line's advance; lines align left, centre or right within it.
struct TextBlock: Sendable {
  var glyphs: [PositionedGlyph] = []
  var size: Double
  var width: Double = 0
  var height: Double = 0
  var ascent: Double = 0
  var lineHeight: Double = 0
  /// Code points no font in the chain covers (drawn as nothing).
  var missing: [Unicode.Scalar] = []
}

extension FontLibrary {
  /// Lays out `text` in the face named `font` (or the default) at `size`
  /// pixels per em.
  /// Lines wrap at `maxWidth` ems (`TextShaper.wrapRule`) and characters
  /// stand `letterSpacing` ems apart (`TextShaper.spacingRule`).
  func layout(
    _ text: String, font: String?, size: Double, align: TextAlign = .left, maxWidth: Double? = nil, letterSpacing: Double = 0
  ) -> TextBlock {
    let name = font ?? FontLibrary.defaultFont
    let chain = chain(for: name)
    let primary = faces[chain[0]]
    var block = TextBlock(size: size)
    block.ascent = primary.ascender / primary.unitsPerEm * size
    block.lineHeight = (primary.ascender - primary.descender) / primary.unitsPerEm * size
    guard let shaper else {
      return layoutUnshaped(text, chain: chain, block: block, align: align, maxWidth: maxWidth, letterSpacing: letterSpacing)
    }
    let shaped = shaper.shape(text, chain: chain, chainKey: name, maxWidth: maxWidth, letterSpacing: letterSpacing)
    block.missing = shaped.missing
    var lineRanges: [(start: Int, width: Double)] = []
    block.glyphs.reserveCapacity(shaped.lines.reduce(0) { $0 + $1.glyphs.count })
    for (li, line) in shaped.lines.enumerated() {
      let baseline = block.ascent + Double(li) * block.lineHeight
      lineRanges.append((block.glyphs.count, line.width * size))
      for g in line.glyphs {
        block.glyphs.append(
          PositionedGlyph(face: Int(g.face), glyph: g.glyph, x: g.x * size, y: baseline + g.y * size, advance: g.advance * size))
      }
      block.width = max(block.width, line.width * size)
    }
    block.height = Double(shaped.lines.count) * block.lineHeight
    alignLines(&block, lines: lineRanges, align)
    return block
  }

  /// Shapes the texts `layout` will be asked for (`texts`, with their
  /// `layout` arguments) side by side on up to `threads` threads (0: one
  /// per processor), so that `layout` then finds them shaped; the blocks
  /// are those `layout` makes alone (`TextShaper.shapeAll`).
  func prepareLayouts(_ texts: [(text: String, font: String?, maxWidth: Double?, letterSpacing: Double)], threads: Int) {
    let workers = min(threads > 0 ? threads : activeProcessorCount(), activeProcessorCount())
    guard workers > 1, texts.count >= TextShaper.parallelTexts, let shaper else { return }
    while helperShapers.count < workers - 1, let h = TextShaper(faces: faces) { helperShapers.append(h) }
    let requests = texts.map { t in
      let name = t.font ?? FontLibrary.defaultFont
      return TextShaper.Request(text: t.text, chain: chain(for: name), chainKey: name, maxWidth: t.maxWidth, letterSpacing: t.letterSpacing)
    }
    shaper.shapeAll(requests, helpers: Array(helperShapers.prefix(workers - 1)))
  }

  /// The layout without HarfBuzz (when it cannot be loaded): one glyph per
  /// code point from the first face covering it, left to right, pairs from
  /// one face kerned by its legacy `kern` table. Lines wrap at `maxWidth`
  /// ems by the shaped text's rule (`TextShaper.wrap`), and `letterSpacing`
  /// ems stand after every character but a line's last, as in shaped text
  /// (joining scripts are not joined here, so their letters are spaced too):
  /// a label's box is then close to the shaped one, not one long line.
  func layoutUnshaped(
    _ text: String, chain: [Int], block: TextBlock, align: TextAlign, maxWidth: Double? = nil, letterSpacing: Double = 0
  ) -> TextBlock {
    var block = block
    let size = block.size
    var lineRanges: [(start: Int, width: Double)] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      // The paragraph's code points that a face covers, with their glyphs.
      var scalars: [UInt32] = []
      var glyphs: [(face: Int, glyph: UInt32)] = []
      for scalar in paragraph.unicodeScalars where scalar != "\r" {
        guard let (face, glyph) = lookup(scalar, chain: chain) else {
          if !block.missing.contains(scalar) { block.missing.append(scalar) }
          continue
        }
        scalars.append(scalar.value)
        glyphs.append((face, glyph))
      }
      // In ems: glyph i's advance, and its kerning after glyph i − 1.
      func advance(_ i: Int) -> Double {
        let f = faces[glyphs[i].face]
        return f.advance(glyphs[i].glyph) / f.unitsPerEm
      }
      func kerning(_ i: Int) -> Double {
        guard i > 0, glyphs[i - 1].face == glyphs[i].face else { return 0 }
        let f = faces[glyphs[i].face]
        return f.kerning(glyphs[i - 1].glyph, glyphs[i].glyph) / f.unitsPerEm
      }
      var lines = [0..<scalars.count]
      if let maxWidth, !scalars.isEmpty {
        let advances = scalars.indices.map { kerning($0) + advance($0) + ($0 < scalars.count - 1 ? letterSpacing : 0) }
        lines = TextShaper.wrap(scalars, advances: advances, maxWidth: maxWidth)
      }
      for line in lines {
        let start = block.glyphs.count
        let baseline = block.ascent + Double(lineRanges.count) * block.lineHeight
        var pen = 0.0
        for i in line {
          if i > line.lowerBound { pen += (kerning(i) + letterSpacing) * size }
          block.glyphs.append(PositionedGlyph(face: glyphs[i].face, glyph: glyphs[i].glyph, x: pen, y: baseline, advance: advance(i) * size))
          pen += advance(i) * size
        }
        lineRanges.append((start, pen))
        block.width = max(block.width, pen)
      }
    }
    block.height = Double(lineRanges.count) * block.lineHeight
    alignLines(&block, lines: lineRanges, align)
    return block
  }

  /// Shifts each line (its first glyph's index and its width) within the
  /// block's width.
  private func alignLines(_ block: inout TextBlock, lines: [(start: Int, width: Double)], _ align: TextAlign) {
    guard align != .left else { return }
    for (i, line) in lines.enumerated() {
      let end = i + 1 < lines.count ? lines[i + 1].start : block.glyphs.count
      let shift = (block.width - line.width) * (align == .center ? 0.5 : 1)
      for g in line.start..<end { block.glyphs[g].x += shift }
    }
  }

  private func lookup(_ scalar: Unicode.Scalar, chain: [Int]) -> (Int, UInt32)? {
    for face in chain {
      let g = faces[face].glyphIndex(scalar)
      if g != 0 { return (face, g) }
    }
    return nil
  }

  /// The outlines of `block` with its top-left corner at `origin`, rotated by
  /// `degrees` counter-clockwise (as seen on screen) about `pivot`, as one
  /// path to fill with the non-zero rule; with `halo`, the glyphs' halos of
  /// that width instead.
  func path(for block: TextBlock, at origin: Point, degrees: Double = 0, pivot: Point = Point(0, 0), halo: Double? = nil) -> Path {
    var out = Path()
    let rotate = degrees != 0
    let a = degrees * .pi / 180
    let (c, s) = (cosine(a), sine(a))
    for g in block.glyphs {
      let glyph = halo.map { haloPath(face: g.face, glyph: g.glyph, size: block.size, width: $0) }
        ?? glyphPath(face: g.face, glyph: g.glyph, size: block.size)
      if glyph.isEmpty { continue }
      let base = origin + Point(g.x, g.y)
      let start = out.points.count
      if rotate {
        for p in glyph.points {
          let d = base + p - pivot
          out.points.append(Point(pivot.x + d.x * c + d.y * s, pivot.y - d.x * s + d.y * c))
        }
      } else {
        for p in glyph.points { out.points.append(base + p) }
      }
      for contour in glyph.contours {
        out.contours.append(Contour(start: contour.start + start, count: contour.count, isClosed: true))
      }
    }
    return out
  }
}

extension FontLibrary {
  /// The outlines of a text along a line, each glyph of `block` placed and
  /// turned by its pose; with `halo`, the glyphs' halos of that width.
  func path(for block: TextBlock, poses: [GlyphPose], halo: Double? = nil) -> Path {
    var out = Path()
    for (g, pose) in zip(block.glyphs, poses) {
      let glyph = halo.map { haloPath(face: g.face, glyph: g.glyph, size: block.size, width: $0) }
        ?? glyphPath(face: g.face, glyph: g.glyph, size: block.size)
      if glyph.isEmpty { continue }
      let start = out.points.count
      for p in glyph.points { out.points.append(pose.apply(p)) }
      for contour in glyph.contours {
        out.contours.append(Contour(start: contour.start + start, count: contour.count, isClosed: true))
      }
    }
    return out
  }
}

extension FontLibrary {
  /// Mask placements for an unrotated `block` with its top-left corner at
  /// `origin`: each glyph's pen position is split into an integer pixel and a
  /// quarter-pixel offset in x; baselines snap to whole pixels. With `halo`,
  /// the glyphs' halo masks of that width.
  func masks(for block: TextBlock, at origin: Point, halo: Double = 0) -> [(mask: Int, x: Int, y: Int)] {
    var out: [(mask: Int, x: Int, y: Int)] = []
    out.reserveCapacity(block.glyphs.count)
    forEachGlyphPlacement(block, at: origin) { face, glyph, subpixel, x, y in
      let m = glyphMask(face: face, glyph: glyph, size: block.size, subpixel: subpixel, halo: halo)
      if m >= 0 { out.append((m, x, y)) }
    }
    return out
  }

  /// Calls `body` with each glyph of `block` with its top-left corner at
  /// `origin`: its face and glyph, its quarter-pixel offset in x (0–3) and
  /// its integer pixel, its baseline snapped to a whole pixel. Not at all
  /// for an origin that is not finite or lies beyond ±10^9. A loop, not an
  /// array: it runs for every label's run when the display list is built.
  @inline(__always)
  func forEachGlyphPlacement(
    _ block: TextBlock, at origin: Point, _ body: (_ face: Int, _ glyph: UInt32, _ subpixel: Int, _ x: Int, _ y: Int) -> Void
  ) {
    guard origin.x.isFinite, origin.y.isFinite, abs(origin.x) < 1e9, abs(origin.y) < 1e9 else { return }
    let y = Int((origin.y + block.ascent).rounded()) - Int(block.ascent.rounded())
    for g in block.glyphs {
      let px = origin.x + g.x
      var ix = Int(px.rounded(.down))
      var q = Int(((px - Double(ix)) * 4).rounded())
      if q == 4 {
        ix += 1
        q = 0
      }
      body(g.face, g.glyph, q, ix, y + Int(g.y.rounded()))
    }
  }
}

#if canImport(Glibc)
  import Glibc
#endif

@inline(__always) private func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) private func sine(_ x: Double) -> Double { sin(x) }
