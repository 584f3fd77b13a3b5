internal import _MapSnapStyle

/// A label's glyphs laid out as MapLibre lays them out (its `shaping`), in
/// the glyph ranges' units: 24 to the em, y down, the anchor at (0, 0).
/// Lines are broken in logical order and each laid out in visual order.
struct SymbolShaping: Sendable {
  struct Glyph: Sendable {
    let glyph: SDFGlyph
    /// The pen position: the glyph's origin on its line.
    var x: Double
    var y: Double
    /// The glyph's size relative to the label's (`format`'s `font-scale`).
    let scale: Double
    /// The `format` section's own colour, if it gives one.
    let color: StyleColor?
    /// Set upright in a vertical line of text (`SymbolVertical`): it takes
    /// an em along the line and is turned a quarter back against it.
    var vertical = false

    /// How far the pen moves past it along its line.
    var advance: Double { vertical ? SymbolShaping.oneEm * scale : Double(glyph.advance) * scale }
  }

  var glyphs: [Glyph] = []
  /// The box of the lines (the anchor's alignment applied): what collision
  /// boxes and `icon-text-fit` measure.
  var top = 0.0, bottom = 0.0, left = 0.0, right = 0.0
  /// The number of lines.
  var lineCount = 0

  /// One em in glyph-range pixels.
  static let oneEm = 24.0
  /// Where a line's glyph origins lie below its top: MapLibre's fixed
  /// baseline offset for the SDF ranges (their fonts' ascent at 24 px).
  static let baselineOffset = -17.0

  /// One code point of the text with what draws it.
  struct Character {
    let code: UInt32
    let glyph: SDFGlyph?
    let scale: Double
    let color: StyleColor?
    /// The bidirectional embedding level (odd: right to left).
    var level: UInt8 = 0
  }

  /// Lays out `characters` (the text, already transformed) as lines of at
  /// most `maxWidth` (ems × 24; 0: one line but at newlines), each line
  /// justified by `justify` (0 left, 0.5 centre, 1 right) and the whole
  /// block aligned on the anchor by `align` (horizontal and vertical, 0…1:
  /// MapLibre's `getAnchorAlignment`), moved by `translate` (ems × 24),
  /// with `spacing` (ems × 24) between letters and `lineHeight` (ems × 24)
  /// between lines. `vertical` shapes the text for vertical writing: the
  /// characters set upright there (`SymbolVertical.Mode`) each an em long.
  static func shape(
    _ characters: [Character], maxWidth: Double, lineHeight: Double, justify: Double, align: (x: Double, y: Double), spacing: Double,
    translate: Point, vertical: SymbolVertical.Mode = .none
  ) -> SymbolShaping {
    var shaping = SymbolShaping()
    let breaks = lineBreaks(characters, spacing: spacing, maxWidth: maxWidth)
    var lines: [ArraySlice<Character>] = []
    var start = 0
    for b in breaks.filter({ $0 > 0 && $0 < characters.count }) + [characters.count] where b >= start {
      lines.append(trimmed(characters[start..<b]))
      start = b
    }
    var y = baselineOffset
    var maxLineLength = 0.0
    for logical in lines {
      var x = 0.0
      let first = shaping.glyphs.count
      var lineMaxScale = 0.0
      // Each line in visual order (rule L2 of UAX #9).
      let line = logical.contains(where: { $0.level > 0 }) ? Bidi.visualOrder(levels: logical.map(\.level)).map { logical[logical.startIndex + $0] } : Array(logical)
      for c in line {
        guard let g = c.glyph else { continue }
        let glyph = Glyph(glyph: g, x: x, y: y, scale: c.scale, color: c.color, vertical: vertical.setsUpright(c.code))
        shaping.glyphs.append(glyph)
        x += glyph.advance + spacing
        lineMaxScale = max(lineMaxScale, c.scale)
      }
      if shaping.glyphs.count > first {
        let lineLength = x - spacing
        maxLineLength = max(maxLineLength, lineLength)
        // MapLibre justifies by the last glyph's right edge (its pen plus advance).
        let last = shaping.glyphs[shaping.glyphs.count - 1]
        let indent = (last.x + last.advance) * justify
        for i in first..<shaping.glyphs.count { shaping.glyphs[i].x -= indent }
      }
      y += lineHeight
    }
    let shiftX = (justify - align.x) * maxLineLength
    let shiftY = (-align.y * Double(lines.count) + 0.5) * lineHeight
    for i in shaping.glyphs.indices {
      shaping.glyphs[i].x += shiftX + translate.x
      shaping.glyphs[i].y += shiftY + translate.y
    }
    let height = Double(lines.count) * lineHeight
    shaping.top = translate.y - align.y * height
    shaping.bottom = shaping.top + height
    shaping.left = translate.x - align.x * maxLineLength
    shaping.right = shaping.left + maxLineLength
    shaping.lineCount = lines.count
    return shaping
  }

