#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The outline of `path` stroked with `style`, as closed contours to be filled
/// with the NONZERO rule.
///
/// Guarantees:
/// - The covered area is the union of one quad per segment, one wedge per
///   join on the outer side of each turn, the caps and the dots. Every one of
///   those pieces is wound the same way (clockwise on screen, positive signed
///   area in device coordinates), so overlaps — self-crossing lines, short
///   segments at sharp turns, 180° reversals, several contours — never
///   cancel: the winding is nonzero exactly on the stroke area.
/// - An open contour gives one closed outline: left offset forward, end cap,
///   right offset backward, start cap. A closed contour gives two loops wound
///   opposite ways (no caps, a join at every vertex including the first), so
///   a simple ring has winding ±1 and its hole 0.
/// - Non-finite points are skipped and points within 1/512 px of the point
///   kept before them are merged into it (`DevicePrecision.merge`), which
///   moves the line by less than the rasteriser's rounding. (Map geometry
///   has been reduced further before it gets here:
///   `DevicePrecision.reduceVertices`.)
/// - Inner side of a turn by θ between segments of lengths `a` and `b`: when
///   `halfWidth × max(sin θ, tan(θ/2)) ≤ min(a, b)` the two offset lines
///   meet inside both segments' quads and the outline takes their
///   intersection (one point); otherwise it goes through the vertex itself
///   (offset end of one segment → vertex → offset start of the next, three
///   points), which keeps short segments at sharp turns covered. Both cover
///   the same area (the intersection only leaves out a kite that both quads
///   cover); on a closed contour the first vertex always goes through the
///   vertex, so some part of the ring keeps every kite covered twice.
/// - Outer side: a `.miter` join within the miter limit is its miter point
///   alone (the offset edges extended until they meet); beyond the limit,
///   and for `.bevel`, a chord between the two offset corners. A `.round`
///   join is an arc of `Flattening.arcSegments` chords (vertices on the
///   circle, chord error at most `tolerance`), or, when its miter point lies
///   within `tolerance` of the arc (`halfWidth × (sec(t/2) − 1) ≤ tolerance`
///   for a turn t), that one point: as close to the arc as a chord is
///   allowed to be, outside it where a chord is inside, with half a chord's
///   area error; a turn that fits in one chord otherwise is a bevel. A bevel
///   whose miter point lies within 1/512 px (`DevicePrecision.tolerance`) of
///   it is drawn as that miter point (one point instead of two).
/// - A 180° reversal gets a half-disc turn with `.round` and a flat (bevel) end
///   with `.miter` and `.bevel`.
/// - A contour that is a single point after merging (or has zero length)
///   draws a disc of diameter `width` with `.round` caps, an axis-aligned
///   square of side `width` with `.square` caps and nothing with `.butt`
///   (SVG's rule). Round caps and dots follow the same arc rule as joins. A
///   non-finite or non-positive width gives an empty path.
public func strokeOutline(_ path: Path, style: StrokeStyle, tolerance: Double = Flattening.tolerance) -> Path {
  let measures = StrokeMeasures(style: style, tolerance: tolerance)
  var out = Path()
  guard measures.halfWidth > 0, !path.points.isEmpty else { return out }
  out.points.reserveCapacity(path.points.count * 4 + 32)
  out.contours.reserveCapacity(path.contours.count * 2)
  return strokeOutline(path, measures: measures, into: out)
}

/// Where the stroker puts each closed loop of an outline as it completes
/// it: a `Path`, or a display list's edges (`DisplayList.fillStroke`), so
/// that a stroke's outline need not be held whole.
protocol OutlineLoopSink {
  /// Takes one closed loop of at least three points; `loop` is valid only
  /// during the call.
  mutating func add(loop: UnsafeBufferPointer<Point>)
}

extension Path: OutlineLoopSink {
  mutating func add(loop: UnsafeBufferPointer<Point>) {
    contours.append(Contour(start: points.count, count: loop.count, isClosed: true))
    points.append(contentsOf: loop)
  }
}

