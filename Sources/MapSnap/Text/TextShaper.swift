import Dispatch
import Synchronization
internal import _TextShims

/// One line of text shaped in ems: glyphs in visual order (left to right on
/// screen), each with its face, glyph id and pen position from the line's
/// start (x right, y down from the baseline), and the line's advance.
struct ShapedLine: Sendable {
  struct Glyph: Sendable {
    var face: Int32
    var glyph: UInt32
    var x: Double
    var y: Double
  }
  var glyphs: [Glyph] = []
  var width: Double = 0
}

/// Text shaped once per font chain, in ems, so that every size is a scale of
/// it: its lines, and the code points no face in the chain covers.
struct ShapedText: Sendable {
  var lines: [ShapedLine] = []
  var missing: [Unicode.Scalar] = []
}

/// Shapes text the way Mapnik's text pipeline does, one stage after another:
///
/// 1. **Itemise.** Lines break at `\n` (each is a bidi paragraph); `\r` is
///    dropped. Each code point takes a face of the chain (`faceRule`), a
///    script (HarfBuzz's Unicode data; common and inherited code points take
///    their neighbour's) and a bidi embedding level (the Unicode
///    Bidirectional Algorithm through rule L1, by FriBidi, the paragraph's
///    direction from its first strong character). A run is a longest stretch
///    with one face, script and level.
/// 2. **Shape.** HarfBuzz shapes each run with its face's own OpenType
///    tables (GSUB ligatures and contextual forms, GPOS kerning and mark
///    positioning; the legacy `kern` table where GPOS has none), the whole
///    line as context, so Arabic letters join across run ends.
/// 3. **Order.** Runs are put in visual order by rule L2 (from the highest
///    level down to the lowest odd one, reverse every stretch of runs at
///    that level or higher); HarfBuzz already gives each right-to-left run's
///    glyphs in visual order, mirrored brackets included.
///
/// Results are cached by text and chain, in ems, so a label drawn at many
/// sizes and in many frames is shaped once per process.
///
/// HarfBuzz and FriBidi are opened on first use (`_TextShims`). When they
/// cannot be loaded, text is laid out code point by code point with the
/// legacy kerning table (`FontLibrary.layoutUnshaped`), and `status` says why.
///
/// Not thread-safe, like the ``FontLibrary`` that owns it.
final class TextShaper {
  /// Why a code point takes the face it takes (Mapnik's and CSS's font
  /// fallback, per character), in order:
  /// 1. a mark, joiner or variation selector (general category Mn, Mc, Me;
  ///    U+200C, U+200D; U+FE00–FE0F, U+E0100–E01EF) stays with the face of
  ///    the code point before it when that face covers it, so a base and its
  ///    marks are shaped together;
  /// 2. otherwise the first face of the chain that covers it (spaces and
  ///    digits too: a space in a Devanagari name is DejaVu's);
  /// 3. none: the code point is missing (drawn as nothing, reported).
  static let faceRule = "marks and joiners stay with the face before them; else the chain's first face covering it"

