internal import _MapSnapRaster
internal import _MapSnapStyle
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One font file of the style's `font-faces`, opened through FreeType
/// (outlines) and HarfBuzz (shaping): its glyphs made into SDF glyphs as
/// `LocalGlyphs` makes them, once per glyph, and runs of the scripts that
/// need a shaping engine (Devanagari conjuncts, Khmer, Myanmar, Thai marks)
/// shaped by HarfBuzz with the file's own OpenType tables into positioned
/// glyphs. Shared by the style's frames behind a lock.
final class StyleFontFile: Sendable {
  private struct State: @unchecked Sendable {
    let face: FontFace
    var shaper: TextShaper?
    var shaperTried = false
    var byIndex: [UInt32: SDFGlyph] = [:]
  }
  private let state: Mutex<State>
  let url: String

  /// Opens the file at `path`; nil when FreeType cannot read it as a font.
  init?(path: String, url: String) {
    guard let library = FreeTypeLibrary(), let face = FontFace(library: library, path: path) else { return nil }
    state = Mutex(State(face: face))
    self.url = url
  }

  /// The SDF glyph of `code`, or nil when the file does not cover it.
  func glyph(_ code: UInt32) -> SDFGlyph? {
    guard let scalar = Unicode.Scalar(code) else { return nil }
    return state.withLock { s -> SDFGlyph? in
      let index = s.face.glyphIndex(scalar)
      guard index != 0 else { return nil }
      return Self.sdf(index, code: code, in: &s)
    }
  }

  /// `codes` (one run of one script, left to right) shaped by HarfBuzz:
  /// each glyph an SDF glyph whose pen offset is in its `left` and `top`
  /// and whose advance is HarfBuzz's (24 units to the em); nil when
  /// HarfBuzz is not available or the file covers none of it.
  func shape(_ codes: [UInt32]) -> [SDFGlyph]? {
    var text = ""
    for c in codes { if let s = Unicode.Scalar(c) { text.unicodeScalars.append(s) } }
    return state.withLock { s -> [SDFGlyph]? in
      if !s.shaperTried {
        s.shaperTried = true
        s.shaper = TextShaper(faces: [s.face])
      }
      guard let shaper = s.shaper else { return nil }
      let shaped = shaper.shape(text, chain: [0], chainKey: url)
      guard shaped.missing.count < codes.count, let line = shaped.lines.first else { return nil }
      let em = SymbolShaping.oneEm
      var out: [SDFGlyph] = []
      var pen = 0.0
      for g in line.glyphs {
        let base = Self.sdf(g.glyph, code: 0, in: &s)
        out.append(
          SDFGlyph(
            id: base.id, field: base.field, width: base.width, height: base.height, left: base.left + Int(((g.x - pen) * em).rounded()),
            top: base.top - Int((g.y * em).rounded()), advance: Int((g.advance * em).rounded())))
        pen += g.advance
      }
      return out
    }
  }

  private static func sdf(_ index: UInt32, code: UInt32, in s: inout State) -> SDFGlyph {
    if let hit = s.byIndex[index] { return hit }
    let made = LocalGlyphs.make(code, face: s.face, glyph: index)
    s.byIndex[index] = made
    return made
  }
}
