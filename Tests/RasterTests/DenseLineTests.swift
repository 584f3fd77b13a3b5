import Foundation
import Testing
import _MapSnapRaster

/// A line like a detailed coastline drawn small (nyc-250000 has 76,063
/// vertices, median 0.07 px apart, median turn 9°): `count` vertices
/// 0.02–0.3 px apart whose heading wanders by a normal step of `sigma`
/// degrees per vertex, from the middle of a 1200 × 1200 frame.
private func coastline(count: Int, sigma: Double = 12, seed: UInt64 = 7) -> [Point] {
  var s = seed
  func rnd() -> Double {
    s = s &* 6364136223846793005 &+ 1442695040888963407
    return (Double(s >> 11) + 0.5) / Double(1 << 53)
  }
  var pts = [Point(600, 600)]
  var heading = 0.0
  for _ in 1..<count {
    heading += sigma * .pi / 180 * (-2 * log(rnd())).squareRoot() * cos(2 * .pi * rnd())
    let step = 0.02 + 0.28 * rnd()
    pts.append(pts[pts.count - 1] + Point(cos(heading), sin(heading)) * step)
  }
  return pts
}

private func ring(_ pts: [Point], closed: Bool = true) -> Path {
  var p = Path()
  p.addContour(pts, closed: closed)
  return p
}

/// Every pixel of the fills of `paths` (each with its rule) in opaque black.
private func render(_ fills: [(Path, FillRule)], width: Int = 1200, height: Int = 1200) -> [UInt32] {
  var list = DisplayList(width: width, height: height, background: .transparent)
  for (p, rule) in fills { list.fill(p, rule: rule, color: .black) }
  let canvas = Canvas(width: width, height: height)
  TileRenderer.render(list, into: canvas, options: .init(threads: 1, tileRows: 16))
  return Array(canvas.buffer)
}

/// Issue 13, dense lines: vertex reduction to the rasteriser's precision,
/// join shortcuts and the arc rule keep a 1-px outline of a dense ring under
/// four edges per input vertex, and change nothing the rasteriser can show.
@Suite struct DenseLineTests {
  /// The nyc-250000 case in small: fill (even-odd) and a 1-px round-joined
  /// outline of a ring of 4,000 vertices about 0.16 px apart make fewer than
  /// 4 edges per input vertex (3.7; nyc-250000 made 5.95 before issue 13).
  @Test func onePixelOutlineOfADenseRingStaysUnderFourEdgesPerVertex() {
    let pts = coastline(count: 4000)
    var rings = ring(pts)
    DevicePrecision.reduceVertices(&rings)
    var list = DisplayList(width: 1200, height: 1200, background: .transparent)
    list.fill(rings, rule: .evenOdd, color: .white)
    let outline = strokeOutline(rings, style: StrokeStyle(width: 1, join: .round, cap: .round))
    list.fill(outline, rule: .nonZero, color: .black)
    let perVertex = Double(list.edgeCount) / Double(pts.count)
    #expect(perVertex < 4, "\(list.edgeCount) edges for \(pts.count) vertices")
    #expect(outline.points.count <= strokeOutlinePointBound(rings, style: StrokeStyle(width: 1, join: .round, cap: .round)))
  }

  /// Reduction keeps the ends, keeps every vertex that matters, and moves
  /// nothing by more than `DevicePrecision.tolerance`.
  @Test func reductionStaysWithinTheTolerance() {
    let pts = coastline(count: 3000, sigma: 3)
    var p = ring(pts, closed: false)
    DevicePrecision.reduceVertices(&p)
    #expect(p.points.count < pts.count)
    #expect(p.points.first == pts.first && p.points.last == pts.last)
    // The kept points are input points, in order; every dropped point lies
    // within the tolerance of the chord that replaced it.
    var worst = 0.0
    var j = 0
    for q in pts {
      if j + 1 < p.points.count && q == p.points[j + 1] {
        j += 1
        continue
      }
      guard j + 1 < p.points.count else { break }
      let a = p.points[j]
      let d = p.points[j + 1] - a
      let t = max(0, min(1, (q - a).dot(d) / d.dot(d)))
      worst = max(worst, (q - (a + d * t)).length)
    }
    #expect(j == p.points.count - 1)
    #expect(worst <= DevicePrecision.tolerance * (1 + 1e-9))
    // Collinear and duplicate points all go; a real corner stays.
    var line = ring([Point(0, 0), Point(1, 0), Point(1, 0), Point(2, 1e-4), Point(3, 0), Point(3, 5)], closed: false)
    DevicePrecision.reduceVertices(&line)
    #expect(line.points == [Point(0, 0), Point(3, 0), Point(3, 5)])
    var nothing = ring([Point(.nan, 0)])
    DevicePrecision.reduceVertices(&nothing)
    #expect(nothing.isEmpty && nothing.points.isEmpty)
  }

