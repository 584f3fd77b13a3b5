import Testing
import _MapSnapRaster

@testable import MapSnap

private func rgba(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> Color {
  Color(r: r, g: g, b: b, a: a)
}

private func hex(_ rgb: UInt32) -> Color {
  Color(r: UInt8(rgb >> 16), g: UInt8((rgb >> 8) & 0xFF), b: UInt8(rgb & 0xFF))
}

@Suite struct ColorParserTests {
  @Test func hexForms() {
    #expect(ColorParser.parse("#f00") == rgba(255, 0, 0))
    #expect(ColorParser.parse("#F0a") == rgba(255, 0, 170))
    #expect(ColorParser.parse("#f00a") == rgba(255, 0, 0, 170))
    #expect(ColorParser.parse("#1a7f37") == rgba(0x1A, 0x7F, 0x37))
    #expect(ColorParser.parse("#1A7F37") == rgba(0x1A, 0x7F, 0x37))
    #expect(ColorParser.parse("#1a7f3780") == rgba(0x1A, 0x7F, 0x37, 0x80))
    #expect(ColorParser.parse("#00000000") == rgba(0, 0, 0, 0))
    #expect(ColorParser.parse("#fff") == .white)
    #expect(ColorParser.parse("  #c00\t") == rgba(0xCC, 0, 0))
    #expect(ColorParser.parse("\n#ffffff \n") == .white)
  }

  @Test func commaSeparatedFunctions() {
    #expect(ColorParser.parse("rgb(255, 0, 0)") == rgba(255, 0, 0))
    #expect(ColorParser.parse("rgb(0,128,255)") == rgba(0, 128, 255))
    #expect(ColorParser.parse("  rgb( 1 , 2 , 3 )  ") == rgba(1, 2, 3))
    #expect(ColorParser.parse("RGB(1, 2, 3)") == rgba(1, 2, 3))
    #expect(ColorParser.parse("rgb(100%, 0%, 50%)") == rgba(255, 0, 128))
    #expect(ColorParser.parse("rgb(10%, 20%, 30%)") == rgba(26, 51, 77))
    #expect(ColorParser.parse("rgba(0, 0, 255, 0.5)") == rgba(0, 0, 255, 128))
    #expect(ColorParser.parse("rgba(0, 0, 255, .25)") == rgba(0, 0, 255, 64))
    #expect(ColorParser.parse("rgba(0, 0, 255, 50%)") == rgba(0, 0, 255, 128))
    #expect(ColorParser.parse("rgba(0, 0, 255, 1)") == rgba(0, 0, 255))
    #expect(ColorParser.parse("rgba(0, 0, 255, 0)") == rgba(0, 0, 255, 0))
    #expect(ColorParser.parse("rgba(1, 2, 3)") == rgba(1, 2, 3))  // alias of rgb
    #expect(ColorParser.parse("rgb(1, 2, 3, 0.5)") == rgba(1, 2, 3, 128))
    #expect(ColorParser.parse("rgb(127.5, 0.4, 254.6)") == rgba(128, 0, 255))
  }

  @Test func spaceSeparatedFunctions() {
    #expect(ColorParser.parse("rgb(10 20 30)") == rgba(10, 20, 30))
    #expect(ColorParser.parse("rgb(10 20 30 / 0.25)") == rgba(10, 20, 30, 64))
    #expect(ColorParser.parse("rgb(10 20 30/50%)") == rgba(10, 20, 30, 128))
    #expect(ColorParser.parse("rgba( 10   20\t30 / 1 )") == rgba(10, 20, 30))
    #expect(ColorParser.parse("rgb(10% 20 30 / 40%)") == rgba(26, 20, 30, 102))
    #expect(ColorParser.parse("rgb(none 20 30)") == rgba(0, 20, 30))
  }

  @Test func keywords() {
    #expect(ColorParser.parse("transparent") == .transparent)
    #expect(ColorParser.parse(" Transparent ") == Color(r: 0, g: 0, b: 0, a: 0))
    #expect(ColorParser.parse("red") == rgba(255, 0, 0))
    #expect(ColorParser.parse("RebeccaPurple") == hex(0x663399))
    #expect(ColorParser.parse("  NAVY ") == hex(0x000080))
  }

  @Test(arguments: [
    "", "   ", "#", "#f", "#ff", "#fffff", "#fffffff", "#fffffffff", "#ggg", "#ff00zz", "# fff", "ff0000",
    "#ff 000", "rgb(256, 0, 0)", "rgb(-1, 0, 0)", "rgb(1, 2)", "rgb(1, 2, 3, 4, 5)", "rgb(1 2, 3)",
    "rgb(10%, 20, 30)", "rgb(1, 2, 3", "rgb 1, 2, 3)", "rgb (1, 2, 3)", "rgba(0, 0, 0, 1.5)", "rgba(0, 0, 0, 101%)",
    "rgb(101%, 0%, 0%)", "rgb(none, 0, 0)", "rgb(1, 2, 3,)", "rgb(,1, 2, 3)", "rgb(1 2 3 /)", "rgb(1 2 3 / 0.5 0.5)",
    "rgb(1 2 / 0.5)", "rgb(1 2 3 4)", "rgb(1 2 3 / 0.5 / 1)", "rgb(1.2.3, 0, 0)", "rgb(1., 0, 0)", "rgb(1e2, 0, 0)",
    "rgb(0x10, 0, 0)", "rgb(a, b, c)", "rgb()", "hsl(0, 0%, 0%)", "notacolor", "red blue", "redd", "grean",
    "light blue", "transparentt", "#fff;", "inf", "rgb(inf, 0, 0)", "rgb(nan, 0, 0)",
  ])
  func badInputsAreRejected(_ text: String) {
    #expect(ColorParser.parse(text) == nil, "\(text.debugDescription)")
  }

  @Test func namedColoursHaveTheirCSSValues() {
    let known: [(String, UInt32)] = [
      ("rebeccapurple", 0x663399), ("darkgray", 0xA9A9A9), ("darkgrey", 0xA9A9A9), ("gray", 0x808080),
      ("grey", 0x808080), ("lightgoldenrodyellow", 0xFAFAD2), ("navy", 0x000080), ("teal", 0x008080),
      ("olive", 0x808000), ("silver", 0xC0C0C0), ("maroon", 0x800000), ("aqua", 0x00FFFF),
      ("cyan", 0x00FFFF), ("fuchsia", 0xFF00FF), ("magenta", 0xFF00FF), ("green", 0x008000),
      ("lime", 0x00FF00), ("purple", 0x800080), ("black", 0x000000), ("white", 0xFFFFFF),
      ("orange", 0xFFA500), ("tomato", 0xFF6347), ("steelblue", 0x4682B4), ("cornflowerblue", 0x6495ED),
      ("papayawhip", 0xFFEFD5), ("dimgray", 0x696969), ("lightslategrey", 0x778899), ("aliceblue", 0xF0F8FF),
      ("yellowgreen", 0x9ACD32), ("mediumspringgreen", 0x00FA9A), ("darkslategray", 0x2F4F4F),
      ("navajowhite", 0xFFDEAD), ("burlywood", 0xDEB887), ("crimson", 0xDC143C), ("gold", 0xFFD700),
    ]
    for (name, value) in known {
      #expect(ColorParser.parse(name) == hex(value), "\(name)")
      #expect(ColorParser.parse(name.uppercased()) == hex(value), "\(name)")
    }
    // CSS, unlike X11: darkgray is lighter than gray.
    #expect(ColorParser.parse("darkgray")!.r > ColorParser.parse("gray")!.r)
  }

  @Test func namedColourTable() {
    let names = CSSNamedColors.names
    #expect(names.count == 148)
    #expect(Set(names).count == 148)
    #expect(names == names.sorted())
    #expect(names.allSatisfy { $0 == $0.lowercased() })
    #expect(!names.contains("transparent"))
    for (name, rgb) in CSSNamedColors.table {
      #expect(ColorParser.parse(name) == hex(rgb))
      #expect(rgb <= 0xFFFFFF)
    }
    // Both spellings of every grey.
    for name in names where name.contains("gray") {
      let grey = name.replacing("gray", with: "grey")
      #expect(ColorParser.parse(grey) == ColorParser.parse(name), "\(grey)")
    }
    #expect(names.filter { $0.contains("gray") }.count == 7)
    #expect(names.filter { $0.contains("grey") }.count == 7)
  }

  @Test func suggestions() {
    #expect(ColorParser.suggestion(for: "rebeccapurpel") == "rebeccapurple")
    #expect(ColorParser.suggestion(for: "bleu") == "blue")
    #expect(ColorParser.suggestion(for: "Grean") == "green")
    #expect(ColorParser.suggestion(for: "light blue") == "lightblue")
    #expect(ColorParser.suggestion(for: "dark-grey") == "darkgrey")
    #expect(ColorParser.suggestion(for: " lightgoldenrodyelow ") == "lightgoldenrodyellow")
    #expect(ColorParser.suggestion(for: "transparant") == "transparent")
    #expect(ColorParser.suggestion(for: "red") == nil)  // valid
    #expect(ColorParser.suggestion(for: "#ff00zz") == nil)
    #expect(ColorParser.suggestion(for: "rgb(1, 2)") == nil)
    #expect(ColorParser.suggestion(for: "zzzzzz") == nil)
    #expect(ColorParser.suggestion(for: "") == nil)
  }

  @Test func expectedDescription() {
    #expect(ColorParser.expectedDescription.contains("#rrggbb"))
  }
}