/// `strokeOutline(path, style:, tolerance:)`, its loops handed to `sink`
/// in the order that function's path holds them; the sink after. (Taken
/// and given back rather than `inout`: the builder holds the only
/// reference, so a `Path` sink grows in the room reserved for it.)
func strokeOutline<Sink: OutlineLoopSink>(_ path: Path, style: StrokeStyle, tolerance: Double, into sink: consuming Sink) -> Sink {
  strokeOutline(path, measures: StrokeMeasures(style: style, tolerance: tolerance), into: sink)
}

private func strokeOutline<Sink: OutlineLoopSink>(_ path: Path, measures: StrokeMeasures, into sink: consuming Sink) -> Sink {
  var builder = OutlineBuilder(measures, sink: sink)
  guard measures.halfWidth > 0, !path.points.isEmpty else { return builder.out }
  let count = path.points.count
  path.points.withUnsafeBufferPointer { src in
    let base = src.baseAddress!
    for c in path.contours where c.start >= 0 && c.count > 0 && c.start + c.count <= count {
      builder.stroke(base + c.start, count: c.count, closed: c.isClosed)
    }
  }
  builder.release()
  return builder.out
}

/// At least as many points as `strokeOutline(path, style:, tolerance:)`
/// makes, computed without making them (for budgets), in one pass over the
/// points: per vertex, three points on each side, and for a round join the
/// arc of its own turn; per contour, two caps and a dot. Merging keeps a
/// subset of the vertices, whose total turning is no larger, so the arcs of
/// the merged line fit in this count.
public func strokeOutlinePointBound(_ path: Path, style: StrokeStyle, tolerance: Double = Flattening.tolerance) -> Int {
  let m = StrokeMeasures(style: style, tolerance: tolerance)
  guard m.halfWidth > 0 else { return 0 }
  let halfTurn = m.halfTurnPoints
  var total = path.points.count * 6 + path.contours.count * m.contourPoints
  guard m.join == .round else { return total }
  let cosStep = m.cosArcStep
  let step = m.arcStep
  let count = path.points.count
  path.points.withUnsafeBufferPointer { src in
    for c in path.contours where c.count > 2 && c.start >= 0 && c.start + c.count <= count {
      // Walk the finite points, skipping zero-length segments, and add one
      // arc per turn (for a closed contour, around the closing vertices too).
      var a = Point(0, 0)
      var d0 = Point(0, 0)
      var have = 0  // 0: no point yet, 1: a point, 2: a point and a direction
      let n = c.isClosed ? c.count + 2 : c.count
      for i in 0..<n {
        let p = src[c.start + (i < c.count ? i : i - c.count)]
        guard p.isFinite else { continue }
        if have == 0 {
          a = p
          have = 1
          continue
        }
        let d1 = p - a
        if d1.x == 0 && d1.y == 0 { continue }
        if have == 2 {
          let dot = d0.dot(d1)
          if dot >= cosStep * (d0.dot(d0) * d1.dot(d1)).squareRoot() {
            total += 2
          } else {
            let turn = atan2(abs(d0.cross(d1)), dot)
            total += turn.isFinite ? Int((turn / step).rounded(.up)) + 1 : halfTurn
          }
        }
        a = p
        d0 = d1
        have = 2
      }
    }
  }
  return total
}

/// True when `strokeOutline(path, style:, tolerance:)` makes at most
/// `maxPoints` points: from the point count alone when even the most any
/// vertex can cost (`strokeOutlinePointBound` with every turn a half turn)
/// fits, otherwise from `strokeOutlinePointBound`.
public func strokeOutlineFits(_ path: Path, style: StrokeStyle, tolerance: Double = Flattening.tolerance, maxPoints: Int) -> Bool {
  let m = StrokeMeasures(style: style, tolerance: tolerance)
  guard m.halfWidth > 0 else { return true }
  let perPoint = 6 + (m.join == .round ? m.halfTurnPoints : 0)
  let worst = path.points.count.multipliedReportingOverflow(by: perPoint)
  if !worst.overflow && worst.partialValue + path.contours.count * m.contourPoints <= maxPoints { return true }
  return strokeOutlinePointBound(path, style: style, tolerance: tolerance) <= maxPoints
}