  /// Whether HarfBuzz and FriBidi could be loaded: their version, or why not.
  static let status: Result<String, ShapingUnavailable> = {
    var message = [CChar](repeating: 0, count: 256)
    guard mapsnap_text_load(&message, Int32(message.count)) == 1 else {
      return .failure(ShapingUnavailable(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
    return .success(String(cString: mapsnap_text_harfbuzz_version()))
  }()

  /// Starts loading HarfBuzz and FriBidi on another thread (some 2 ms of
  /// dlopen and GLib start-up) and opening the HarfBuzz fonts of `paths`,
  /// shaping a word with the first two so that HarfBuzz builds their
  /// OpenType lookup tables (DejaVu's kerning is large) while the sources
  /// load, instead of delaying the first label.
  static func preload(paths: [String]) {
    DispatchQueue.global().async {
      guard case .success = status else { return }
      for (i, path) in paths.enumerated() {
        if let font = HarfBuzzFonts.font(path), i < 2 { mapsnap_text_font_warm(UnsafeMutableRawPointer(font)) }
      }
    }
  }

  private let faces: [FontFace]
  private var fonts: [Int: OpaquePointer?] = [:]
  private let buffer: OpaquePointer?
  private var cache: [ShapeKey: ShapedText] = [:]
  private var glyphs: [mapsnap_shaped_glyph] = []

  /// nil when HarfBuzz or FriBidi is not available (see `status`).
  init?(faces: [FontFace]) {
    guard case .success = Self.status, let b = mapsnap_text_buffer_create() else { return nil }
    self.faces = faces
    buffer = OpaquePointer(b)
  }

  deinit {
    mapsnap_text_buffer_destroy(UnsafeMutableRawPointer(buffer))
  }

  /// `text` shaped with the faces of `chain` (indices into the library's
  /// faces, the named face first), cached under `chainKey`.
  func shape(_ text: String, chain: [Int], chainKey: String) -> ShapedText {
    let key = ShapeKey(text: text, chain: chainKey)
    if let hit = cache[key] { return hit }
    var out = ShapedText()
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      out.lines.append(shapeLine(line, chain: chain, missing: &out.missing))
    }
    // A cache of texts is bounded by the texts a process lays out, which the
    // frame budget bounds per frame; a batch of many distinct frames starts
    // over rather than growing without end.
    if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
    cache[key] = out
    return out
  }

  /// Texts kept in the cache before it is emptied (a few MB at most).
  static let cacheLimit = 20_000

  private func shapeLine(_ line: Substring, chain: [Int], missing: inout [Unicode.Scalar]) -> ShapedLine {
    // 1. Itemise: faces first (dropping what no face covers), then scripts and levels.
    var scalars: [UInt32] = []
    var faceOf: [Int32] = []
    for s in line.unicodeScalars where s != "\r" {
      let previous = faceOf.last.map(Int.init)
      guard let face = face(for: s, after: previous, chain: chain) else {
        if !missing.contains(s) { missing.append(s) }
        continue
      }
      scalars.append(s.value)
      faceOf.append(Int32(face))
    }
    let n = scalars.count
    guard n > 0 else { return ShapedLine() }
    let scripts = Self.resolvedScripts(scalars)
    var levels = [UInt8](repeating: 0, count: n)
    // Below U+0590 no character is right-to-left or an explicit bidi
    // control: the paragraph is left-to-right and every level 0 (numbers
    // after it resolve to L by rule W7), so FriBidi is asked only otherwise.
    if scalars.contains(where: { $0 >= 0x0590 }), mapsnap_text_bidi_levels(scalars, Int32(n), 0, &levels) < 0 {
      for i in levels.indices { levels[i] = 0 }
    }
    var runs: [Run] = []
    var start = 0
    for i in 1...n where i == n || faceOf[i] != faceOf[start] || scripts[i] != scripts[start] || levels[i] != levels[start] {
      runs.append(Run(start: start, count: i - start, face: Int(faceOf[start]), script: scripts[start], level: levels[start]))
      start = i
    }
    // 3. Order (before shaping, so glyphs are appended left to right).
    let order = Bidi.visualOrder(levels: runs.map(\.level))
    // 2. Shape each run and lay its glyphs on the line.
    var out = ShapedLine()
    var pen = 0.0
    for r in order {
      let run = runs[r]
      guard let font = font(run.face) else { continue }
      let count = scalars.withUnsafeBufferPointer { text in
        Int(mapsnap_text_shape(
          UnsafeMutableRawPointer(buffer), UnsafeMutableRawPointer(font), text.baseAddress, Int32(n), Int32(run.start),
          Int32(run.count), run.level & 1 == 1 ? 1 : 0, run.script))
      }
      guard count > 0 else { continue }
      if glyphs.count < count { glyphs = [mapsnap_shaped_glyph](repeating: mapsnap_shaped_glyph(), count: count) }
      mapsnap_text_buffer_glyphs(UnsafeMutableRawPointer(buffer), &glyphs, Int32(count))
      let em = 1 / faces[run.face].unitsPerEm
      for g in glyphs[0..<count] {
        out.glyphs.append(ShapedLine.Glyph(
          face: Int32(run.face), glyph: g.glyph, x: pen + Double(g.x_offset) * em, y: -Double(g.y_offset) * em))
        pen += Double(g.x_advance) * em
      }
    }
    out.width = pen
    return out
  }

  private struct Run {
    var start: Int
    var count: Int
    var face: Int
    var script: UInt32
    var level: UInt8
  }

  private func face(for s: Unicode.Scalar, after previous: Int?, chain: [Int]) -> Int? {
    if let previous, Self.staysWithPrevious(s), faces[previous].glyphIndex(s) != 0 { return previous }
    for face in chain where faces[face].glyphIndex(s) != 0 { return face }
    return nil
  }

  /// Rule 1 of `faceRule`.
  private static func staysWithPrevious(_ s: Unicode.Scalar) -> Bool {
    // The first combining marks are U+0300 (Combining Diacritical Marks).
    if s.value < 0x300 { return false }
    switch s.value {
    case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF: return true
    default: break
    }
    switch s.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// HarfBuzz's script tags for Common ('Zyyy'), Inherited ('Zinh') and
  /// Unknown ('Zzzz').
  static let common: UInt32 = 0x5A79_7979
  static let inherited: UInt32 = 0x5A69_6E68
  static let unknown: UInt32 = 0x5A7A_7A7A

  /// Each code point's script, with common, inherited and unknown ones taking
  /// the script of the code point before them (at the start of a line, of
  /// the first one after them that has a real script).
  static func resolvedScripts(_ scalars: [UInt32]) -> [UInt32] {
    var out = scalars.map { mapsnap_text_script($0) }
    func isReal(_ t: UInt32) -> Bool { t != common && t != inherited && t != unknown }
    let first = out.first(where: isReal) ?? common
    var last = first
    for i in out.indices {
      if isReal(out[i]) { last = out[i] } else { out[i] = last }
    }
    return out
  }

  /// The HarfBuzz font of a face (`HarfBuzzFonts`); nil when HarfBuzz
  /// cannot read the file (the face's glyphs are then left out).
  private func font(_ face: Int) -> OpaquePointer? {
    if let hit = fonts[face] { return hit }
    let made = HarfBuzzFonts.font(faces[face].path)
    fonts[face] = made
    return made
  }
}

/// HarfBuzz fonts, one per font file for the whole process: a HarfBuzz font
/// is immutable once made and may shape on many threads at once (each with
/// its own buffer), and the OpenType tables it builds on first use are then
/// built once, not once per frame or per batch worker. Never released.
enum HarfBuzzFonts {
  private static let made = Mutex<[String: OpaquePointer?]>([:])

  /// The font of the file at `path`, opened on first use (checked as a
  /// regular file first, as `FontFace` does); nil when it cannot be read.
  static func font(_ path: String) -> OpaquePointer? {
    made.withLock { made in
      if let hit = made[path] { return hit }
      var font: OpaquePointer? = nil
      if let opened = try? FileIO.openForReading(path) {
        #if os(Linux)
          let name = "/proc/self/fd/\(opened.fd)"
        #else
          let name = path
        #endif
        font = mapsnap_text_font_create(name, 0).map(OpaquePointer.init)
        close(opened.fd)
      }
      made[path] = font
      return font
    }
  }
}

private struct ShapeKey: Hashable {
  var text: String
  var chain: String
}

/// HarfBuzz or FriBidi could not be loaded: why.
struct ShapingUnavailable: Error, Sendable, Equatable {
  var reason: String
}

#if canImport(Glibc)
  import Glibc
#endif
