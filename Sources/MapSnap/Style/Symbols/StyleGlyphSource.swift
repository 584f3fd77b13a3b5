internal import _MapSnapStyle

/// A frame's view of the style's SDF glyphs: the glyph of a code point in a
/// fontstack, its range read through the style's cache (`StyleGlyphCache`)
/// the first time the frame needs it. A fontstack is asked for whole
/// (`Open Sans Bold,Arial Unicode MS Regular`, as MapLibre asks a glyph
/// server, which merges its fonts); when that range cannot be read and the
/// stack names several fonts, each font's own range is read and the first
/// that has the glyph draws it; a glyph no range has is made from the
/// bundled fonts (`LocalGlyphs`). Problems (no `glyphs` URL, ranges
/// missing) are collected once each, in the order met.
struct StyleGlyphSource {
  let template: String?
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

  init(template: String?, cache: StyleGlyphCache, styleFolder: String, localRoot: String?, offline: Bool) {
    self.template = template
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

  private mutating func lookUp(_ code: UInt32, fontstack: String) -> SDFGlyph? {
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
      note("glyphs: the style has no \"glyphs\" URL; its text is drawn from the bundled fonts")
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