/// What a stroke's style and tolerance decide before any point is made,
/// for the stroker (`OutlineBuilder`) and for the budgets that count its
/// points without making them (`strokeOutlinePointBound`,
/// `strokeOutlineFits`): each rule written once.
struct StrokeMeasures {
  /// Half the width; 0 for a non-finite or non-positive width (nothing is
  /// drawn).
  let halfWidth: Double
  let join: LineJoin
  let cap: LineCap
  let miterLimit: Double
  /// Largest angle one flattened arc segment may span (`Flattening.arcStep`).
  let arcStep: Double
  /// cos(`arcStep`): a turn whose cosine is at least this fits in one chord.
  let cosArcStep: Double
  /// A round join whose turn's cosine is at least this is drawn as its
  /// miter point (within `tolerance` of the arc).
  let cosMiterRound: Double
  /// Points of the flattened half turn (a round cap, a reversal's turn).
  let halfTurnPoints: Int

  init(style: StrokeStyle, tolerance: Double) {
    let hw = style.width.isFinite && style.width > 0 ? style.width / 2 : 0
    halfWidth = hw
    join = style.join
    cap = style.cap
    miterLimit = style.miterLimit
    arcStep = Flattening.arcStep(radius: hw, tolerance: tolerance)
    cosArcStep = arcStep >= .pi ? -2 : cos(arcStep)
    // The miter point of a turn t is halfWidth / cos(t/2) from the vertex:
    // within `tolerance` of the arc when cos²(t/2) = (1 + dt) / 2 ≥ q².
    let tol = tolerance.isFinite && tolerance > 0 ? tolerance : Flattening.tolerance
    let q = hw / (hw + tol)
    cosMiterRound = 2 * q * q - 1
    halfTurnPoints = Flattening.arcSegments(sweep: .pi, radius: hw, tolerance: tolerance) + 1
  }

  /// The most points a contour adds beyond its vertices' own: two caps (a
  /// cap's turn and two points) and a dot (two half turns).
  var contourPoints: Int { 2 * ((cap == .round ? halfTurnPoints : 2) + 2) + 2 * halfTurnPoints }
}

/// Builds the stroke outline of one contour at a time. `points`, `directions`
/// and `lengths` are the merged contour and its segments, and `loop` the
/// outline loop being made (handed to `out` when it is done), all reused
/// across contours: grown as needed, freed by `release`.
private struct OutlineBuilder<Sink: OutlineLoopSink> {
  var out: Sink
  /// What the style decides (`StrokeMeasures`).
  let measures: StrokeMeasures
  private var points: UnsafeMutablePointer<Point>? = nil
  private var directions: UnsafeMutablePointer<Point>? = nil
  private var lengths: UnsafeMutablePointer<Double>? = nil
  private var capacity = 0
  private var loop: UnsafeMutablePointer<Point>? = nil
  private var loopCount = 0
  private var loopCapacity = 0

  init(_ measures: StrokeMeasures, sink: Sink) {
    out = sink
    self.measures = measures
  }

  mutating func release() {
    releaseContour()
    loop?.deallocate()
    loop = nil
    loopCapacity = 0
  }

  private mutating func releaseContour() {
    points?.deallocate()
    directions?.deallocate()
    lengths?.deallocate()
    points = nil
    directions = nil
    lengths = nil
    capacity = 0
  }

  /// Makes room for `n` more points in `loop` at once (`emit` grows it too).
  @inline(__always) private mutating func ensure(_ n: Int) {
    if loopCount + n > loopCapacity { grow(loopCount + n) }
  }

  private mutating func grow(_ needed: Int) {
    let newCapacity = max(needed, loopCapacity * 2, 256)
    let bigger = UnsafeMutablePointer<Point>.allocate(capacity: newCapacity)
    if let old = loop {
      bigger.moveInitialize(from: old, count: loopCount)
      old.deallocate()
    }
    loop = bigger
    loopCapacity = newCapacity
  }

