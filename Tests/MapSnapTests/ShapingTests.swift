import Foundation
import Testing

@testable import MapSnap

/// Shaping (HarfBuzz), bidi (FriBidi and rule L2) and font fallback per run.
@Suite struct ShapingTests {
  /// A library per test: tests run in parallel and faces must not be shared.
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  @Test func harfBuzzAndFriBidiLoad() throws {
    let version = try TextShaper.status.get()
    #expect(version.split(separator: ".").count == 3, "HarfBuzz version \(version)")
    #expect(fonts.shaper != nil)
  }

  @Test func theBundleCoversArabicHebrewDevanagariAndThai() {
    #expect(Set(fonts.names).isSuperset(of: ["Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Thai"]))
    for text in ["القاهرة", "ירושלים", "नई दिल्ली", "กรุงเทพมหานคร"] {
      let block = fonts.layout(text, font: nil, size: 16)
      #expect(block.missing.isEmpty, "\(text)")
      #expect(!block.glyphs.contains { $0.glyph == 0 }, "\(text) has a .notdef glyph")
    }
  }

  /// Glyph ids and pen positions equal those of HarfBuzz's own `hb-shape`
  /// (Debian's libharfbuzz-bin) on the same font file, in font units: the
  /// text is laid out at the face's units per em, so one pixel is one unit.
  @Test(arguments: [
    ("DejaVu Sans", "القاهرة"),  // Cairo: joining forms
    ("Noto Sans Arabic", "الإسكندرية"),  // Alexandria: lam-alef ligature, hamza mark
    ("DejaVu Sans", "ירושלים"),  // Jerusalem
    ("Noto Sans Hebrew", "ירושלים"),
    ("Noto Sans Devanagari", "श्रीनगर"),  // Srinagar: the conjunct shra, the i-matra before it
    ("Noto Sans Devanagari", "नई दिल्ली"),  // New Delhi
    ("Noto Sans Thai", "เชียงใหม่"),  // Chiang Mai: marks above and below
    ("DejaVu Sans", "AVATAR Wasserturm"),  // GPOS kerning
    ("DejaVu Sans Bold", "Tôölö ffi"),
  ])
  func glyphsAndAdvancesMatchHBShape(font: String, text: String) throws {
    let face = try #require(fonts.faceIndex(named: font))
    let upem = fonts.faces[face].unitsPerEm
    let block = fonts.layout(text, font: font, size: upem)
    let reference = try hbShape(fonts.faces[face].path, text)
    #expect(block.missing.isEmpty)
    #expect(block.glyphs.allSatisfy { $0.face == face }, "every glyph from \(font)")
    #expect(block.glyphs.map(\.glyph) == reference.map(\.g), "glyph ids")
    var pen = 0
    for (mine, theirs) in zip(block.glyphs, reference) {
      #expect(abs(mine.x - Double(pen + theirs.dx)) < 1e-6, "x of glyph \(theirs.g)")
      #expect(abs((mine.y - block.ascent) + Double(theirs.dy)) < 1e-6, "y of glyph \(theirs.g)")
      pen += theirs.ax
    }
    #expect(abs(block.width - Double(pen)) < 1e-6)
  }

  @Test func anLTRParagraphShowsItsHebrewRightToLeft() throws {
    let latin = "Tel Aviv-Yafo "
    let hebrew = "תל אביב-יפו"
    let block = fonts.layout(latin + hebrew, font: nil, size: 20)
    let expected = (latin + String(hebrew.reversed())).unicodeScalars.map { cmap("DejaVu Sans", $0) }
    #expect(block.glyphs.map(\.glyph) == expected)
    #expect(zip(block.glyphs, block.glyphs.dropFirst()).allSatisfy { $0.x < $1.x }, "left to right on screen")
  }

  @Test func anRTLParagraphMirrorsBracketsAndKeepsLatinLeftToRight() throws {
    // Logical: Haifa's Hebrew name, then "(Haifa)". Seen: "(Haifa) " at the
    // left, the Hebrew right to left at the right; the brackets mirrored.
    let block = fonts.layout("חיפה (Haifa)", font: nil, size: 20)
    let expected = "(Haifa) הפיח".unicodeScalars.map { cmap("DejaVu Sans", $0) }
    #expect(block.glyphs.map(\.glyph) == expected)
  }

  @Test func numbersInArabicRunLeftToRight() throws {
    // "23 July Street": the number reads 2 then 3, between the two words.
    let block = fonts.layout("شارع 23 يوليو", font: nil, size: 20)
    let two = cmap("DejaVu Sans", "2")
    let three = cmap("DejaVu Sans", "3")
    let ids = block.glyphs.map(\.glyph)
    let i2 = try #require(ids.firstIndex(of: two))
    let i3 = try #require(ids.firstIndex(of: three))
    #expect(i3 == i2 + 1)
    #expect(block.glyphs[i2].x < block.glyphs[i3].x)
    // يوليو (5 letters) and a space to the left of the number; شارع to its right.
    #expect(i2 == 6)
    #expect(ids.count == 13)
  }

