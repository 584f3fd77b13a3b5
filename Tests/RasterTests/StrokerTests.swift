import Foundation
import Testing
import _MapSnapRaster

// MARK: - Test-only coverage helpers

/// The nonzero winding number of `path` (every contour closed) at `p`.
private func winding(_ path: Path, at p: Point) -> Int {
  var w = 0
  for c in path.contours {
    for i in 0..<c.count {
      let a = path.points[c.start + i]
      let b = path.points[c.start + (i + 1) % c.count]
      guard (a.y <= p.y) != (b.y <= p.y) else { continue }
      let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
      if x > p.x { w += b.y > a.y ? 1 : -1 }
    }
  }
  return w
}

/// The area (px²) where the nonzero winding of `path` is not 0: rows `step`
/// px apart, each integrated exactly along x.
private func coveredArea(_ path: Path, step: Double = 0.02) -> Double {
  let box = path.bounds
  guard !box.isEmpty else { return 0 }
  var area = 0.0
  var crossings: [(x: Double, w: Int)] = []
  var y = box.minY + step / 2
  while y < box.maxY {
    crossings.removeAll(keepingCapacity: true)
    for c in path.contours {
      for i in 0..<c.count {
        let a = path.points[c.start + i]
        let b = path.points[c.start + (i + 1) % c.count]
        guard (a.y <= y) != (b.y <= y) else { continue }
        crossings.append((a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y), b.y > a.y ? 1 : -1))
      }
    }
    crossings.sort { $0.x < $1.x }
    var w = 0
    for i in crossings.indices.dropLast() {
      w += crossings[i].w
      if w != 0 { area += (crossings[i + 1].x - crossings[i].x) * step }
    }
    y += step
  }
  return area
}

private func polyline(_ pts: [Point], closed: Bool = false) -> Path {
  var p = Path()
  p.addContour(pts, closed: closed)
  return p
}

private func near(_ a: Double, _ b: Double, rel: Double) -> Bool { abs(a - b) <= abs(b) * rel }

private func near(_ a: Rect, _ b: Rect) -> Bool {
  abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9
    && abs(a.maxX - b.maxX) < 1e-9 && abs(a.maxY - b.maxY) < 1e-9
}

/// True when `p` lies within `halfWidth` of some segment of `pts`, measured
/// perpendicularly, with its projection inside the segment.
private func inSegmentRectangle(_ p: Point, _ pts: [Point], halfWidth: Double) -> Bool {
  for i in 0..<(pts.count - 1) {
    let a = pts[i], d = pts[i + 1] - a
    let t = (p - a).dot(d) / d.dot(d)
    if t >= 0 && t <= 1 && abs(d.cross(p - a)) / d.length < halfWidth { return true }
  }
  return false
}

/// Distance from `p` to the polyline `pts` (or to the point `pts[0]`).
private func distance(_ p: Point, to pts: [Point]) -> Double {
  if pts.count == 1 { return (p - pts[0]).length }
  var best = Double.infinity
  for i in 0..<(pts.count - 1) {
    let a = pts[i], d = pts[i + 1] - a
    let t = max(0, min(1, (p - a).dot(d) / d.dot(d)))
    best = min(best, (p - (a + d * t)).length)
  }
  return best
}

private let line100 = polyline([Point(0, 0), Point(100, 0)])
private let rightAngle = [Point(0, 0), Point(100, 0), Point(100, 100)]

@Suite struct StrokerTests {
  // MARK: - Caps

  @Test func buttLineCoversItsRectangle() {
    let o = strokeOutline(line100, style: StrokeStyle(width: 10))
    #expect(near(coveredArea(o), 1000, rel: 0.01))
    #expect(o.contours.count == 1 && o.contours[0].isClosed)
    #expect(near(o.bounds, Rect(minX: 0, minY: -5, maxX: 100, maxY: 5)))
  }

  @Test func squareCapsExtendByHalfWidth() {
    let o = strokeOutline(line100, style: StrokeStyle(width: 10, cap: .square))
    #expect(near(coveredArea(o), 1100, rel: 0.01))
    #expect(near(o.bounds, Rect(minX: -5, minY: -5, maxX: 105, maxY: 5)))
  }