  private mutating func reserve(_ n: Int) {
    guard n > capacity else { return }
    releaseContour()
    capacity = max(n, 64)
    points = .allocate(capacity: capacity)
    directions = .allocate(capacity: capacity)
    lengths = .allocate(capacity: capacity)
  }

  mutating func stroke(_ src: UnsafePointer<Point>, count: Int, closed: Bool) {
    reserve(count)
    guard let pts = points, let dirs = directions, let lens = lengths else { return }
    let m = DevicePrecision.merge(src, count: count, closed: closed, into: pts)
    if m == 0 { return }
    if m == 1 {
      dot(pts[0])
      return
    }
    // Consecutive merged points are more than 1/512 px apart: every length is positive.
    let segments = closed ? m : m - 1
    for k in 0..<segments {
      let d = pts[k + 1 == m ? 0 : k + 1] - pts[k]
      let len = d.length
      lens[k] = len
      dirs[k] = d * (1 / len)
    }
    // Per vertex at most three points a side besides arcs; two caps of two.
    if closed {
      begin(3 * m)
      for k in 0..<m {
        let i = k == 0 ? m - 1 : k - 1
        joinAt(pts[k], dirs[i], dirs[k], lens[i], lens[k], firstPass: true, shortcut: k != 0)
      }
      end()
      begin(3 * m)
      var k = m - 1
      while k >= 0 {
        let i = k == 0 ? m - 1 : k - 1
        joinAt(pts[k], -dirs[k], -dirs[i], lens[k], lens[i], firstPass: false, shortcut: k != 0)
        k -= 1
      }
      end()
    } else {
      begin(6 * m + 4)
      emit(pts[0] + normal(dirs[0]))
      for k in 1..<(m - 1) {
        joinAt(pts[k], dirs[k - 1], dirs[k], lens[k - 1], lens[k], firstPass: true, shortcut: true)
      }
      emit(pts[m - 1] + normal(dirs[m - 2]))
      capAt(pts[m - 1], dirs[m - 2])
      emit(pts[m - 1] + normal(-dirs[m - 2]))
      var k = m - 2
      while k >= 1 {
        joinAt(pts[k], -dirs[k], -dirs[k - 1], lens[k], lens[k - 1], firstPass: false, shortcut: true)
        k -= 1
      }
      emit(pts[0] + normal(-dirs[0]))
      capAt(pts[0], -dirs[0])
      end()
    }
  }

  // MARK: Contours

  /// Starts a loop of about `points` points.
  private mutating func begin(_ points: Int) {
    loopCount = 0
    ensure(points)
  }

  private mutating func end() {
    guard loopCount >= 3, let loop else { return }
    out.add(loop: UnsafeBufferPointer(start: loop, count: loopCount))
  }

  /// Appends `p` to the loop.
  @inline(__always) private mutating func emit(_ p: Point) {
    if loopCount == loopCapacity { grow(loopCount + 1) }
    loop.unsafelyUnwrapped[loopCount] = p
    loopCount += 1
  }

  /// The left offset (on screen, y down) of unit direction `d`, scaled to half the width.
  @inline(__always) private func normal(_ d: Point) -> Point {
    Point(d.y * measures.halfWidth, -d.x * measures.halfWidth)
  }

  // MARK: Joins, caps, dots

