import Foundation
import Testing
@testable import _MapSnapRaster

/// `DisplayList.fill` says whether a fill reaches the frame (the `drawn`
/// counts of the report are built on it): true exactly when some pixel gets
/// non-zero coverage, whatever the geometry's relation to the frame.
@Suite struct ReachTests {
  private func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
    polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
  }

  private func reaches(_ path: Path, rule: FillRule = .nonZero, color: Color = .black) -> Bool {
    var list = DisplayList(width: 20, height: 10, background: .transparent)
    return list.fill(path, rule: rule, color: color)
  }

  /// Pixels the fill inks when drawn without the coverage test.
  private func inked(_ path: Path, rule: FillRule = .nonZero) -> Int {
    coverageMap(path, width: 20, height: 10, rule: rule, testingCoverage: false).filter { $0 > 0 }.count
  }

  @Test func geometryBesideTheFrameDoesNotReachIt() {
    for path in [square(-8, 2, -1, 8), square(21, 2, 30, 8), square(2, -9, 8, -1), square(2, 11, 8, 20), square(-5, -5, 0, 0)] {
      #expect(!reaches(path), "\(path.bounds)")
      #expect(inked(path) == 0)
    }
  }

  @Test func geometryInsideOrAcrossTheFrameReachesIt() {
    for path in [square(2, 2, 8, 8), square(-5, 2, 1, 8), square(19.9, 2, 30, 8), square(2, 2, 2.01, 2.01)] {
      #expect(reaches(path), "\(path.bounds)")
      #expect(inked(path) > 0)
    }
  }

  /// Around the frame, every edge lies on a border: the left border's
  /// winding still covers every pixel.
  @Test func geometryAroundTheFrameReachesIt() {
    let around = square(-10, -10, 40, 40)
    #expect(reaches(around))
    #expect(inked(around) == 200)
    // Two rings around it: winding 2 is inside for non-zero, outside for even-odd.
    var twice = around
    twice.addContour([Point(-20, -20), Point(50, -20), Point(50, 50), Point(-20, 50)], closed: true)
    #expect(reaches(twice, rule: .nonZero))
    #expect(!reaches(twice, rule: .evenOdd))
    #expect(inked(twice, rule: .evenOdd) == 0)
    // A hole around the frame inside a ring around it: nothing covered.
    var hole = square(-20, -20, 50, 50)
    hole.addContour([Point(-10, -10), Point(-10, 40), Point(40, 40), Point(40, -10)], closed: true)
    #expect(!reaches(hole))
  }

  /// Shapes inside the frame that cover no pixel: a sliver far under a
  /// pixel, a ring that folds back on itself, a hole as large as its ring.
  @Test func geometryInsideTheFrameThatCoversNoPixelDoesNotReachIt() {
    // (Wound the other way, the same sliver gets coverage 1 of 255: the
    // cell rasteriser floors a tiny negative area to -1. `fill` says so too.)
    let sliver = polygon([(5, 5), (5, 5.004), (5.004, 5.004), (5.004, 5)])
    #expect(!reaches(sliver))
    #expect(inked(sliver) == 0)
    let other = square(5, 5, 5.004, 5.004)
    #expect(reaches(other) == (inked(other) > 0))
    let folded = polygon([(2, 2), (15, 8), (2, 2), (2, 2)])
    #expect(!reaches(folded))
    var cancelled = square(2, 2, 8, 8)
    cancelled.addContour([Point(2, 2), Point(2, 8), Point(8, 8), Point(8, 2)], closed: true)
    #expect(!reaches(cancelled))
    #expect(inked(cancelled) == 0)
    // The same ring twice, one way: winding 2 is covered under non-zero only.
    var twice = square(2, 2, 8, 8)
    twice.addContour([Point(2, 2), Point(8, 2), Point(8, 8), Point(2, 8)], closed: true)
    #expect(reaches(twice, rule: .nonZero))
    #expect(!reaches(twice, rule: .evenOdd))
  }

  /// `fill` answers exactly what drawing shows: 2,000 random small polygons
  /// (sizes from 0.001 to 4 px, in, across and beside the frame, both rules).
  @Test func reachAgreesWithTheDrawnCoverage() {
    var random = MMIXRandom(seed: 20_261_123)
    var disagreements: [String] = []
    var covered = 0
    for i in 0..<2000 {
      let size = pow(10, random.uniform(-3, 0.6))
      let cx = random.uniform(-3, 23)
      let cy = random.uniform(-3, 13)
      let n = 3 + Int((random.next() >> 33) % 4)
      let pts = (0..<n).map { _ in (cx + random.uniform(-size, size), cy + random.uniform(-size, size)) }
      let rule: FillRule = (random.next() >> 40) % 2 == 0 ? .nonZero : .evenOdd
      let path = polygon(pts)
      let said = reaches(path, rule: rule)
      let shown = inked(path, rule: rule) > 0
      if shown { covered += 1 }
      if said != shown { disagreements.append("#\(i) \(rule) \(pts): fill says \(said), drawing shows \(shown)") }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    // Both answers are common, so the comparison says something.
    #expect(covered > 200 && covered < 1800, "\(covered) of 2000 covered")
  }

  /// The same on fills spanning several 64-row buckets with more than 16
  /// edges, whose coverage test sorts a bucket at a time: 600 random
  /// self-crossing polygons and thin slivers, 20 to 60 vertices, up to 250
  /// rows tall, mostly even-odd (which skips the area shortcut).
  @Test func reachAgreesWithTheDrawnCoverageAcrossBuckets() {
    var random = MMIXRandom(seed: 20_261_126)
    let width = 24
    let height = 300
    var disagreements: [String] = []
    var covered = 0
    for i in 0..<600 {
      let n = 20 + Int((random.next() >> 33) % 41)
      let tall = random.uniform(70, 250)
      let top = random.uniform(-20, Double(height) - 40)
      let sliver = (random.next() >> 40) % 2 == 0
      let thickness = sliver ? pow(10, random.uniform(-3.5, -1.5)) : random.uniform(1, 20)
      let x = random.uniform(-4, Double(width) + 4)
      // A sliver runs down and back up a hair apart; other polygons zigzag across their box.
      let pts: [(Double, Double)] = (0..<n).map { k in
        let t = Double(k) / Double(n - 1)
        if sliver {
          let down = k < n / 2
          let f = down ? Double(k) / Double(n / 2) : Double(n - 1 - k) / Double(n - 1 - n / 2)
          return (x + (down ? 0 : thickness) + random.uniform(-0.2, 0.2) * thickness, top + tall * f)
        }
        return (x + random.uniform(-thickness, thickness), top + tall * t + random.uniform(-10, 10))
      }
      let rule: FillRule = (random.next() >> 40) % 4 == 0 ? .nonZero : .evenOdd
      var list = DisplayList(width: width, height: height, background: .transparent)
      let said = list.fill(polygon(pts), rule: rule, color: .black)
      let shown = coverageMap(polygon(pts), width: width, height: height, rule: rule, testingCoverage: false).contains { $0 > 0 }
      if shown { covered += 1 }
      if said != shown { disagreements.append("#\(i) \(rule) sliver \(sliver): fill says \(said), drawing shows \(shown)") }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    #expect(covered > 100 && covered < 550, "\(covered) of 600 covered")
  }

  @Test func aTransparentColourReachesNothing() {
    #expect(!reaches(square(2, 2, 8, 8), color: Color(r: 0, g: 0, b: 0, a: 0)))
  }
}

/// A 64-bit linear congruential generator (Knuth's MMIX constants), so the
/// random reach tests fail the same way every run: the raster tests depend on
/// nothing but the rasteriser.
private struct MMIXRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state
  }

  /// Uniform in a..<b, from the top 53 bits.
  mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(next() >> 11) / Double(1 << 53) }
}
