/// Text written down a vertical line, as MapLibre writes CJK line labels
/// on steep lines: characters that stand upright in vertical writing
/// (ideographs, kana, Hangul, their punctuation; Unicode's vertical
/// orientation `U`) are set upright, an em each, one under the other;
/// other characters (Latin letters, digits) stay turned along the line.
/// Punctuation takes its vertical presentation form where its neighbours
/// are upright too.
enum SymbolVertical {
  /// Which characters a shaping sets upright.
  enum Mode {
    /// None: horizontal text.
    case none
    /// A vertical line label's: those upright in vertical writing.
    case line
    /// A vertical point label's (`text-writing-mode` `vertical`): every
    /// character but white space and the scripts that join or reorder
    /// their letters (Arabic, Hebrew, Indic), as MapLibre sets them.
    case point

    func setsUpright(_ c: UInt32) -> Bool {
      switch self {
      case .none: return false
      case .line: return SymbolVertical.isUpright(c)
      case .point: return !SymbolShaping.isWhitespace(c) && !SymbolVertical.isComplexShaping(c)
      }
    }
  }

  /// Scripts shaped as a whole word (MapLibre's `charInComplexShapingScript`):
  /// those joined right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and
  /// their presentation forms) and those a shaping engine clusters
  /// (`StyleGlyphSource.needsShaping`).
  static func isComplexShaping(_ c: UInt32) -> Bool {
    switch c {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: return true
    default: return StyleGlyphSource.needsShaping(c)
    }
  }

  /// Whether `c` stands upright in vertical text (MapLibre's
  /// `hasUprightVerticalOrientation`; the brackets, dashes and fullwidth
  /// forms that turn with the line excepted).
  static func isUpright(_ c: UInt32) -> Bool {
    switch c {
    case 0x02EA...0x02EB: return true  // Bopomofo tone letters
    case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF: return true  // Hangul
    case 0x1400...0x167F, 0x18B0...0x18FF: return true  // Canadian syllabics
    case 0x2E80...0x2FDF, 0x2FF0...0x2FFF: return true  // CJK radicals, Kangxi, description characters
    case 0x3000...0x303F:  // CJK symbols and punctuation: not the brackets and the wave dash
      return !(0x3008...0x3011).contains(c) && !(0x3014...0x301F).contains(c) && c != 0x3030
    case 0x3040...0x309F: return true  // Hiragana
    case 0x30A0...0x30FF: return c != 0x30FC  // Katakana, not the long vowel mark
    case 0x3100...0x312F, 0x31A0...0x31BF: return true  // Bopomofo
    case 0x3190...0x319F, 0x31C0...0x31EF, 0x31F0...0x31FF, 0x3200...0x32FF, 0x3300...0x33FF: return true
    case 0x3400...0x4DBF, 0x4DC0...0x4DFF, 0x4E00...0x9FFF: return true  // ideographs, hexagrams
    case 0xA000...0xA4CF: return true  // Yi
    case 0xF900...0xFAFF: return true  // compatibility ideographs
    case 0xFE10...0xFE1F, 0xFE30...0xFE4F: return true  // vertical and compatibility forms
    case 0xFF00...0xFFEF:  // fullwidth forms, not the brackets, dashes, colons and halfwidth forms
      return c != 0xFF08 && c != 0xFF09 && c != 0xFF0D && !(0xFF1A...0xFF1E).contains(c) && c != 0xFF3B && c != 0xFF3D && c != 0xFF3F
        && !(0xFF5B...0xFFDF).contains(c) && c != 0xFFE3 && !(0xFFE8...0xFFEF).contains(c)
    case 0x1B000...0x1B16F, 0x20000...0x3FFFF: return true  // kana supplement, extension ideographs
    default: return false
    }
  }

  /// Whether `text` has a line for vertical writing: some character of it stands upright.
  static func allows(_ text: [UInt32]) -> Bool { text.contains(where: isUpright) }

  /// The vertical presentation form of a punctuation mark (Unicode's
  /// vertical forms, or the fullwidth form that stands upright), as
  /// MapLibre's `verticalizePunctuation` table has it.
  static let punctuation: [UInt32: UInt32] = [
    0x21: 0xFE15, 0x23: 0xFF03, 0x24: 0xFF04, 0x25: 0xFF05, 0x26: 0xFF06, 0x28: 0xFE35, 0x29: 0xFE36, 0x2A: 0xFF0A, 0x2B: 0xFF0B,
    0x2C: 0xFE10, 0x2D: 0xFE32, 0x2E: 0x30FB, 0x2F: 0xFF0F, 0x3A: 0xFE13, 0x3B: 0xFE14, 0x3C: 0xFE3F, 0x3D: 0xFF1D, 0x3E: 0xFE40,
    0x3F: 0xFE16, 0x40: 0xFF20, 0x5B: 0xFE47, 0x5C: 0xFF3C, 0x5D: 0xFE48, 0x5E: 0xFF3E, 0x5F: 0xFE33, 0x60: 0xFF40, 0x7B: 0xFE37,
    0x7C: 0x2015, 0x7D: 0xFE38, 0x7E: 0xFF5E, 0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xA5: 0xFFE5, 0xA6: 0xFFE4, 0xAC: 0xFFE2, 0xAF: 0xFFE3,
    0x2013: 0xFE32, 0x2014: 0xFE31, 0x2018: 0xFE43, 0x2019: 0xFE44, 0x201C: 0xFE41, 0x201D: 0xFE42, 0x2026: 0xFE19, 0x2027: 0x30FB,
    0x20A9: 0xFFE6, 0x3001: 0xFE11, 0x3002: 0xFE12, 0x3008: 0xFE3F, 0x3009: 0xFE40, 0x300A: 0xFE3D, 0x300B: 0xFE3E, 0x300C: 0xFE41,
    0x300D: 0xFE42, 0x300E: 0xFE43, 0x300F: 0xFE44, 0x3010: 0xFE3B, 0x3011: 0xFE3C, 0x3014: 0xFE39, 0x3015: 0xFE3A, 0x3016: 0xFE17,
    0x3017: 0xFE18, 0xFF01: 0xFE15, 0xFF08: 0xFE35, 0xFF09: 0xFE36, 0xFF0C: 0xFE10, 0xFF0D: 0xFE32, 0xFF0E: 0x30FB, 0xFF1A: 0xFE13,
    0xFF1B: 0xFE14, 0xFF1C: 0xFE3F, 0xFF1E: 0xFE40, 0xFF1F: 0xFE16, 0xFF3B: 0xFE47, 0xFF3D: 0xFE48, 0xFF3F: 0xFE33, 0xFF5B: 0xFE37,
    0xFF5C: 0x2015, 0xFF5D: 0xFE38, 0xFF5F: 0xFE35, 0xFF60: 0xFE36, 0xFF61: 0xFE12, 0xFF62: 0xFE41, 0xFF63: 0xFE42,
  ]

  /// `text` with its punctuation in vertical forms: a mark takes its form
  /// unless a neighbour is a character that turns with the line (a Latin
  /// letter, say) and not punctuation itself.
  static func punctuated(_ text: [UInt32]) -> [UInt32] {
    func turns(_ c: UInt32) -> Bool { !isUpright(c) && punctuation[c] == nil && !SymbolShaping.isWhitespace(c) }
    return text.indices.map { i in
      guard let form = punctuation[text[i]] else { return text[i] }
      let before = i > 0 ? text[i - 1] : nil, after = i + 1 < text.count ? text[i + 1] : nil
      return before.map(turns) == true || after.map(turns) == true ? text[i] : form
    }
  }
}