  @Test func roundCapsAddADisc() {
    let o = strokeOutline(line100, style: StrokeStyle(width: 10, cap: .round))
    #expect(near(coveredArea(o), 1000 + .pi * 25, rel: 0.01))
    #expect(abs(o.bounds.minX + 5) < 1e-9 && abs(o.bounds.maxX - 105) < 1e-9)
    // Flattening keeps every vertex on the circle and the chord error <= tolerance.
    for p in o.points where p.x > 100 { #expect(abs((p - Point(100, 0)).length - 5) < 1e-9) }
  }

  // MARK: - Joins

  @Test func rightAngleJoins() {
    let miter = coveredArea(strokeOutline(polyline(rightAngle), style: StrokeStyle(width: 10)))
    let bevel = coveredArea(strokeOutline(polyline(rightAngle), style: StrokeStyle(width: 10, join: .bevel)))
    let round = coveredArea(strokeOutline(polyline(rightAngle), style: StrokeStyle(width: 10, join: .round)))
    // Two 100×10 bars overlapping in a 5×5 square, plus the outer corner.
    #expect(near(miter, 1975 + 25, rel: 0.002))
    #expect(near(bevel, 1975 + 12.5, rel: 0.002))
    #expect(near(round, 1975 + 25 * .pi / 4, rel: 0.002))
    #expect(abs(miter - bevel - 12.5) < 0.3)
  }

  @Test func sharpMiterFallsBackToBevel() {
    let a = 10.0 * .pi / 180
    let pts = [Point(0, 0), Point(100, 0), Point(100 - 100 * cos(a), 100 * sin(a))]
    let limited = strokeOutline(polyline(pts), style: StrokeStyle(width: 10, miterLimit: 4))
    let bevel = strokeOutline(polyline(pts), style: StrokeStyle(width: 10, join: .bevel))
    let long = strokeOutline(polyline(pts), style: StrokeStyle(width: 10, miterLimit: 12))
    #expect(limited == bevel)
    #expect(limited.bounds.maxX < 101)
    // 1 / sin(5°) ≈ 11.47 <= 12: the miter tip is ≈ 57 px past the vertex.
    #expect(long.bounds.maxX > 150)
    #expect(coveredArea(long) > coveredArea(bevel) + 100)
  }

  @Test func closedRingHasAHole() {
    let square = [Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100)]
    for pts in [square, Array(square.reversed())] {
      let o = strokeOutline(polyline(pts, closed: true), style: StrokeStyle(width: 10))
      #expect(o.contours.count == 2)
      #expect(winding(o, at: Point(50, 50)) == 0)
      #expect(winding(o, at: Point(50, 6)) == 0)
      #expect(winding(o, at: Point(-6, 50)) == 0)
      for p in [Point(50, 3), Point(0.5, 50), Point(103, 50), Point(-4, -4), Point(104, 104)] {
        #expect(abs(winding(o, at: p)) == 1)
      }
      #expect(near(coveredArea(o), 110 * 110 - 90 * 90, rel: 0.002))
      let bevel = strokeOutline(polyline(pts, closed: true), style: StrokeStyle(width: 10, join: .bevel))
      #expect(near(coveredArea(bevel), 4000 - 4 * 12.5, rel: 0.002))
    }
  }