  /// Emits the left side of the turn at `v` from the segment of unit
  /// direction `d0` and length `l0` into the one of `d1` and `l1`: from
  /// `v + normal(d0)` to `v + normal(d1)`, or the point that stands for both
  /// (see `strokeOutline` for the rules). An exact 180° reversal gets its
  /// outer turn on the first pass only (the second is the inner side).
  /// `shortcut`: the inner side may take the offset lines' intersection.
  @inline(__always)
  private mutating func joinAt(
    _ v: Point, _ d0: Point, _ d1: Point, _ l0: Double, _ l1: Double, firstPass: Bool, shortcut: Bool
  ) {
    let c = d0.cross(d1)
    let dt = d0.dot(d1)
    let n0 = normal(d0)
    let n1 = normal(d1)
    if c == 0 && dt > 0 {  // straight on: nothing to join
      emit(v + n1)
      return
    }
    if !(c > 0 || (c == 0 && firstPass)) {
      // Inner side. |c| = sin θ and |c| / (1 + dt) = tan(θ/2).
      if shortcut && measures.halfWidth * abs(c) <= min(l0, l1) * min(1, 1 + dt) && 1 + dt > 0 {
        emit(v + (n0 + n1) * (1 / (1 + dt)))
      } else {
        emit(v + n0)
        emit(v)
        emit(v + n1)
      }
      return
    }
    switch measures.join {
    case .miter:
      // cos(turn / 2) = sin(θ / 2) where θ is the angle between the segments.
      let cosHalf = ((1 + dt) / 2).squareRoot()
      if cosHalf * measures.miterLimit >= 1 {
        emit(v + (n0 + n1) * (1 / (1 + dt)))
        return
      }
    case .round:
      if dt < measures.cosArcStep {
        emit(v + n0)
        arc(around: v, from: n0, sweep: atan2(abs(c), dt))
        emit(v + n1)
        return
      }
      if dt >= measures.cosMiterRound {
        emit(v + (n0 + n1) * (1 / (1 + dt)))
        return
      }
    case .bevel:
      break
    }
    // One chord. Its miter point is halfWidth × (sec(t/2) − cos(t/2)) =
    // halfWidth × ((1 − dt) / 2) / cos(t/2) from it, t the turn.
    let e = measures.halfWidth * (1 - dt) / 2
    let p = DevicePrecision.tolerance
    if e * e <= p * p * ((1 + dt) / 2) {
      emit(v + (n0 + n1) * (1 / (1 + dt)))
    } else {
      emit(v + n0)
      emit(v + n1)
    }
  }

  /// Emits the cap at end point `p` of a walk heading along unit `d`, between
  /// `p + normal(d)` (already emitted) and `p - normal(d)` (emitted next).
  private mutating func capAt(_ p: Point, _ d: Point) {
    let n = normal(d)
    switch measures.cap {
    case .butt:
      break
    case .square:
      let e = d * measures.halfWidth
      emit(p + n + e)
      emit(p - n + e)
    case .round:
      arc(around: p, from: n, sweep: .pi)
    }
  }

  private mutating func dot(_ p: Point) {
    let h = measures.halfWidth
    switch measures.cap {
    case .butt:
      return
    case .square:
      begin(4)
      emit(Point(p.x - h, p.y - h)); emit(Point(p.x + h, p.y - h))
      emit(Point(p.x + h, p.y + h)); emit(Point(p.x - h, p.y + h))
      end()
    case .round:
      begin(1)
      emit(Point(p.x + h, p.y))
      arc(around: p, from: Point(h, 0), sweep: 2 * .pi)
      end()
    }
  }

  /// Emits the interior vertices of the arc that starts at `center + r0` and
  /// turns clockwise on screen by `sweep` radians, in
  /// `Flattening.arcSegments` equal steps (the end point is not emitted).
  private mutating func arc(around center: Point, from r0: Point, sweep: Double) {
    let steps = (sweep / measures.arcStep).rounded(.up)
    guard steps > 1, steps <= Flattening.maxSegmentsPerCircle else { return }  // also rejects NaN
    let k = Int(steps)
    ensure(k)
    let b = sweep / Double(k)
    let cs = cos(b)
    let sn = sin(b)
    var r = r0
    for _ in 1..<k {
      r = Point(r.x * cs - r.y * sn, r.x * sn + r.y * cs)
      emit(center + r)
    }
  }
}

extension Point {
  @inline(__always) fileprivate static prefix func - (p: Point) -> Point { Point(-p.x, -p.y) }
}
