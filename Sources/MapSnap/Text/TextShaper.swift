import Dispatch
import Synchronization
internal import _TextShims

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
/// Not thread-safe, like the ``FontLibrary`` that owns it: `shapeAll`
/// shapes side by side with shapers of its own.
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
      return .failure(ShapingUnavailable(reason: String(nulTerminated: message)))
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
  /// Per face, its glyph of each code point below `cmapCacheLimit` as this
  /// shaper found it (−1: not asked yet), made when the face is first
  /// asked. A face's character map is read under the face's lock (the
  /// shapers of `shapeAll` share their FreeType faces), and itemising asked
  /// it for every character of every text: two threads shaping side by side
  /// took turns at that lock character by character (a fifth of the
  /// shaping's time on helsinki-25000, much of it waiting).
  private var cmap: [UnsafeMutablePointer<Int32>?]

  /// The code points whose glyphs a shaper keeps (`cmap`): Latin, Greek,
  /// Cyrillic, Armenian, Hebrew, Arabic, Syriac, Thaana; 8 KiB per face
  /// asked. Others are asked of the face each time.
  static let cmapCacheLimit: UInt32 = 0x800

  /// nil when HarfBuzz or FriBidi is not available (see `status`).
  init?(faces: [FontFace]) {
    guard case .success = Self.status, let b = mapsnap_text_buffer_create() else { return nil }
    self.faces = faces
    buffer = OpaquePointer(b)
    cmap = Array(repeating: nil, count: faces.count)
  }

  deinit {
    mapsnap_text_buffer_destroy(UnsafeMutableRawPointer(buffer))
    for table in cmap { table?.deallocate() }
  }

  /// The glyph of `s` in face `face` (0: the face does not cover it).
  private func glyph(_ face: Int, _ s: Unicode.Scalar) -> UInt32 {
    guard s.value < Self.cmapCacheLimit else { return faces[face].glyphIndex(s) }
    let table: UnsafeMutablePointer<Int32>
    if let t = cmap[face] {
      table = t
    } else {
      table = .allocate(capacity: Int(Self.cmapCacheLimit))
      table.initialize(repeating: -1, count: Int(Self.cmapCacheLimit))
      cmap[face] = table
    }
    let known = table[Int(s.value)]
    if known >= 0 { return UInt32(known) }
    let g = faces[face].glyphIndex(s)
    table[Int(s.value)] = Int32(truncatingIfNeeded: g)
    return g
  }

  /// `text` shaped with the faces of `chain` (indices into the library's
  /// faces, the named face first), cached under `chainKey`; lines wrapped
  /// at `maxWidth` ems (`wrapRule`) and `letterSpacing` ems added between
  /// characters (`spacingRule`).
  func shape(_ text: String, chain: [Int], chainKey: String, maxWidth: Double? = nil, letterSpacing: Double = 0) -> ShapedText {
    let key = ShapeKey(text: text, chainKey: chainKey, maxWidth: maxWidth, letterSpacing: letterSpacing)
    if let hit = cache[key] { return hit }
    var out = ShapedText()
    // Most labels are one line: splitting by characters (grapheme
    // clusters) is then spared.
    let lines = text.utf8.contains(0x0A) ? text.split(separator: "\n", omittingEmptySubsequences: false) : [text[...]]
    for line in lines {
      let p = itemise(line, chain: chain, missing: &out.missing)
      guard let maxWidth, p.count > 0 else {
        out.lines.append(layOut(p, 0..<p.count, letterSpacing: letterSpacing))
        continue
      }
      for range in wrap(p, maxWidth: maxWidth, letterSpacing: letterSpacing) {
        out.lines.append(layOut(p, range, letterSpacing: letterSpacing))
      }
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

  /// One text to shape: `shape`'s arguments.
  struct Request {
    var text: String
    var chain: [Int]
    var chainKey: String
    var maxWidth: Double?
    var letterSpacing: Double
  }

  /// Texts from which `shapeAll` shapes side by side: below, handing them
  /// out costs more than it saves (a label shapes in some 5–10 µs).
  static let parallelTexts = 64

  /// Shapes the texts of `requests` not yet cached on `workers` threads
  /// (this shaper and `helpers`, each with its own HarfBuzz buffer; the
  /// HarfBuzz fonts are shared, which HarfBuzz allows) into this shaper's
  /// cache, so that `shape` then finds them. Fewer than `parallelTexts`,
  /// or one worker: nothing is done here (`shape` shapes them as it comes
  /// to them). The results are those of `shape`, whoever shapes them.
  func shapeAll(_ requests: [Request], helpers: [TextShaper]) {
    var seen = Set<ShapeKey>()
    var todo: [Request] = []
    for r in requests {
      let key = ShapeKey(text: r.text, chainKey: r.chainKey, maxWidth: r.maxWidth, letterSpacing: r.letterSpacing)
      if cache[key] == nil, seen.insert(key).inserted { todo.append(r) }
    }
    guard !helpers.isEmpty, todo.count >= Self.parallelTexts else { return }
    // Each shaper's cache made to size: growing it rehashed every text.
    cache.reserveCapacity(min(Self.cacheLimit, cache.count + todo.count))
    for h in helpers { h.cache.reserveCapacity(todo.count / (helpers.count + 1) + 1) }
    let shapers = SharedShapers(all: [self] + helpers, todo: todo)
    DispatchQueue.concurrentPerform(iterations: shapers.all.count) { w in shapers.run(worker: w) }
    for h in helpers {
      for (key, shaped) in h.cache {
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = shaped
      }
      h.cache.removeAll(keepingCapacity: true)
    }
  }

  /// The shapers of `shapeAll`, one per worker, and the texts they take in
  /// turn. Each shaper is used by its worker alone.
  private final class SharedShapers: @unchecked Sendable {
    let all: [TextShaper]
    let todo: [Request]
    let next = Atomic<Int>(0)

    init(all: [TextShaper], todo: [Request]) {
      self.all = all
      self.todo = todo
    }

    func run(worker: Int) {
      let shaper = all[worker]
      while true {
        let k = next.add(1, ordering: .relaxed).oldValue
        guard k < todo.count else { return }
        let r = todo[k]
        _ = shaper.shape(r.text, chain: r.chain, chainKey: r.chainKey, maxWidth: r.maxWidth, letterSpacing: r.letterSpacing)
      }
    }
  }

  /// How `maxWidth` wraps a line (Mapbox's `text-max-width`, greedy):
  /// a line may break after a space (U+0020, U+3000), a zero-width space or
  /// a hyphen-minus, and before or after a CJK ideograph, kana or Hangul
  /// syllable; words are added to a line while it stays within the width
  /// (spaces at its end not counted, and dropped); a word wider than the
  /// width stays whole on a line of its own. Each wrapped line keeps the
  /// paragraph's bidi levels and is shaped on its own.
  static let wrapRule = "greedy, at spaces, zero-width spaces, hyphens and around CJK characters"

  /// How `letterSpacing` applies (Mapbox's `text-letter-spacing`): that
  /// many ems after every cluster but the line's last, except in runs of
  /// joining scripts (Arabic, Syriac, Mongolian, N'Ko, Mandaic, Adlam),
  /// whose letters would come apart.
  static let spacingRule = "after every cluster but the last, not inside joining scripts"

  /// One paragraph itemised: its code points (what no face covers dropped),
  /// each one's face, resolved script and bidi level.
  private struct Paragraph {
    var scalars: [UInt32] = []
    var faces: [Int32] = []
    var scripts: [UInt32] = []
    var levels: [UInt8] = []
    var count: Int { scalars.count }
  }

  private func itemise(_ line: Substring, chain: [Int], missing: inout [Unicode.Scalar]) -> Paragraph {
    var p = Paragraph()
    for s in line.unicodeScalars where s != "\r" {
      let previous = p.faces.last.map(Int.init)
      guard let face = face(for: s, after: previous, chain: chain) else {
        if !missing.contains(s) { missing.append(s) }
        continue
      }
      p.scalars.append(s.value)
      p.faces.append(Int32(face))
    }
    let n = p.count
    guard n > 0 else { return p }
    p.scripts = Self.resolvedScripts(p.scalars)
    p.levels = [UInt8](repeating: 0, count: n)
    // Below U+0590 no character is right-to-left or an explicit bidi
    // control: the paragraph is left-to-right and every level 0 (numbers
    // after it resolve to L by rule W7), so FriBidi is asked only otherwise.
    if p.scalars.contains(where: { $0 >= 0x0590 }), mapsnap_text_bidi_levels(p.scalars, Int32(n), 0, &p.levels) < 0 {
      for i in p.levels.indices { p.levels[i] = 0 }
    }
    return p
  }

  /// The lines of `p` by `wrapRule`, as ranges of its code points.
  private func wrap(_ p: Paragraph, maxWidth: Double, letterSpacing: Double) -> [Range<Int>] {
    // Each code point's advance in ems, from the whole line shaped once:
    // a cluster's advance (with its spacing) goes to its first code point.
    var advance = [Double](repeating: 0, count: p.count)
    _ = layOut(p, 0..<p.count, letterSpacing: letterSpacing) { cluster, ems in advance[cluster] += ems }
    return Self.wrap(p.scalars, advances: advance, maxWidth: maxWidth)
  }

  /// The lines of the code points `scalars`, whose advances in ems are
  /// `advances` (a cluster's on its first code point), wrapped by
  /// `wrapRule` at `maxWidth` ems, as ranges of `scalars`: the rule, for
  /// shaped text and for the layout without HarfBuzz alike.
  static func wrap(_ scalars: [UInt32], advances advance: [Double], maxWidth: Double) -> [Range<Int>] {
    let count = scalars.count
    func isCJK(_ c: UInt32) -> Bool {
      (0x2E80...0x9FFF).contains(c) || (0xAC00...0xD7AF).contains(c) || (0xF900...0xFAFF).contains(c) || (0xFF00...0xFFEF).contains(c)
        || (0x20000...0x3FFFF).contains(c)
    }
    // Break opportunities: after index i (a line may end after scalars[i]).
    func breaksAfter(_ i: Int) -> Bool {
      let c = scalars[i]
      if isWrapSpace(c) || c == 0x2D { return true }
      return i + 1 < count && (isCJK(c) || isCJK(scalars[i + 1]))
    }
    var lines: [Range<Int>] = []
    var lineStart = 0
    var pending = 0.0  // the line so far, its trailing spaces included
    var i = 0
    while i < count {
      // The next word: up to and including its break opportunity.
      var end = i
      while end < count - 1 && !breaksAfter(end) { end += 1 }
      end += 1
      var trimmed = end
      while trimmed > i && isWrapSpace(scalars[trimmed - 1]) { trimmed -= 1 }
      let word = (i..<trimmed).reduce(0.0) { $0 + advance[$1] }
      if i > lineStart && pending + word > maxWidth + 1e-9 {
        lines.append(lineStart..<trimEnd(scalars, lineStart, i))
        lineStart = i
        pending = 0
      }
      pending += (i..<end).reduce(0.0) { $0 + advance[$1] }
      i = end
    }
    lines.append(lineStart..<trimEnd(scalars, lineStart, count))
    return lines
  }

  /// The spaces a line may break after and a wrapped line drops at its
  /// end: U+0020, the ideographic space U+3000, the zero-width space.
  private static func isWrapSpace(_ c: UInt32) -> Bool { c == 0x20 || c == 0x3000 || c == 0x200B }

  /// `end` moved back over the spaces that end `start..<end` (a wrapped
  /// line's trailing spaces are not drawn).
  private static func trimEnd(_ scalars: [UInt32], _ start: Int, _ end: Int) -> Int {
    var e = end
    while e > start && isWrapSpace(scalars[e - 1]) { e -= 1 }
    return e
  }

  /// Scripts whose letters join: no letter spacing inside their runs.
  private static let joiningScripts: Set<UInt32> = [
    0x4172_6162 /* Arab */, 0x5379_7263 /* Syrc */, 0x4D6F_6E67 /* Mong */, 0x4E6B_6F6F /* Nkoo */, 0x4D61_6E64 /* Mand */,
    0x41646C6D /* Adlm */,
  ]

  /// Shapes the code points `range` of `p` as one line: runs of one face,
  /// script and level, in visual order, each shaped by HarfBuzz with the
  /// range as its context. `clusterAdvance` is told each cluster's advance
  /// in ems, by the index in `p` of its first code point.
  private func layOut(
    _ p: Paragraph, _ range: Range<Int>, letterSpacing: Double, clusterAdvance: ((Int, Double) -> Void)? = nil
  ) -> ShapedLine {
    var out = ShapedLine()
    guard !range.isEmpty else { return out }
    let scalars = Array(p.scalars[range])
    let n = scalars.count
    let base = range.lowerBound
    var runs: [Run] = []
    var start = 0
    for i in 1...n
    where i == n || p.faces[base + i] != p.faces[base + start] || p.scripts[base + i] != p.scripts[base + start]
      || p.levels[base + i] != p.levels[base + start]
    {
      runs.append(
        Run(start: start, count: i - start, face: Int(p.faces[base + start]), script: p.scripts[base + start], level: p.levels[base + start]))
      start = i
    }
    // 3. Order (before shaping, so glyphs are appended left to right).
    let order = Bidi.visualOrder(levels: runs.map(\.level))
    // 2. Shape each run and lay its glyphs on the line.
    var pen = 0.0
    var trailingSpacing = 0.0
    // A glyph per code point, as a rule (ligatures make fewer).
    out.glyphs.reserveCapacity(n)
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
      let spacing = Self.joiningScripts.contains(run.script) ? 0 : letterSpacing
      for k in 0..<count {
        let g = glyphs[k]
        var step = Double(g.x_advance) * em
        trailingSpacing = 0
        if spacing != 0 && (k + 1 == count || glyphs[k + 1].cluster != g.cluster) {
          step += spacing
          trailingSpacing = spacing
        }
        out.glyphs.append(ShapedLine.Glyph(
          face: Int32(run.face), glyph: g.glyph, x: pen + Double(g.x_offset) * em, y: -Double(g.y_offset) * em, advance: step))
        pen += step
        clusterAdvance?(base + Int(g.cluster), step)
      }
    }
    out.width = max(0, pen - trailingSpacing)
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
    if let previous, Self.staysWithPrevious(s), glyph(previous, s) != 0 { return previous }
    for face in chain where glyph(face, s) != 0 { return face }
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

/// What `TextShaper.shape`'s cache is keyed by: its arguments (no width
/// limit is 0).
private struct ShapeKey: Hashable {
  var text: String
  var chain: String
  var maxWidth: Double
  var letterSpacing: Double

  init(text: String, chainKey: String, maxWidth: Double?, letterSpacing: Double) {
    self.text = text
    self.chain = chainKey
    self.maxWidth = maxWidth ?? 0
    self.letterSpacing = letterSpacing
  }
}

/// HarfBuzz or FriBidi could not be loaded: why.
struct ShapingUnavailable: Error, Sendable, Equatable {
  var reason: String
}

#if canImport(Glibc)
  import Glibc
#endif
