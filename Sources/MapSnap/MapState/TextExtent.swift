/// How much room a text block takes before it is laid out, in characters:
/// its longest line and its number of lines. `SymbolReach.text` turns it into
/// a distance; a source keeps the largest of a field's texts so that a frame
/// can bound the reach of every label without reading them all.
struct TextExtent: Sendable, Hashable {
  /// Characters (grapheme clusters) in the longest line.
  var longestLine: Int
  /// Lines: line breaks (`\n`) plus one.
  var lines: Int

  /// The extent of no text at all: an empty line.
  static let empty = TextExtent(longestLine: 0, lines: 1)

  init(longestLine: Int, lines: Int) {
    self.longestLine = longestLine
    self.lines = lines
  }

  /// The extent of `text`. ASCII without a carriage return is counted byte
  /// by byte: each of its bytes is a grapheme cluster ("\r\n" is the only
  /// cluster of two ASCII scalars), so the Unicode segmentation rules that
  /// iterating `Character`s applies can be skipped.
  init(_ text: String) {
    if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
      self = Self.measure(text.utf8, lineBreak: 0x0A)
    } else {
      self = Self.measure(text, lineBreak: "\n")
    }
  }

  /// Lines split at `lineBreak` and the most units on one.
  private static func measure<Units: Sequence>(_ units: Units, lineBreak: Units.Element) -> TextExtent
  where Units.Element: Equatable {
    var longest = 0
    var lines = 1
    var current = 0
    for unit in units {
      if unit == lineBreak {
        lines += 1
        longest = max(longest, current)
        current = 0
      } else {
        current += 1
      }
    }
    return TextExtent(longestLine: max(longest, current), lines: lines)
  }

  /// Grows to hold `other` too: the longer line and the more lines (the
  /// two may come from different texts, so the result bounds both).
  mutating func include(_ other: TextExtent) {
    longestLine = max(longestLine, other.longestLine)
    lines = max(lines, other.lines)
  }

  /// A bound on the extent once lines wrap at `maxWidth` (nil: unchanged):
  /// no line grows, and each line of n characters becomes at most n lines.
  func wrapped(_ maxWidth: Double?) -> TextExtent {
    guard maxWidth != nil else { return self }
    let (product, overflow) = lines.multipliedReportingOverflow(by: max(1, longestLine))
    return TextExtent(longestLine: longestLine, lines: overflow ? Int.max / 2 : product)
  }
}
