import Foundation
import Testing

@testable import _MapSnapRaster

// DisplayList.fill(_:rule:pattern:): a fill's coverage with a repeating
// image's sample at each pixel centre (bilinear, wrapping), scaled by
// opacity × coverage, from the pixel's absolute position only.


private func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
  var p = Path()
  p.addContour([Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)], closed: true)
  return p
}

private func pixels(_ list: DisplayList, _ options: RenderOptions = .init(threads: 1, tileRows: 16)) -> [UInt32] {
  let canvas = Canvas(width: list.width, height: list.height)
  TileRenderer.render(list, into: canvas, options: options)
  return withExtendedLifetime(canvas) { Array(canvas.buffer) }
}

/// A 3 × 2 image of six distinct opaque colours.
private let checker = image(3, 2) { x, y in (UInt8(40 * x + 10), UInt8(100 * y + 20), 200, 255) }

@Suite struct PatternFillTests {
  @Test func wholePixelPatternRepeatsTexelsExactly() {
    var list = DisplayList(width: 10, height: 7, background: .transparent)
    let drawn = list.fill(rect(0, 0, 10, 7), pattern: PatternPaint(image: checker, origin: Point(1, 0), scale: 1))
    #expect(drawn)
    #expect(list.patternCount == 1 && list.fillCount == 1)
    let out = pixels(list)
    for y in 0..<7 {
      for x in 0..<10 {
        // The image's corner at x = 1: pixel x shows texel (x − 1) mod 3.
        let tx = ((x - 1) % 3 + 3) % 3, ty = y % 2
        #expect(out[y * 10 + x] == checker[tx, ty], "pixel \(x), \(y)")
      }
    }
  }

  @Test func coverageAndOpacityScaleTheSample() {
    let solid = image(1, 1) { _, _ in (200, 100, 50, 255) }
    var list = DisplayList(width: 4, height: 1, background: .transparent)
    // Half of pixel 0 covered, pixels 1 and 2 whole; opacity 0.5.
    list.fill(rect(0.5, 0, 3, 1), pattern: PatternPaint(image: solid, origin: Point(0, 0), scale: 1, opacity: 0.5))
    let out = pixels(list)
    var half = DisplayList(width: 4, height: 1, background: .transparent)
    half.fill(rect(0.5, 0, 3, 1), color: Color(r: 200, g: 100, b: 50, a: 128))
    #expect(out == pixels(half))
    #expect(out[3] == 0)
  }

  @Test func magnifiedPatternIsBilinearBetweenWrappedTexels() {
    // Two texels, black and white alpha-opaque, each 2 device pixels wide.
    let two = image(2, 1) { x, _ in x == 0 ? (0, 0, 0, 255) : (255, 255, 255, 255) }
    var list = DisplayList(width: 8, height: 1, background: .transparent)
    list.fill(rect(0, 0, 8, 1), pattern: PatternPaint(image: two, origin: Point(0, 0), scale: 2))
    let out = pixels(list).map { Int($0 & 255) }
    // Centres at texel coordinates 0.25, 0.75, 1.25, 1.75 (−0.5 for texel centres):
    // the first pixel mixes the last (wrapped) texel in by a quarter.
    #expect(Array(out[0..<4]) == [64, 64, 191, 191])
    #expect(Array(out[0..<4]) == Array(out[4..<8]))
  }

  @Test func longRunsWrapAsFloorModuloForAnyStep() {
    // Reduced (several texels a pixel) and mirrored (u falling along the
    // row) patterns: each pixel is the bilinear sample at floor(u) mod 3.
    let noise = image(3, 2) { x, y in (UInt8(60 * x + 5), UInt8(90 * y + 7), UInt8(17 * (x + y)), 255) }
    for (axis, origin) in [(0.37, 0.2), (-1.3, 5.1), (0.05, -2.0)] {
      var list = DisplayList(width: 40, height: 2, background: .transparent)
      list.fill(rect(0, 0, 40, 2), pattern: PatternPaint(image: noise, origin: Point(origin, 0), xAxis: Point(axis, 0), yAxis: Point(0, 1)))
      let out = pixels(list)
      for y in 0..<2 {
        for x in 0..<40 {
          let u = (Double(x) + 0.5 - origin) / axis - 0.5
          let f = u.rounded(.down)
          let lo = ((Int(f) % 3) + 3) % 3, hi = (lo + 1) % 3
          let row = y % 2
          let want = bilinear(noise[lo, row], noise[hi, row], noise[lo, row], noise[hi, row], UInt64(((u - f) * 256).rounded()), 0)
          #expect(out[y * 40 + x] == want, "axis \(axis), pixel \(x), \(y)")
        }
      }
    }
  }

