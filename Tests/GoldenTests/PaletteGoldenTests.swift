import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

/// The palette golden (`Golden/palette-hairlines`, 16 colours): 1-px lines of
/// four colours over sixteen fills keep their colours in the PNG8 (thin-line
/// protection), checked at every pixel of every line, in the PNG8 written now
/// and in the recorded golden.
@Suite struct PaletteGoldenTests {
  /// The hairlines as `Golden/synthetic.py` draws them: line i is row
  /// 20 + 35·i from x = 60·i + 5 to 60·i + 55, and column 60·i + 40 from
  /// y = 100 to 150, in colour i.
  static let colours: [[UInt8]] = [[0x6A, 0x8F, 0x4F], [0xC0, 0x50, 0x4D], [0x4F, 0x81, 0xBD], [0x80, 0x64, 0xA2]]

  static func pixels(ofLine i: Int) -> [(x: Int, y: Int)] {
    let row = (60 * i + 5)..<(60 * i + 55)
    let column = 100..<150
    // Away from where another line crosses.
    let crossings = Set((0..<4).flatMap { j in [60 * j + 40] })
    let rows = Set((0..<4).map { 20 + 35 * $0 })
    return row.filter { x in !crossings.contains(x) }.map { ($0, 20 + 35 * i) }
      + column.filter { y in !rows.contains(y) }.map { (60 * i + 40, $0) }
  }

  /// Oklab of an opaque 8-bit sRGB colour (the published matrices).
  static func oklab(_ c: ArraySlice<UInt8>) -> SIMD3<Double> {
    let c = Array(c)
    func linear(_ v: UInt8) -> Double {
      let s = Double(v) / 255
      return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    }
    let (r, g, b) = (linear(c[0]), linear(c[1]), linear(c[2]))
    let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    return SIMD3(
      0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s, 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
      0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
  }

  @Test("every hairline keeps its colour (ΔE < 0.02) at each of its pixels in the 16-colour PNG8")
  func hairlinesKeepTheirColours() throws {
    let golden = try #require(GoldenCase.all().first { $0.name == "palette-hairlines" })
    #expect(golden.palette == 16)
    let snapshot = try golden.render()
    let truecolour = try PNGDecoder.decode(try snapshot.pngData())
    let written = try snapshot.pngData(options: golden.encoding)
    #expect(written[25] == 3, "colour type 3")
    var images = [("written now", try PNGDecoder.decode(written))]
    if let recorded = try? PNGDecoder.decode(contentsOf: golden.expectedPath) {
      images.append(("recorded", recorded))
    } else {
      Issue.record("no golden at \(golden.expectedPath) (GoldenImageTests records it)")
    }
    // The fills alone ask for all 16 entries: the lines have to be kept on purpose.
    #expect(Set(truecolour.packedPixels).count > 16 + 4)
    let width = truecolour.width
    for (i, colour) in Self.colours.enumerated() {
      var worst = 0.0
      for (x, y) in Self.pixels(ofLine: i) {
        let at = (y * width + x) * 4
        // The true-colour frame has the line's own colour there…
        #expect(Array(truecolour.pixels[at..<at + 3]) == colour, "line \(i) at \(x),\(y)")
        // …and the palette's is within a small ΔE of it.
        for (_, image) in images {
          let d = Self.oklab(image.pixels[at..<at + 3]) - Self.oklab(truecolour.pixels[at..<at + 3])
          worst = max(worst, (d * d).sum().squareRoot())
        }
      }
      #expect(worst < 0.02, "line \(i) (#\(colour.map { String($0, radix: 16) }.joined())) is off by ΔE \(worst)")
    }
  }
}