  @Test(arguments: LineJoin.allCases)
  func reversalHasNoHolesOrSpikes(join: LineJoin) {
    let o = strokeOutline(polyline([Point(0, 0), Point(100, 0), Point(50, 0)]), style: StrokeStyle(width: 10, join: join))
    for x in stride(from: 0.25, through: 99.75, by: 0.5) {
      for y in [-4.9, -2.0, 0.01, 2.0, 4.9] { #expect(winding(o, at: Point(x, y)) != 0) }
    }
    #expect(o.bounds.minY >= -5 - 1e-9 && o.bounds.maxY <= 5 + 1e-9)
    if join == .round {
      #expect(abs(o.bounds.maxX - 105) < 1e-9)
      #expect(near(coveredArea(o), 1000 + 12.5 * .pi, rel: 0.005))
    } else {
      #expect(o.bounds.maxX <= 100 + 1e-9)
      #expect(near(coveredArea(o), 1000, rel: 0.005))
    }
  }

  @Test func collinearAndDuplicatePointsAddNothing() {
    let o = strokeOutline(
      polyline([Point(0, 0), Point(0, 0), Point(30, 0), Point(60, 0), Point(60, 0), Point(100, 0)]),
      style: StrokeStyle(width: 10))
    #expect(near(coveredArea(o), 1000, rel: 0.005))
    #expect(near(o.bounds, Rect(minX: 0, minY: -5, maxX: 100, maxY: 5)))
  }

  /// With round joins and caps the stroke is exactly the set of points within
  /// half the width of the line, whatever the segment lengths and turns.
  @Test func roundStrokeIsTheMinkowskiSum() {
    var seed: UInt64 = 12345
    func rnd() -> Double {
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      return Double(seed >> 11) / Double(1 << 53)
    }
    let zigzag = (0..<12).map { Point(Double($0) * 3, $0 % 2 == 0 ? 0 : 8) }
    let tightZigzag = (0..<20).map { Point(Double($0), $0 % 2 == 0 ? 10 : 12) }
    let hook = [Point(0, 20), Point(30, 20), Point(31, 21), Point(30, 22), Point(2, 22.5)]
    let random = (0..<30).map { _ in Point(rnd() * 40, rnd() * 40) }
    for pts in [zigzag, tightZigzag, hook, random] {
      let o = strokeOutline(polyline(pts), style: StrokeStyle(width: 10, join: .round, cap: .round), tolerance: 0.05)
      var wrong = 0
      for y in stride(from: -7.0, through: 48, by: 0.37) {
        for x in stride(from: -7.0, through: 48, by: 0.41) {
          let p = Point(x, y)
          let d = distance(p, to: pts)
          if abs(d - 5) < 0.1 { continue }
          if (winding(o, at: p) != 0) != (d < 5) { wrong += 1 }
        }
      }
      #expect(wrong == 0)
    }
  }

  /// Short segments at sharp turns leave no holes: every segment's own
  /// rectangle is covered, and nothing lies farther from the line than the
  /// join allows (half the width for bevel, half the width times the miter
  /// limit for miter).
  @Test(arguments: [LineJoin.miter, .bevel])
  func shortSegmentsAtSharpTurnsLeaveNoHoles(join: LineJoin) {
    let pts = [
      Point(0, 0), Point(2, 9), Point(4, 0), Point(4.5, 9), Point(30, 1), Point(3, 3),
      Point(3.5, 4), Point(4, 3), Point(4.5, 4.2), Point(30, 4), Point(30, 5), Point(29, 5.5),
    ]
    let o = strokeOutline(polyline(pts), style: StrokeStyle(width: 10, join: join))
    let reach = join == .bevel ? 5.1 : 5 * 4 + 0.1
    var holes = 0
    var spills = 0
    for y in stride(from: -26.0, through: 36, by: 0.29) {
      for x in stride(from: -26.0, through: 56, by: 0.31) {
        let p = Point(x, y)
        let covered = winding(o, at: p) != 0
        if !covered && inSegmentRectangle(p, pts, halfWidth: 4.9) { holes += 1 }
        if covered && distance(p, to: pts) > reach { spills += 1 }
      }
    }
    #expect(holes == 0)
    #expect(spills == 0)
  }

  /// A 1 px leg after a long segment: the inner corner of the long segment
  /// stays covered (the inner side must go through the vertex).
  @Test(arguments: LineJoin.allCases)
  func shortLegKeepsTheInnerCorner(join: LineJoin) {
    let o = strokeOutline(polyline([Point(0, 0), Point(100, 0), Point(100, 1)]), style: StrokeStyle(width: 20, join: join))
    for p in [Point(97, 5), Point(99, 9), Point(92, 2), Point(99.9, 0.5)] { #expect(winding(o, at: p) != 0) }
    let corner: Double = switch join {
    case .miter: 100
    case .bevel: 50
    case .round: 25 * .pi
    }
    #expect(near(coveredArea(o), 2000 + 10 + corner, rel: 0.002))
  }

  @Test func selfCrossingLineStaysFilled() {
    let pts = [Point(0, 0), Point(100, 100), Point(100, 0), Point(0, 100)]
    let o = strokeOutline(polyline(pts), style: StrokeStyle(width: 10))
    #expect(winding(o, at: Point(50, 50)) != 0)
    #expect(winding(o, at: Point(50, 30)) == 0)
  }

  // MARK: - Dots and degenerate input

  @Test func dotsFollowSVGRules() {
    let single = polyline([Point(10, 20)])
    let zeroLength = polyline([Point(10, 20), Point(10, 20)])
    let closedDot = polyline([Point(10, 20)], closed: true)
    for p in [single, zeroLength, closedDot] {
      #expect(strokeOutline(p, style: StrokeStyle(width: 10)).isEmpty)
      let round = strokeOutline(p, style: StrokeStyle(width: 10, cap: .round))
      // Inscribed polygon: short of the disc by at most perimeter × tolerance.
      let area = coveredArea(round)
      #expect(area < 25 * .pi && area > 25 * .pi - 10 * .pi * 0.1)
      #expect(!round.points.contains { abs(($0 - Point(10, 20)).length - 5) > 1e-9 })
      #expect(abs(round.bounds.minX - 5) < 1e-9 && abs(round.bounds.maxY - 25) < 1e-9)
      let square = strokeOutline(p, style: StrokeStyle(width: 10, cap: .square))
      #expect(near(square.bounds, Rect(minX: 5, minY: 15, maxX: 15, maxY: 25)))
      #expect(near(coveredArea(square), 100, rel: 0.005))
    }
  }

  @Test func nonFinitePointsAreSkipped() {
    let bad = polyline([Point(0, 0), Point(.nan, 5), Point(100, .infinity), Point(100, 0)])
    #expect(strokeOutline(bad, style: StrokeStyle(width: 10)) == strokeOutline(line100, style: StrokeStyle(width: 10)))
    #expect(strokeOutline(polyline([Point(.nan, .nan)]), style: StrokeStyle(width: 4, cap: .round)).isEmpty)
    #expect(strokeOutline(line100, style: StrokeStyle(width: .nan)).isEmpty)
    #expect(strokeOutline(line100, style: StrokeStyle(width: 0)).isEmpty)
  }

  @Test func extremeInputsDoNotTrap() {
    let far = polyline([Point(-1e308, 0), Point(1e308, 0), Point(1e308, 1e308), Point(0, 5)])
    for join in LineJoin.allCases {
      for cap in LineCap.allCases {
        for tol in [0.1, 1e-300, .nan, -1] {
          _ = strokeOutline(far, style: StrokeStyle(width: 1e300, join: join, cap: cap, miterLimit: .infinity), tolerance: tol)
          _ = strokeOutline(line100, style: StrokeStyle(width: 3, join: join, cap: cap, miterLimit: .nan), tolerance: tol)
          _ = strokeOutline(polyline([Point(0, 0)]), style: StrokeStyle(width: 1e-300, cap: cap), tolerance: tol)
        }
      }
    }
    // A tiny tolerance on a huge width is capped, not unbounded.
    let dot = strokeOutline(polyline([Point(0, 0)]), style: StrokeStyle(width: 1e6, cap: .round), tolerance: 1e-9)
    #expect(dot.points.count <= 4096)
  }

  @Test func stroking10kSegmentsStaysCompact() {
    var p = Path()
    for c in 0..<10 {
      p.move(to: Point(0, Double(c) * 20))
      for i in 1...1000 { p.line(to: Point(Double(i) * 0.7, Double(c) * 20 + sin(Double(i) * 0.3) * 4)) }
    }
    let o = strokeOutline(p, style: StrokeStyle(width: 3, join: .round, cap: .round))
    #expect(o.contours.count == 10)
    #expect(o.points.count < p.points.count * 8)
    #expect(!o.points.contains { !$0.isFinite })
  }
}

/// `strokeOutlinePointBound` is an upper bound of what `strokeOutline`
/// makes, for every join, cap and width, on random open and closed paths,
/// and not far above it for round joins (so budgets do not refuse
/// ordinary lines).
@Suite struct StrokeBoundTests {
  @Test(arguments: [LineJoin.miter, .round, .bevel])
  func theBoundHoldsForRandomPaths(join: LineJoin) {
    var rng = SystemRandomNumberGenerator()
    for trial in 0..<60 {
      var path = Path()
      for _ in 0..<(1 + trial % 3) {
        let n = Int.random(in: 1...40, using: &rng)
        let pts = (0..<n).map { _ in Point(Double.random(in: -50...50, using: &rng), Double.random(in: -50...50, using: &rng)) }
        path.addContour(pts, closed: trial % 2 == 0)
      }
      for cap in [LineCap.butt, .round, .square] {
        for width in [0.5, 1, 3, 40, 400] {
          let style = StrokeStyle(width: width, join: join, cap: cap, miterLimit: 4)
          let made = strokeOutline(path, style: style, tolerance: 0.1).points.count
          let bound = strokeOutlinePointBound(path, style: style, tolerance: 0.1)
          #expect(bound >= made, "\(join) \(cap) width \(width): bound \(bound) < \(made)")
          // The budget check never passes an outline that is too big.
          #expect(!strokeOutlineFits(path, style: style, tolerance: 0.1, maxPoints: made - 1))
          #expect(strokeOutlineFits(path, style: style, tolerance: 0.1, maxPoints: bound))
          if join == .round && width <= 3 { #expect(bound <= 4 * made + 400, "\(cap) width \(width): \(bound) vs \(made)") }
        }
      }
    }
  }
}
