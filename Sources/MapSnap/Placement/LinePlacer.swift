internal import _MapSnapRaster

/// Where a label along a line (`"placement": "line"`) can go, as MapLibre
/// places road names. All in device pixels.
///
/// 1. **Visible runs.** Each line (a line's part, a polygon's ring) is cut
///    to the image: the label follows only the visible part of the line.
/// 2. **Repetitions.** A run of length L holds the text (width W) at
///    n = max(1, ⌊L / spacing⌋) places, their centres evenly spread:
///    L · (i + ½) / n, so one label sits in the middle of the run and more
///    come about `spacing` apart. A run shorter than W holds none.
/// 3. **Alternatives.** At each place the text is tried centred there, then
///    shifted by W/2 forward and back, then by W; a shift that leaves the
///    run is not tried. Each is an alternative for the collision test, in
///    that order (as a point label's anchors are).
/// 4. **Glyphs.** Each glyph sits with the middle of its advance on the
///    line at its distance along it, turned with the line's segment there,
///    the text's vertical middle (half its line height) on the line. Text
///    reads left to right: when the text's end would lie left of its start,
///    the line is read backwards, so no label is upside down.
/// 5. **Angles.** An alternative where two neighbouring glyphs turn by more
///    than `maxAngle` is not tried.
/// 6. **Boxes.** Collision is per glyph: each glyph's box is the bounding
///    box of its turned advance × line height, grown by the halo.
struct LinePlacer {
  let block: TextBlock
  let frame: Rect
  /// Device pixels between repetitions.
  let spacing: Double
  /// Degrees.
  let maxAngle: Double
  /// Device pixels.
  let halo: Double

  /// One way to place the text at a place: each glyph's pose, its box, and
  /// the union of the boxes.
  struct Alternative {
    var poses: [GlyphPose]
    var boxes: [Rect]
    var union: Rect
  }

  /// Why a line yields no place.
  enum NoPlace {
    /// No part of the line is in the image.
    case outOfBounds
    /// Every visible run is shorter than the text.
    case tooShort
    /// Runs were long enough, but at every place glyphs would turn too much.
    case tooCurved
  }

  /// The places along `lines` (device pixels), each with its alternatives
  /// (never empty), or why there is none; at most `limit` places, the first
  /// in line order (what the frame's text budget allows: each repetition
  /// is text laid out).
  func places(along lines: [[Point]], limit: Int = .max) -> Result<[[Alternative]], NoPlaceError> {
    var out: [[Alternative]] = []
    var sawRun = false
    var sawLongRun = false
    let width = block.width
    for line in lines {
      for run in Self.visibleRuns(line, in: frame) {
        sawRun = true
        let along = Polyline(run)
        guard along.length >= width, width > 0 else { continue }
        sawLongRun = true
        let n = max(1, Int((along.length / spacing).rounded(.down)))
        for i in 0..<n where out.count < limit {
          let centre = along.length * (Double(i) + 0.5) / Double(n)
          var alternatives: [Alternative] = []
          var starts: [Double] = []
          for shift in [0, 0.5, -0.5, 1, -1] {
            let start = centre + shift * width - width / 2
            guard start >= -1e-9, start + width <= along.length + 1e-9 else { continue }
            if starts.contains(where: { abs($0 - start) < 1e-9 }) { continue }
            starts.append(start)
            if let a = alternative(on: along, from: max(0, min(start, along.length - width))) { alternatives.append(a) }
          }
          if !alternatives.isEmpty { out.append(alternatives) }
        }
      }
    }
    if out.isEmpty {
      return .failure(NoPlaceError(reason: !sawRun ? .outOfBounds : !sawLongRun ? .tooShort : .tooCurved))
    }
    return .success(out)
  }

  struct NoPlaceError: Error {
    var reason: NoPlace
  }