  /// A line without the white space at its ends.
  private static func trimmed(_ line: ArraySlice<Character>) -> ArraySlice<Character> {
    var s = line.startIndex, e = line.endIndex
    while s < e, isWhitespace(line[s].code) { s += 1 }
    while e > s, isWhitespace(line[e - 1].code) { e -= 1 }
    return line[s..<e]
  }

  static func isWhitespace(_ c: UInt32) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }

  /// Where a line may end after a code point: newline, space, `&`, parentheses,
  /// `+`, `-`, `/`, soft hyphen, middle dot, zero-width space, hyphen, en dash,
  /// interpunct (MapLibre's `breakable` set).
  static func isBreakable(_ c: UInt32) -> Bool {
    switch c {
    case 0x0A, 0x20, 0x26, 0x28, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027: return true
    default: return false
    }
  }

  /// Scripts written without spaces, where a line may end after any
  /// character (CJK ideographs, kana, Yi, Hangul syllables and their forms).
  static func allowsIdeographicBreaking(_ c: UInt32) -> Bool {
    switch c {
    case 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3040...0x30FF, 0x3100...0x312F, 0x3190...0x31FF, 0x3200...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF:
      return true
    default: return false
    }
  }

  /// The specification's balanced line breaking (MapLibre's
  /// `determineLineBreaks`): lines as near as can be to the average width
  /// that `maxWidth` asks for, each break scored by the square of its
  /// line's distance from that width (a last line longer than it counts
  /// double, shorter half), a parenthesis at a line's end or start
  /// penalised, a newline forced; the least bad chain of breaks wins. The
  /// indices where lines start.
  static func lineBreaks(_ text: [Character], spacing: Double, maxWidth: Double) -> [Int] {
    guard maxWidth > 0, !text.isEmpty else {
      // Without a width, lines break at newlines only.
      return text.indices.dropLast().filter { text[$0].code == 0x0A }.map { $0 + 1 }
    }
    var total = 0.0
    for c in text { if let g = c.glyph { total += Double(g.advance) * c.scale + spacing } }
    let target = total / max(1, (total / maxWidth).rounded(.up))
    struct Break { let index: Int; let x: Double; let prior: Int?; let badness: Double }
    var breaks: [Break] = []
    func badness(_ width: Double, _ penalty: Double, last: Bool) -> Double {
      let ragged = (width - target) * (width - target)
      if last { return width < target ? ragged / 2 : ragged * 2 }
      return ragged + abs(penalty) * penalty
    }
    func evaluate(_ index: Int, _ x: Double, _ penalty: Double, last: Bool) -> Break {
      var best: Int?
      var bestBadness = badness(x, penalty, last: last)
      for (k, b) in breaks.enumerated() {
        let v = badness(x - b.x, penalty, last: last) + b.badness
        if v <= bestBadness { best = k; bestBadness = v }
      }
      return Break(index: index, x: x, prior: best, badness: bestBadness)
    }
    var x = 0.0
    for i in text.indices {
      let c = text[i].code
      if let g = text[i].glyph, !isWhitespace(c) { x += Double(g.advance) * text[i].scale + spacing }
      if i < text.count - 1 && (isBreakable(c) || allowsIdeographicBreaking(c)) {
        var penalty = 0.0
        if c == 0x0A { penalty -= 10_000 }
        if c == 0x28 || c == 0xFF08 { penalty += 50 }
        let next = text[i + 1].code
        if next == 0x29 || next == 0xFF09 { penalty += 50 }
        breaks.append(evaluate(i + 1, x, penalty, last: false))
      }
    }
    var chain: [Int] = []
    var at = evaluate(text.count, x, 0, last: true).prior
    while let k = at {
      chain.append(breaks[k].index)
      at = breaks[k].prior
    }
    return chain.reversed()
  }

  /// MapLibre's `getAnchorAlignment`: how far along the label's width and
  /// height the anchor lies (0: left or top edge; 0.5: centre; 1: right or
  /// bottom).
  static func alignment(_ anchor: String) -> (x: Double, y: Double) {
    var x = 0.5, y = 0.5
    switch anchor {
    case "right", "top-right", "bottom-right": x = 1
    case "left", "top-left", "bottom-left": x = 0
    default: break
    }
    switch anchor {
    case "bottom", "bottom-right", "bottom-left": y = 1
    case "top", "top-right", "top-left": y = 0
    default: break
    }
    return (x, y)
  }
}