  @Test func rotatedAxesMapDeviceToImage() {
    // The image turned a quarter clockwise: its x axis points down the frame.
    var list = DisplayList(width: 2, height: 3, background: .transparent)
    list.fill(rect(0, 0, 2, 3), pattern: PatternPaint(image: checker, origin: Point(2, 0), xAxis: Point(0, 1), yAxis: Point(-1, 0)))
    let out = pixels(list)
    for y in 0..<3 {
      for x in 0..<2 {
        // Device (x + 0.5, y + 0.5) − (2, 0) = u·(0, 1) + v·(−1, 0).
        let u = y, v = 1 - x
        #expect(out[y * 2 + x] == checker[u, v], "pixel \(x), \(y)")
      }
    }
  }

  @Test func pixelsAreTheSameForAnyBandHeightThreadsAndAppendedLists() {
    let noise = image(5, 4) { x, y in (UInt8((x * 53 + y * 31) & 255), UInt8((x * 17 + y * 91) & 255), UInt8((x * y * 13) & 255), UInt8(128 + (x + y) * 12)) }
    var ring = Path()
    var pts: [Point] = []
    for i in 0..<60 {
      let a = Double(i) / 60 * 2 * Double.pi
      pts.append(Point(40 + 33 * cos(a), 45 + 37 * sin(a)))
    }
    ring.addContour(pts, closed: true)
    let paint = PatternPaint(image: noise, origin: Point(-13.3, 7.6), xAxis: Point(1.7, 0.4), yAxis: Point(-0.4, 1.7), opacity: 0.8)
    var whole = DisplayList(width: 80, height: 90, background: .white)
    whole.fill(rect(5, 5, 30, 30), color: Color(r: 10, g: 200, b: 30))
    whole.fill(ring, pattern: paint)
    let reference = pixels(whole, .init(threads: 1, tileRows: 90))
    for (threads, rows) in [(1, 1), (2, 7), (3, 16), (4, 33)] {
      #expect(pixels(whole, .init(threads: threads, tileRows: rows)) == reference)
    }
    var first = DisplayList(width: 80, height: 90, background: .white)
    first.fill(rect(5, 5, 30, 30), color: Color(r: 10, g: 200, b: 30))
    var second = DisplayList(width: 80, height: 90, background: .white)
    second.fill(ring, pattern: paint)
    first.append(second)
    #expect(pixels(first, .init(threads: 2, tileRows: 8)) == reference)
  }

  @Test func coverageIsThatOfTheSameSolidFill() {
    let solid = image(1, 1) { _, _ in (255, 255, 255, 255) }
    var ring = Path()
    ring.addContour([Point(1.3, 0.2), Point(17.8, 4.1), Point(9.2, 15.7)], closed: true)
    var a = DisplayList(width: 20, height: 17, background: .transparent)
    a.fill(ring, pattern: PatternPaint(image: solid, origin: Point(0.37, 0.11), scale: 0.7))
    var b = DisplayList(width: 20, height: 17, background: .transparent)
    b.fill(ring, color: .white)
    #expect(pixels(a) == pixels(b))
  }

  @Test func nothingIsRecordedForEmptyPaints() {
    let clear = image(2, 2) { _, _ in (9, 9, 9, 0) }
    var list = DisplayList(width: 8, height: 8)
    let transparent = list.fill(rect(0, 0, 8, 8), pattern: PatternPaint(image: clear, origin: Point(0, 0), scale: 1))
    let faint = list.fill(rect(0, 0, 8, 8), pattern: PatternPaint(image: checker, origin: Point(0, 0), scale: 1, opacity: 0.001))
    let flat = list.fill(rect(0, 0, 8, 8), pattern: PatternPaint(image: checker, origin: Point(0, 0), xAxis: Point(1, 1), yAxis: Point(2, 2)))
    let outside = list.fill(rect(20, 20, 30, 30), pattern: PatternPaint(image: checker, origin: Point(0, 0), scale: 1))
    #expect(!transparent && !faint && !flat && !outside)
    #expect(list.patternCount == 0 && list.fillCount == 0)
  }

  @Test func strokesTakeThePatternToo() {
    var line = Path()
    line.addContour([Point(0, 5), Point(12, 5)], closed: false)
    var list = DisplayList(width: 12, height: 10, background: .transparent)
    let drawn = list.fillStroke(of: line, style: StrokeStyle(width: 4), tolerance: 0.1, pattern: PatternPaint(image: checker, origin: Point(0, 0), scale: 1))
    #expect(drawn)
    let out = pixels(list)
    #expect(out[4 * 12 + 4] == checker[1, 0])
    #expect(out[1 * 12 + 4] == 0)
  }
}