  /// The text from distance `start` along `line` (rule 4–6), or nil when
  /// glyphs would turn too much.
  private func alternative(on line: Polyline, from start: Double) -> Alternative? {
    var line = line
    var start = start
    let width = block.width
    // Rule 4: read backwards when the text would run right to left.
    if line.point(at: start + width).x < line.point(at: start).x {
      line = line.reversed()
      start = line.length - start - width
    }
    let middle = block.lineHeight / 2
    var poses: [GlyphPose] = []
    var boxes: [Rect] = []
    poses.reserveCapacity(block.glyphs.count)
    var lastAngle: Double? = nil
    var union = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    for g in block.glyphs {
      let (p, dir) = line.pointAndDirection(at: start + g.x + g.advance / 2)
      if g.advance > 0 {
        let angle = atan2(dir.y, dir.x) * 180 / .pi
        if let lastAngle {
          var turn = abs(angle - lastAngle).truncatingRemainder(dividingBy: 360)
          if turn > 180 { turn = 360 - turn }
          if turn > maxAngle { return nil }
        }
        lastAngle = angle
      }
      // The glyph's anchor, relative to its origin: the middle of its
      // advance, on the text's vertical middle.
      let anchor = Point(g.advance / 2, middle - g.y)
      var pose = GlyphPose(origin: p, cos: dir.x, sin: dir.y)
      let turned = pose.apply(anchor)
      pose.origin = Point(p.x - (turned.x - p.x), p.y - (turned.y - p.y))
      poses.append(pose)
      guard g.advance > 0 else { continue }
      let corners = [Point(0, -g.y), Point(g.advance, -g.y), Point(0, block.lineHeight - g.y), Point(g.advance, block.lineHeight - g.y)]
        .map(pose.apply)
      var box = Rect(
        minX: corners.map(\.x).min()! - halo, minY: corners.map(\.y).min()! - halo, maxX: corners.map(\.x).max()! + halo,
        maxY: corners.map(\.y).max()! + halo)
      if !box.minX.isFinite || !box.maxX.isFinite { box = Rect(minX: 0, minY: 0, maxX: 0, maxY: 0) }
      boxes.append(box)
      union = Rect(
        minX: min(union.minX, box.minX), minY: min(union.minY, box.minY), maxX: max(union.maxX, box.maxX), maxY: max(union.maxY, box.maxY))
    }
    guard !boxes.isEmpty else { return nil }
    return Alternative(poses: poses, boxes: boxes, union: union)
  }

  /// Rule 1: the parts of `line` inside `frame`, each as a polyline of at
  /// least two points (segments cut where they cross the frame's edges).
  static func visibleRuns(_ line: [Point], in frame: Rect) -> [[Point]] {
    var runs: [[Point]] = []
    var current: [Point] = []
    for i in 1..<max(1, line.count) {
      guard let (a, b) = clip(line[i - 1], line[i], to: frame) else {
        if current.count >= 2 { runs.append(current) }
        current = []
        continue
      }
      if let last = current.last, last == a {
        current.append(b)
      } else {
        if current.count >= 2 { runs.append(current) }
        current = [a, b]
      }
      // A segment cut at its end leaves the frame: the run ends there.
      if b != line[i] {
        runs.append(current)
        current = []
      }
    }
    if current.count >= 2 { runs.append(current) }
    return runs
  }

  /// Liang–Barsky: the part of segment a–b inside `r`, or nil.
  private static func clip(_ a: Point, _ b: Point, to r: Rect) -> (Point, Point)? {
    guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
    var t0 = 0.0
    var t1 = 1.0
    let dx = b.x - a.x
    let dy = b.y - a.y
    for (p, q) in [(-dx, a.x - r.minX), (dx, r.maxX - a.x), (-dy, a.y - r.minY), (dy, r.maxY - a.y)] {
      if p == 0 {
        if q < 0 { return nil }
      } else {
        let t = q / p
        if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
      }
    }
    guard t0 < t1 else { return nil }
    let start = t0 == 0 ? a : Point(a.x + dx * t0, a.y + dy * t0)
    let end = t1 == 1 ? b : Point(a.x + dx * t1, a.y + dy * t1)
    return (start, end)
  }
}

/// A polyline measured along its length.
private struct Polyline {
  var points: [Point]
  /// Distance from the start to each point.
  var distances: [Double]

  init(_ points: [Point]) {
    self.points = points
    distances = [0]
    distances.reserveCapacity(points.count)
    for i in 1..<points.count { distances.append(distances[i - 1] + (points[i] - points[i - 1]).length) }
  }

  var length: Double { distances.last ?? 0 }

  func reversed() -> Polyline { Polyline(points.reversed()) }

  func point(at d: Double) -> Point { pointAndDirection(at: d).0 }

  /// The point at distance `d` (clamped to the line) and the unit direction
  /// of the segment it lies on (skipping segments of no length).
  func pointAndDirection(at d: Double) -> (Point, Point) {
    let d = min(max(d, 0), length)
    // The segment holding d: the last i with distances[i] <= d.
    var lo = 0
    var hi = distances.count - 1
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if distances[mid] <= d { lo = mid } else { hi = mid }
    }
    var i = lo
    while i + 1 < points.count - 1 && distances[i + 1] - distances[i] <= 0 { i += 1 }
    let a = points[i]
    let b = points[min(i + 1, points.count - 1)]
    let seg = distances[min(i + 1, distances.count - 1)] - distances[i]
    guard seg > 0 else { return (a, Point(1, 0)) }
    let t = (d - distances[i]) / seg
    let dir = Point((b.x - a.x) / seg, (b.y - a.y) / seg)
    return (Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), dir)
  }
}

#if canImport(Glibc)
  import Glibc
#endif
