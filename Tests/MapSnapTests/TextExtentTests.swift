import Testing

@testable import MapSnap

/// `TextExtent`: lines and the longest line in grapheme clusters, counted
/// byte by byte for ASCII text and by `Character` otherwise, the same either way.
@Suite struct TextExtentTests {
  /// The rule written out: characters per line, lines split at "\n".
  func reference(_ text: String) -> TextExtent {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return TextExtent(longestLine: lines.map(\.count).max() ?? 0, lines: lines.count)
  }

  @Test func countsLinesAndTheLongestLine() {
    #expect(TextExtent("") == TextExtent(longestLine: 0, lines: 1))
    #expect(TextExtent("Helsinki") == TextExtent(longestLine: 8, lines: 1))
    #expect(TextExtent("Line one\nLine two, longer\n") == TextExtent(longestLine: 16, lines: 3))
    // "\r\n" is one cluster, not a line break (the text path breaks at "\n" only).
    #expect(TextExtent("ab\r\ncd") == TextExtent(longestLine: 5, lines: 1))
    // Combining marks and emoji sequences count once.
    #expect(TextExtent("Cafe\u{301}\nTöölö") == TextExtent(longestLine: 5, lines: 2))
    #expect(TextExtent("👩‍👩‍👧 x") == TextExtent(longestLine: 3, lines: 1))
  }

  @Test func asciiAndUnicodeTextsAgreeWithTheRule() {
    var s: UInt64 = 7
    let alphabet: [String] = ["a", "Z", " ", "\n", "\r", "\r\n", "ä", "e\u{301}", "漢", "-", "\t"]
    for _ in 0..<2000 {
      var text = ""
      s = s &* 6364136223846793005 &+ 1442695040888963407
      let n = Int(s >> 59)
      for _ in 0..<n {
        s = s &* 6364136223846793005 &+ 1442695040888963407
        // Mostly ASCII letters, so that both counting paths are exercised.
        let k = Int(s >> 33) % (s >> 62 == 0 ? alphabet.count : 4)
        text += alphabet[k]
      }
      #expect(TextExtent(text) == reference(text), "\(text.debugDescription)")
    }
  }
}
