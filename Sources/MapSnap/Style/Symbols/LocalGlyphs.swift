internal import _MapSnapRaster
internal import _MapSnapStyle
import Synchronization

/// SDF glyphs made from local font files for the code points a style's
/// glyph ranges do not have (or for a style without a `glyphs` URL), as
/// MapLibre draws ideographs from a local font (`localIdeographFontFamily`):
/// the outline at 24 pixels per em, rasterised by mapsnap's own
/// rasteriser, turned into a signed distance field of radius 8 with the
/// edge at 192 (`SDFGlyph.edge`) by an exact Euclidean distance transform,
/// with node-fontnik's metrics (`top` less the face's ascent). The face is
/// the first of the bundled fonts (`FontLibrary.bundledDirectory`) that
/// has the code point, in the order `FontLibrary.fallbackNames` gives, a
/// bold face first for a bold fontstack. Made once per process per face
/// and code point, behind a lock.
final class LocalGlyphs: Sendable {
  /// The fonts `FontLibrary` bundles, opened on first use; nil when none could be.
  static let shared = LocalGlyphs(directory: FontLibrary.bundledDirectory)

  /// The field's reach on each side of the edge, in pixels at 24 per em (`SDF_PX`).
  static let radius = 8.0
  /// Where the edge lies within the field's range (192 of 255).
  static let cutoff = 0.25
  /// The glyph size SDF ranges are cut at.
  static let size = SymbolShaping.oneEm

  private struct State: @unchecked Sendable {
    var faces: [FontFace] = []
    var glyphs: [String: SDFGlyph?] = [:]
  }
  private let state: Mutex<State>

  init(directory: String) {
    var s = State()
    if let lib = FreeTypeLibrary() {
      let files = FileIO.listDirectory(directory).sorted()
      for f in files where f.hasSuffix(".ttf") || f.hasSuffix(".otf") {
        if let face = FontFace(library: lib, path: directory + "/" + f) { s.faces.append(face) }
      }
    }
    let order = ["DejaVu Sans Bold"] + FontLibrary.fallbackNames
    s.faces.sort { a, b in (order.firstIndex(of: a.fullName) ?? order.count) < (order.firstIndex(of: b.fullName) ?? order.count) }
    state = Mutex(s)
  }

  /// Whether any font could be opened.
  var isAvailable: Bool { state.withLock { !$0.faces.isEmpty } }

  /// The glyph of `code` for `fontstack`, or nil when no local font has it.
  func glyph(_ code: UInt32, fontstack: String) -> SDFGlyph? {
    guard let scalar = Unicode.Scalar(code) else { return nil }
    let bold = ["Bold", "Semibold", "SemiBold", "Black", "Heavy"].contains { fontstack.contains($0) }
    let key = "\(bold ? "b" : "r")\(code)"
    return state.withLock { s -> SDFGlyph? in
      if let hit = s.glyphs[key] { return hit }
      var made: SDFGlyph?
      for face in s.faces where bold || face.fullName != "DejaVu Sans Bold" {
        let index = face.glyphIndex(scalar)
        guard index != 0 else { continue }
        made = Self.make(code, face: face, glyph: index)
        break
      }
      s.glyphs[key] = made
      return made
    }
  }

  /// The widest and tallest outline made into a field, in pixels at 24
  /// per em (ten ems): a font's glyph past it (a hostile `font-faces`
  /// file's) keeps its advance and draws nothing.
  static let maximumGlyphSide = 240.0

  /// The SDF glyph of one outline.
  static func make(_ code: UInt32, face: FontFace, glyph: UInt32) -> SDFGlyph {
    let scale = size / face.unitsPerEm
    let advance = Int((face.advance(glyph) * scale).rounded())
    let ascent = Int((face.ascender * scale).rounded())
    let path = face.outline(glyph).flattened(scale: scale, tolerance: Flattening.tolerance)
    let bounds = path.bounds
    guard bounds.isEmpty || (bounds.width <= maximumGlyphSide && bounds.height <= maximumGlyphSide), let mask = MaskAtlas.rasterize(path) else {
      return SDFGlyph(id: code, field: [], width: 0, height: 0, left: 0, top: 0, advance: advance)
    }
    let w = Int(mask.width), h = Int(mask.height)
    let field = SignedDistanceField.field(coverage: mask.bytes, width: w, height: h, border: GlyphRange.border, radius: radius, cutoff: cutoff)
    return SDFGlyph(id: code, field: field, width: w, height: h, left: Int(mask.left), top: -Int(mask.top) - ascent, advance: advance)
  }
}