  @Test func runsTakeTheirScriptsFallbackFace() throws {
    let block = fonts.layout("Delhi नई दिल्ली Bangkok กรุงเทพ", font: nil, size: 16)
    let names = block.glyphs.map { fonts.faces[$0.face].fullName }
    #expect(Set(names) == ["DejaVu Sans", "Noto Sans Devanagari", "Noto Sans Thai"])
    // Spaces are DejaVu's, the first face covering them (rule 2); the
    // Devanagari vowel signs stay with their consonants' face (rule 1).
    let devanagari = names.indices.filter { names[$0] == "Noto Sans Devanagari" }
    #expect(devanagari.count == 7, "नई and दिल्ली shaped by Noto Sans Devanagari, \(names)")
    #expect(names[devanagari[0] + 2] == "DejaVu Sans" && names[devanagari[0] - 1] == "DejaVu Sans")
    #expect(!block.glyphs.contains { $0.glyph == 0 })
  }

  @Test func shapingIsCachedPerTextAndFontAcrossSizes() throws {
    let small = fonts.layout("नई दिल्ली", font: nil, size: 10)
    let large = fonts.layout("नई दिल्ली", font: nil, size: 30)
    #expect(small.glyphs.map(\.glyph) == large.glyphs.map(\.glyph))
    for (s, l) in zip(small.glyphs, large.glyphs) { #expect(abs(s.x * 3 - l.x) < 1e-9) }
  }

  @Test func visualOrderFollowsRuleL2() {
    #expect(Bidi.visualOrder(levels: [0, 0, 1, 1, 0]) == [0, 1, 3, 2, 4])
    #expect(Bidi.visualOrder(levels: [1, 1, 2, 2, 1]) == [4, 2, 3, 1, 0])
    // Levels 0 and 2 only: reversed at 2 and again at 1, so unchanged.
    #expect(Bidi.visualOrder(levels: [0, 2, 2, 0]) == [0, 1, 2, 3])
    #expect(Bidi.visualOrder(levels: []) == [])
  }

  /// Unicode's own bidi conformance data (Debian's unicode-data, 15.0):
  /// every line's resolved levels and visual order.
  @Test func bidiCharacterTestConformance() throws {
    let path = "/usr/share/unicode/BidiCharacterTest.txt"
    let text = try #require(try? String(contentsOfFile: path, encoding: .utf8), "\(path) is missing: make setup installs unicode-data")
    var cases = 0
    var failures: [String] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
      let fields = line.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count >= 5 else { continue }
      let scalars = fields[0].split(separator: " ").map { UInt32($0, radix: 16)! }
      let direction: Bidi.Direction = fields[1] == "0" ? .leftToRight : fields[1] == "1" ? .rightToLeft : .auto
      let expectedLevels = fields[3].split(separator: " ").map { $0 == "x" ? nil : UInt8($0)! }
      let expectedOrder = fields[4].split(separator: " ").map { Int($0)! }
      cases += 1
      guard let (paragraph, levels) = Bidi.levels(scalars, direction: direction) else {
        failures.append(String(line))
        continue
      }
      let kept = expectedLevels.indices.filter { expectedLevels[$0] != nil }
      let levelsMatch = paragraph == Int(fields[2]) && kept.allSatisfy { levels[$0] == expectedLevels[$0] }
      let order = Bidi.visualOrder(levels: kept.map { levels[$0] }).map { kept[$0] }
      if !levelsMatch || order != expectedOrder { failures.append(String(line)) }
    }
    // All 91,707 lines of Unicode 15.0's file, with Debian's FriBidi 1.0.8.
    #expect(cases > 90_000)
    #expect(failures.isEmpty, "\(failures.count) of \(cases) lines differ, e.g. \(failures.prefix(3))")
  }

  // MARK: - Helpers

  private func cmap(_ font: String, _ scalar: Unicode.Scalar) -> UInt32 {
    fonts.faces[fonts.faceIndex(named: font)!].glyphIndex(scalar)
  }

  private struct HBGlyph: Decodable {
    var g: UInt32
    var cl: Int
    var dx: Int
    var dy: Int
    var ax: Int
    var ay: Int
  }

  /// `hb-shape --output-format=json` on `text` with the font at `path`.
  private func hbShape(_ path: String, _ text: String) throws -> [HBGlyph] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/hb-shape")
    process.arguments = ["--no-glyph-names", "--output-format=json", path, text]
    let out = Pipe()
    process.standardOutput = out
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/hb-shape"), "hb-shape is missing: make setup installs libharfbuzz-bin")
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return try JSONDecoder().decode([HBGlyph].self, from: data)
  }
}
