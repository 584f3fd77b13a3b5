import Testing
import _MapSnapRaster

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

  private func inked(_ path: Path, rule: FillRule = .nonZero) -> Int {
    coverageMap(path, width: 20, height: 10, rule: rule).filter { $0 > 0 }.count
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

  @Test func aTransparentColourReachesNothing() {
    #expect(!reaches(square(2, 2, 8, 8), color: Color(r: 0, g: 0, b: 0, a: 0)))
  }
}
