import Foundation
import Testing
@testable import _MapSnapRaster

/// Renders `path` in opaque black on a transparent canvas and returns the
/// alpha (coverage) of every pixel.
func coverageMap(
  _ path: Path, width: Int, height: Int, rule: FillRule = .nonZero,
  options: RenderOptions = .init(threads: 1, tileRows: 16), testingCoverage: Bool = true
) -> [UInt8] {
  var list = DisplayList(width: width, height: height, background: .transparent)
  _ = list.fill(path, rule: rule, color: .black, testingCoverage: testingCoverage)
  let canvas = Canvas(width: width, height: height)
  TileRenderer.render(list, into: canvas, options: options)
  return canvas.buffer.map { UInt8($0 >> 24) }
}

func polygon(_ pts: [(Double, Double)]) -> Path {
  var p = Path()
  p.addContour(pts.map { Point($0.0, $0.1) }, closed: true)
  return p
}

@Suite struct CoverageTests {
  @Test func rectangleWithFractionalEdgesCoversItsArea() {
    // x from 2.25 to 7.5, y from 1.5 to 4.75
    let cov = coverageMap(polygon([(2.25, 1.5), (7.5, 1.5), (7.5, 4.75), (2.25, 4.75)]), width: 10, height: 8)
    func at(_ x: Int, _ y: Int) -> Int { Int(cov[y * 10 + x]) }
    #expect(at(4, 3) == 255)  // interior
    #expect(abs(at(2, 3) - 191) <= 1)  // 0.75 of the pixel
    #expect(abs(at(7, 3) - 128) <= 1)  // 0.5
    #expect(abs(at(4, 1) - 128) <= 1)  // top half row
    #expect(abs(at(4, 4) - 191) <= 1)  // 0.75 row
    #expect(abs(at(2, 1) - 96) <= 1)  // 0.75 * 0.5
    #expect(at(0, 0) == 0 && at(8, 3) == 0 && at(4, 5) == 0)
    let total = cov.reduce(0) { $0 + Double($1) } / 255
    #expect(abs(total - 5.25 * 3.25) < 0.1)
  }

  @Test func diagonalEdgeThroughPixelCentreIsHalfCovered() {
    // Triangle whose hypotenuse runs corner to corner of pixel (1,1).
    let cov = coverageMap(polygon([(0, 0), (4, 4), (0, 4)]), width: 4, height: 4)
    #expect(abs(Int(cov[1 * 4 + 1]) - 128) <= 1)
    #expect(cov[2 * 4 + 0] == 255)
    #expect(cov[0 * 4 + 2] == 0)
  }

  @Test func pentagramCentreIsFilledNonZeroAndEmptyEvenOdd() {
    var pts: [(Double, Double)] = []
    for k in 0..<5 {
      let a = Double(k * 2) * 2 * Double.pi / 5 - Double.pi / 2
      pts.append((50 + 40 * cos(a), 50 + 40 * sin(a)))
    }
    let path = polygon(pts)
    let nz = coverageMap(path, width: 100, height: 100, rule: .nonZero)
    let eo = coverageMap(path, width: 100, height: 100, rule: .evenOdd)
    #expect(nz[50 * 100 + 50] == 255)
    #expect(eo[50 * 100 + 50] == 0)
    // A point inside one tip is filled under both rules.
    #expect(nz[20 * 100 + 50] == 255 && eo[20 * 100 + 50] == 255)
  }

  @Test func geometryFarOutsideTheFrameIsClippedExactly() {
    // A huge square whose corners are a million pixels away covers everything.
    let big = polygon([(-1e6, -1e6), (1e6, -1e6), (1e6, 1e6), (-1e6, 1e6)])
    #expect(coverageMap(big, width: 16, height: 16).allSatisfy { $0 == 255 })
    // A triangle crossing the left border keeps its visible part.
    let tri = coverageMap(polygon([(-10, 0), (8, 0), (-10, 18)]), width: 16, height: 16)
    #expect(tri[0] == 255)  // (0,0) is inside
    #expect(tri[15 * 16 + 15] == 0)
    let total = tri.reduce(0) { $0 + Double($1) } / 255
    #expect(abs(total - 32) < 0.2)  // area of the part with x >= 0: 8*8/2
  }

  @Test func nonFiniteAndDegenerateInputDrawsNothing() {
    var list = DisplayList(width: 8, height: 8, background: .transparent)
    let withNaN = list.fill(polygon([(1, 1), (Double.nan, 3), (5, 1)]), color: .black)
    let flat = list.fill(polygon([(1, 1), (5, 1)]), color: .black)  // no area: horizontal only
    let above = list.fill(polygon([(-5, -5), (-1, -5), (-1, -1)]), color: .black)  // above the frame
    #expect(!withNaN && !flat && !above)
    #expect(list.edgeCount == 0)
  }

  @Test(arguments: [(1, 1), (1, 7), (2, 16), (4, 3), (3, 200)])
  func outputIsIdenticalForAnyThreadCountAndTileHeight(threads: Int, rows: Int) {
    var pts: [(Double, Double)] = []
    var seed: UInt64 = 12345
    func rnd() -> Double {
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      return Double(seed >> 11) / Double(1 << 53)
    }
    for _ in 0..<60 { pts.append((rnd() * 140 - 10, rnd() * 140 - 10)) }
    let reference = coverageMap(polygon(pts), width: 120, height: 120, rule: .evenOdd, options: .init(threads: 1, tileRows: 120))
    let other = coverageMap(polygon(pts), width: 120, height: 120, rule: .evenOdd, options: .init(threads: threads, tileRows: rows))
    #expect(reference == other)
  }

  @Test func groupOpacityComposesTheGroupAsAWhole() {
    var list = DisplayList(width: 4, height: 1, background: .white)
    list.beginGroup(opacity: 0.5)
    list.fill(polygon([(0, 0), (3, 0), (3, 1), (0, 1)]), color: .black)
    list.fill(polygon([(1, 0), (4, 0), (4, 1), (1, 1)]), color: .black)
    list.endGroup()
    let canvas = Canvas(width: 4, height: 1)
    TileRenderer.render(list, into: canvas)
    // Overlap (x = 1, 2) is no darker than the single-covered pixels.
    #expect(canvas.rgba(x: 0, y: 0).r == 128 || canvas.rgba(x: 0, y: 0).r == 127)
    #expect(canvas.rgba(x: 1, y: 0) == canvas.rgba(x: 0, y: 0))
    #expect(canvas.rgba(x: 3, y: 0) == canvas.rgba(x: 0, y: 0))
  }
}
