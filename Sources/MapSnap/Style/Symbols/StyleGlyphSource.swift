internal import _MapSnapStyle

/// A frame's view of the style's SDF glyphs: the glyph of a code point in a
/// fontstack, its range read through the style's cache (`StyleGlyphCache`)
/// the first time the frame needs it. A fontstack is asked for whole
/// (`Open Sans Bold,Arial Unicode MS Regular`, as MapLibre asks a glyph
/// server, which merges its fonts); when that range cannot be read and the
/// stack names several fonts, each font's own range is read and the first
/// that has the glyph draws it; a glyph no range has is made from the
/// bundled fonts (`LocalGlyphs`). Before any range, a font of the stack
/// that the style's `font-faces` gives a file for covering the code point
/// draws it from that file, as the specification resolves fonts; runs of
/// the scripts that need a shaping engine are shaped by HarfBuzz with that
/// file (`shapedRun`). Problems (no `glyphs` URL, ranges missing, font
/// files unreadable) are collected once each, in the order met.
struct StyleGlyphSource {
  let template: String?
  let fontFaces: StyleFontFaces
  let cache: StyleGlyphCache
  let styleFolder: String
  let localRoot: String?
  let offline: Bool
  private(set) var problems: [String] = []
  private var seenProblems: Set<String> = []
  private var unlisted = 0
  /// The ranges this frame has looked up, by fontstack and range start.
  private var ranges: [String: [GlyphRange]] = [:]
  /// Each glyph this frame has looked up, by fontstack and code point.
  private var found: [String: [UInt32: SDFGlyph?]] = [:]

  init(template: String?, fontFaces: StyleFontFaces = StyleFontFaces(nil), cache: StyleGlyphCache, styleFolder: String, localRoot: String?, offline: Bool) {
    self.template = template
    self.fontFaces = fontFaces
    self.cache = cache
    self.styleFolder = styleFolder
    self.localRoot = localRoot
    self.offline = offline
  }

  /// The glyph drawing `code` in `fontstack`, or nil when no range has it;
  /// answered once per frame, fontstack and code point.
  mutating func glyph(_ code: UInt32, fontstack: String) -> SDFGlyph? {
    if let hit = found[fontstack]?[code] { return hit }
    let g = lookUp(code, fontstack: fontstack)
    found[fontstack, default: [:]][code] = .some(g)
    return g
  }

  /// Whether the style's `font-faces` names any font file.
  var hasFontFaces: Bool { !fontFaces.isEmpty }

  /// Scripts whose letters combine into clusters a shaping engine must
  /// form (Indic scripts, Thai, Lao, Tibetan, Myanmar, Khmer): drawn from a
  /// `font-faces` file, they are shaped whole. (Arabic and Hebrew are
  /// joined and ordered by `Bidi`, as MapLibre's RTL plugin does.)
  static func needsShaping(_ c: UInt32) -> Bool {
    switch c {
    case 0x0900...0x0DFF, 0x0E00...0x0EFF, 0x0F00...0x109F, 0x1780...0x17FF, 0xA8E0...0xA8FF: return true
    default: return false
    }
  }

  /// `codes` shaped by the first `font-faces` file of `fontstack` that
  /// covers their first code point; nil when none does (the run is then
  /// drawn glyph by glyph).
  mutating func shapedRun(_ codes: [UInt32], fontstack: String) -> [SDFGlyph]? {
    guard let first = codes.first else { return nil }
    for font in fontstack.split(separator: ",").map({ $0.trimmingSpaces }) {
      for face in fontFaces.faces(font, covering: first) {
        if let file = fontFile(face.url), let run = file.shape(codes) { return run }
      }
    }
    return nil
  }

  private mutating func fontFile(_ url: String) -> StyleFontFile? {
    switch cache.fontFile(url, styleFolder: styleFolder, localRoot: localRoot, offline: offline) {
    case .file(let f): return f
    case .problem(let p):
      note(p)
      return nil
    }
  }

  private mutating func lookUp(_ code: UInt32, fontstack: String) -> SDFGlyph? {
    if !fontFaces.isEmpty {
      for font in fontstack.split(separator: ",").map({ $0.trimmingSpaces }) {
        for face in fontFaces.faces(font, covering: code) {
          if let g = fontFile(face.url)?.glyph(code) { return g }
        }
      }
    }
    let start = Int(code / 256) * 256
    let key = "\(start)\u{1}\(fontstack)"
    if ranges[key] == nil { ranges[key] = load(fontstack, start: start) }
    for range in ranges[key]! { if let g = range.glyphs[code] { return g } }
    guard let local = LocalGlyphs.shared.glyph(code, fontstack: fontstack) else { return nil }
    if template != nil { note("glyphs: characters the glyph ranges lack are drawn from the bundled fonts") }
    return local
  }

  private mutating func load(_ fontstack: String, start: Int) -> [GlyphRange] {
    guard let template else {
      note(
        fontFaces.isEmpty
          ? "glyphs: the style has no \"glyphs\" URL; its text is drawn from the bundled fonts"
          : "glyphs: the style has no \"glyphs\" URL; text its font-faces do not cover is drawn from the bundled fonts")
      return []
    }
    guard start <= 0xFFFF else { return [] }
    switch cache.range(template, fontstack: fontstack, start: start, styleFolder: styleFolder, localRoot: localRoot, offline: offline) {
    case .glyphs(let r): return [r]
    case .problem(let whole):
      let fonts = fontstack.split(separator: ",").map { $0.trimmingSpaces }
      var found: [GlyphRange] = []
      if fonts.count > 1 {
        for font in fonts {
          if case .glyphs(let r) = cache.range(template, fontstack: font, start: start, styleFolder: styleFolder, localRoot: localRoot, offline: offline) {
            found.append(r)
          }
        }
      }
      if found.isEmpty { note("glyphs: \(whole)") }
      return found
    }
  }

  /// The most problems listed one by one; the rest are counted.
  static let shownProblems = 5

  private mutating func note(_ problem: String) {
    guard seenProblems.insert(problem).inserted else { return }
    // The limit on fontstacks is always said; other problems up to the cap.
    if problems.count < Self.shownProblems || problem.contains("fontstacks are asked for") {
      problems.append(problem)
    } else {
      unlisted += 1
    }
  }

  /// The problems, the ones past `shownProblems` counted in a last line.
  var summary: [String] {
    problems + (unlisted > 0 ? ["glyphs: \(unlisted) more glyph range problem\(unlisted == 1 ? "" : "s") not listed"] : [])
  }
}

extension Substring {
  /// The substring without spaces at its ends.
  var trimmingSpaces: String {
    var s = self
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
