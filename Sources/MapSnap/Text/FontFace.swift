internal import _MapSnapRaster
import Synchronization

internal import CFreeType

#if canImport(Glibc)
  import Glibc
#endif

/// One font file opened through FreeType. Glyph outlines are read unhinted in
/// font units (`FT_LOAD_NO_SCALE`) and kept, so every pixel size scales the
/// same outline and text grows continuously with the map.
///
/// Not thread-safe, but for `glyphIndex`: all other text work runs in one
/// pass before the tiles are drawn.
final class FontFace {
  let face: FT_Face
  /// Kept so the library outlives the face.
  private let library: FreeTypeLibrary
  let path: String
  let family: String
  let style: String
  let unitsPerEm: Double
  /// Typographic ascender (positive, font units) and descender (negative).
  let ascender: Double
  let descender: Double
  /// The widest advance of any glyph, in font units.
  let maxAdvance: Double
  let hasKerning: Bool
  private let cmapLock = Mutex<Void>(())
  private var outlines: [UInt32: GlyphOutline] = [:]
  private var advances: [UInt32: Double] = [:]

  /// The largest font file opened (256 MiB; CJK collections reach ~100 MiB).
  static let maximumFileBytes = 256 << 20

  /// Opens `path` if it is a regular file of at most `maximumFileBytes`
  /// (checked on a non-blocking descriptor first: a FIFO in a font folder
  /// would block FreeType's open), handed to FreeType as that descriptor.
  init?(library: FreeTypeLibrary, path: String) {
    guard let opened = try? FileIO.openForReading(path) else { return nil }
    defer { close(opened.fd) }
    guard opened.size <= Self.maximumFileBytes else { return nil }
    #if os(Linux)
      let name = "/proc/self/fd/\(opened.fd)"
    #else
      let name = path
    #endif
    var f: FT_Face?
    guard FT_New_Face(library.handle, name, 0, &f) == 0, let f else { return nil }
    face = f
    self.library = library
    self.path = path
    family = f.pointee.family_name.map { String(cString: $0) } ?? "?"
    style = f.pointee.style_name.map { String(cString: $0) } ?? "Regular"
    unitsPerEm = Double(max(1, f.pointee.units_per_EM))
    ascender = Double(f.pointee.ascender)
    descender = Double(f.pointee.descender)
    maxAdvance = Double(f.pointee.max_advance_width)
    hasKerning = (f.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
  }

  deinit { withExtendedLifetime(library) { _ = FT_Done_Face(face) } }

  /// The full name used in styles: the family, plus the style unless it is
  /// the regular one ("DejaVu Sans", "DejaVu Sans Bold").
  var fullName: String {
    let regular = ["regular", "book", "normal", "roman", "medium"]
    return regular.contains(style.lowercased()) ? family : "\(family) \(style)"
  }

  /// The glyph for `scalar`, or 0 when the font does not cover it. The one
  /// FreeType call that may run on several threads at once (text is shaped
  /// side by side, `TextShaper.shapeAll`), so it holds the face's lock:
  /// FreeType makes no promise for a face used by two threads.
  func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 {
    cmapLock.withLock { _ in UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value))) }
  }

  /// Horizontal advance in font units.
  func advance(_ glyph: UInt32) -> Double {
    if let a = advances[glyph] { return a }
    var a = 0.0
    if load(glyph) { a = Double(face.pointee.glyph.pointee.advance.x) }
    advances[glyph] = a
    return a
  }

  /// Kerning between two glyphs in font units (0 without a kern table).
  func kerning(_ left: UInt32, _ right: UInt32) -> Double {
    guard hasKerning, left != 0, right != 0 else { return 0 }
    var v = FT_Vector()
    guard FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v) == 0 else { return 0 }
    return Double(v.x)
  }

  /// The glyph's outline in font units (y up), read once.
  func outline(_ glyph: UInt32) -> GlyphOutline {
    if let o = outlines[glyph] { return o }
    var o = GlyphOutline()
    if load(glyph) {
      o = GlyphOutline(decomposing: &face.pointee.glyph.pointee.outline)
      advances[glyph] = Double(face.pointee.glyph.pointee.advance.x)
    }
    outlines[glyph] = o
    return o
  }

  private func load(_ glyph: UInt32) -> Bool {
    let flags = FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP
    return FT_Load_Glyph(face, glyph, FT_Int32(flags)) == 0
  }
}

/// A glyph outline in font units, y up: move, line, quadratic and cubic
/// segments as FreeType decomposes them.
struct GlyphOutline: Sendable {
  enum Verb: UInt8, Sendable { case move, line, quad, cubic }
  var verbs: [Verb] = []
  /// Control and end points, 1 per move/line, 2 per quad, 3 per cubic.
  var points: [Point] = []

  init() {}

  init(decomposing outline: inout FT_Outline) {
    var funcs = FT_Outline_Funcs(
      move_to: { to, user in
        GlyphOutline.sink(user).add(.move, [to!.pointee])
        return 0
      },
      line_to: { to, user in
        GlyphOutline.sink(user).add(.line, [to!.pointee])
        return 0
      },
      conic_to: { control, to, user in
        GlyphOutline.sink(user).add(.quad, [control!.pointee, to!.pointee])
        return 0
      },
      cubic_to: { c1, c2, to, user in
        GlyphOutline.sink(user).add(.cubic, [c1!.pointee, c2!.pointee, to!.pointee])
        return 0
      },
      shift: 0, delta: 0)
    let sink = OutlineSink()
    withExtendedLifetime(sink) {
      _ = FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(sink).toOpaque())
    }
    verbs = sink.verbs
    points = sink.points
  }

  private static func sink(_ user: UnsafeMutableRawPointer?) -> OutlineSink {
    Unmanaged<OutlineSink>.fromOpaque(user!).takeUnretainedValue()
  }

  /// The outline flattened at `scale` pixels per font unit, y flipped to
  /// point down, with chords no further than `tolerance` pixels from the curve.
  func flattened(scale: Double, tolerance: Double) -> Path {
    var path = Path()
    var p = 0
    var current = Point(0, 0)
    @inline(__always) func px(_ q: Point) -> Point { Point(q.x * scale, -q.y * scale) }
    for verb in verbs {
      switch verb {
      case .move:
        if !path.contours.isEmpty { path.close() }
        current = px(points[p])
        path.move(to: current)
        p += 1
      case .line:
        current = px(points[p])
        path.line(to: current)
        p += 1
      case .quad:
        let c = px(points[p])
        let e = px(points[p + 1])
        let dd = (current - c * 2 + e).length
        let n = max(1, min(64, Int((dd / (8 * tolerance)).squareRoot().rounded(.up))))
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          path.line(to: current * (u * u) + c * (2 * u * t) + e * (t * t))
        }
        current = e
        p += 2
      case .cubic:
        let c1 = px(points[p])
        let c2 = px(points[p + 1])
        let e = px(points[p + 2])
        let dd = max((current - c1 * 2 + c2).length, (c1 - c2 * 2 + e).length)
        let n = max(1, min(64, Int((dd * 3 / (4 * tolerance)).squareRoot().rounded(.up))))
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          path.line(to: current * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + e * (t * t * t))
        }
        current = e
        p += 3
      }
    }
    if !path.contours.isEmpty { path.close() }
    return path
  }
}

private final class OutlineSink {
  var verbs: [GlyphOutline.Verb] = []
  var points: [Point] = []

  func add(_ verb: GlyphOutline.Verb, _ vectors: [FT_Vector]) {
    verbs.append(verb)
    for v in vectors { points.append(Point(Double(v.x), Double(v.y))) }
  }
}