  /// Sub-precision jitter: points within 1/1024 px of the vertex before them
  /// are merged by the stroker (the outline is the same path) and a fill of
  /// a reduced jittered ring is the same edges, so both render byte for byte
  /// as the clean line does.
  @Test func subPrecisionJitterRendersByteIdentical() {
    // Vertices on the 1/256 px grid, so jitter below half a step rounds back onto them.
    let base = (0..<40).map { k -> Point in
      let a = Double(k) * 2 * .pi / 40
      return Point(((100 + 70 * cos(a)) * 256).rounded() / 256, ((100 + 50 * sin(3 * a)) * 256).rounded() / 256)
    }
    var jittered: [Point] = []
    for (k, b) in base.enumerated() {
      jittered.append(b)
      for j in 1...3 {
        let a = Double(k * 3 + j)
        jittered.append(b + Point(cos(a), sin(a)) * (1.0 / 1024 * Double(j) / 3))
      }
    }
    for join in LineJoin.allCases {
      for width in [1.0, 3, 8] {
        let style = StrokeStyle(width: width, join: join, cap: .round)
        for closed in [true, false] {
          let clean = strokeOutline(ring(base, closed: closed), style: style)
          let noisy = strokeOutline(ring(jittered, closed: closed), style: style)
          #expect(clean == noisy, "\(join) width \(width) closed \(closed)")
          #expect(render([(clean, .nonZero)]) == render([(noisy, .nonZero)]))
        }
      }
    }
    var reduced = ring(jittered)
    DevicePrecision.reduceVertices(&reduced)
    #expect(render([(ring(base), .evenOdd)]) == render([(reduced, .evenOdd)]))
    #expect(render([(ring(base), .nonZero)]) == render([(reduced, .nonZero)]))
  }

  /// The arc rule: ceil(θ / (2·acos(1 − tolerance / r))) chords for an arc
  /// of θ at radius r, with no minimum per circle: a 1-px stroke's round
  /// join needs no arc below a 73.7° turn (and is one point below 67°).
  @Test(arguments: [1.0, 2, 3, 5, 10, 40, 400])
  func arcSegmentsFollowTheToleranceRule(width: Double) {
    let r = width / 2
    let tol = Flattening.tolerance
    let step = tol >= 2 * r ? 2 * Double.pi : 2 * acos(1 - tol / r)
    for degrees in [10.0, 45, 73, 90, 135, 180, 360] {
      let sweep = degrees * .pi / 180
      let expected = max(1, Int((sweep / step).rounded(.up)))
      #expect(Flattening.arcSegments(sweep: sweep, radius: r) == expected, "width \(width), \(degrees)°")
      // Every chord stays within the tolerance of the arc.
      let n = Double(Flattening.arcSegments(sweep: sweep, radius: r))
      #expect(r * (1 - cos(sweep / n / 2)) <= tol + 1e-12)
    }
    // A round cap is that many chords: the outline of a lone segment is its
    // two side edges plus the interior vertices of two half-turn arcs.
    let cap = Flattening.arcSegments(sweep: .pi, radius: r)
    let o = strokeOutline(ring([Point(10, 10), Point(50, 10)], closed: false), style: StrokeStyle(width: width, cap: .round))
    #expect(o.points.count == 4 + 2 * (cap - 1))
  }

  @Test func onePixelRoundJoinsNeedNoArcBelowTheStep() {
    #expect(Flattening.arcSegments(sweep: .pi / 2, radius: 0.5) == 2)
    #expect(Flattening.arcSegments(sweep: 70 * .pi / 180, radius: 0.5) == 1)
    #expect(Flattening.arcSegments(sweep: .pi, radius: 0.5) == 3)
    #expect(Flattening.arcSegments(sweep: 2 * .pi, radius: 0.5) == 5)
    #expect(Flattening.arcSegments(sweep: 2 * .pi, radius: 0.04) == 1)
    #expect(Flattening.arcSegments(sweep: 2 * .pi, radius: 1e9) == 4096)
    // A 1-px round-joined line turning by 60°: the miter point is
    // 0.5 × (sec 30° − 1) = 0.077 px from the arc, within the tolerance, so
    // the outer side is that one point; by 70° it is 0.11 px away and the
    // outer side is one chord (two points). The inner side is the offset
    // lines' intersection (one point) in both.
    for (degrees, outer) in [(60.0, 1), (70.0, 2)] {
      let a = degrees * .pi / 180
      let pts = [Point(10, 10), Point(30, 10), Point(30 + 20 * cos(a), 10 + 20 * sin(a))]
      let o = strokeOutline(ring(pts, closed: false), style: StrokeStyle(width: 1, join: .round, cap: .butt))
      #expect(o.points.count == 2 + outer + 2 + 1, "\(degrees)°")
    }
  }

  /// The join shortcuts keep the covered area: a gently curving 3-px line
  /// has one outline point per join on each side once the turns are below
  /// what 1/512 px allows, and covers what the line's rectangles cover.
  @Test func gentleCurveTakesOnePointPerJoinEachSide() {
    let pts = (0...200).map { k -> Point in
      let a = Double(k) / 200 * 0.05
      return Point(100 + 80 * sin(a), 180 - 80 * cos(a))
    }
    for join in LineJoin.allCases {
      let o = strokeOutline(ring(pts, closed: false), style: StrokeStyle(width: 3, join: join, cap: .butt))
      #expect(o.points.count == 2 * pts.count, "\(join): \(o.points.count)")
    }
  }
}
