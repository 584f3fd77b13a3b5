#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The outline of `path` stroked with `style`, as closed contours to be filled
/// with the NONZERO rule.
///
/// Guarantees:
/// - The result is the union of one quad per segment, one wedge per join on
///   the outer side of each turn, the caps and the dots. Every one of those
///   pieces is wound the same way (clockwise on screen, positive signed area
///   in device coordinates), so overlaps — self-crossing lines, short segments
///   at sharp turns, 180° reversals, several contours — never cancel: the
///   winding is nonzero exactly on the stroke area.
/// - An open contour gives one closed outline: left offset forward, end cap,
///   right offset backward, start cap. The inner side of every turn goes
///   through the vertex itself (offset end of one segment → vertex → offset
///   start of the next).
/// - A closed contour gives two loops wound opposite ways (no caps, a join at
///   every vertex including the first), so a simple ring has winding ±1 and its
///   hole 0.
/// - A 180° reversal gets a half-disc turn with `.round` and a flat (bevel) end
///   with `.miter` and `.bevel`.
/// - A contour that is a single point after cleaning (or has zero length) draws
///   a disc of diameter `width` with `.round` caps, an axis-aligned square of
///   side `width` with `.square` caps and nothing with `.butt` (SVG's rule).
/// - Non-finite points are skipped; consecutive points closer than 1e-4 px are
///   merged. Arcs (round joins, caps, dots) are flattened with vertices on the
///   circle and chord error at most `tolerance` (at least 8 segments per full
///   circle). A non-finite or non-positive width gives an empty path.
public func strokeOutline(_ path: Path, style: StrokeStyle, tolerance: Double = 0.1) -> Path {
  var builder = OutlineBuilder(style: style, tolerance: tolerance)
  guard builder.halfWidth > 0 else { return Path() }
  builder.out.points.reserveCapacity(path.points.count * 4 + 32)
  builder.out.contours.reserveCapacity(path.contours.count * 2)
  for c in path.contours {
    builder.stroke(path.points[c.start..<(c.start + c.count)], closed: c.isClosed)
  }
  return builder.out
}

/// At least as many points as `strokeOutline(path, style:, tolerance:)`
/// makes, computed without making them (for budgets), in one pass over the
/// points: per vertex, two offset points on each side, a miter or pivot
/// point, and for a round join the arc of its own turn; per contour, two
/// caps and a dot.
public func strokeOutlinePointBound(_ path: Path, style: StrokeStyle, tolerance: Double = 0.1) -> Int {
  let builder = OutlineBuilder(style: style, tolerance: tolerance)
  guard builder.halfWidth > 0 else { return 0 }
  let halfTurn = Int((Double.pi / builder.arcStep).rounded(.up)) + 1  // ≤ 2049: arcStep ≥ 2π/4096
  let cap = style.cap == .round ? halfTurn : 2
  var total = path.points.count * 6 + path.contours.count * (2 * (cap + 2) + 2 * halfTurn)
  guard style.join == .round else { return total }
  for c in path.contours where c.count > 2 {
    let pts = path.points[c.start..<(c.start + c.count)]
    var a = pts[pts.startIndex]
    var b = pts[pts.startIndex + 1]
    for p in pts.dropFirst(2) + (c.isClosed ? [pts[pts.startIndex], pts[pts.startIndex + 1]] : []) {
      let d0 = b - a
      let d1 = p - b
      let turn = atan2(abs(d0.cross(d1)), d0.dot(d1))
      total += turn.isFinite ? Int((turn / builder.arcStep).rounded(.up)) + 1 : halfTurn
      a = b
      b = p
    }
  }
  return total
}

/// Builds the stroke outline; `scratch` is the cleaned contour, reused.
private struct OutlineBuilder {
  var out = Path()
  let halfWidth: Double
  let join: LineJoin
  let cap: LineCap
  let miterLimit: Double
  /// Largest angle one flattened arc segment may span.
  let arcStep: Double
  private var scratch: [Point] = []
  private var contourStart = 0

  /// Points closer than this (in px) are treated as one.
  static let mergeDistance = 1e-4

  init(style: StrokeStyle, tolerance: Double) {
    let hw = style.width.isFinite && style.width > 0 ? style.width / 2 : 0
    halfWidth = hw
    join = style.join
    cap = style.cap
    miterLimit = style.miterLimit
    let tol = tolerance.isFinite && tolerance > 0 ? tolerance : 0.1
    var step = Double.pi / 4
    if tol < hw { step = min(step, 2 * acos(1 - tol / hw)) }
    arcStep = max(step, 2 * Double.pi / 4096)
  }

  mutating func stroke(_ pts: ArraySlice<Point>, closed: Bool) {
    clean(pts, closed: closed)
    let m = scratch.count
    if m == 0 { return }
    let pts = scratch  // shares storage; not mutated below
    if m == 1 {
      dot(pts[0])
    } else if closed {
      begin(); side(pts, reversed: false, closed: true); end()
      begin(); side(pts, reversed: true, closed: true); end()
    } else {
      begin()
      side(pts, reversed: false, closed: false)
      side(pts, reversed: true, closed: false)
      end()
    }
  }

  /// Copies the finite points of `pts` into `scratch`, merging near-duplicates
  /// (and, for a closed contour, a last point equal to the first).
  private mutating func clean(_ pts: ArraySlice<Point>, closed: Bool) {
    scratch.removeAll(keepingCapacity: true)
    let eps2 = Self.mergeDistance * Self.mergeDistance
    for p in pts where p.isFinite {
      if let last = scratch.last, dist2(last, p) <= eps2 { continue }
      scratch.append(p)
    }
    if closed, scratch.count > 1, dist2(scratch[0], scratch[scratch.count - 1]) <= eps2 {
      scratch.removeLast()
    }
  }

  // MARK: Contours

  private mutating func begin() { contourStart = out.points.count }

  private mutating func end() {
    let n = out.points.count - contourStart
    if n >= 3 {
      out.contours.append(Contour(start: contourStart, count: n, isClosed: true))
    } else {
      out.points.removeLast(n)
    }
  }

  @inline(__always) private mutating func emit(_ p: Point) { out.points.append(p) }

  /// The left offset (on screen, y down) of unit direction `d`, scaled to half the width.
  @inline(__always) private func normal(_ d: Point) -> Point {
    Point(d.y * halfWidth, -d.x * halfWidth)
  }

  /// Emits the left offset of `pts` walked forwards (or backwards when
  /// `reversed`), with a join at every interior vertex (every vertex when
  /// `closed`), and for an open walk the cap at its last point.
  private mutating func side(_ pts: [Point], reversed: Bool, closed: Bool) {
    let m = pts.count
    @inline(__always) func at(_ k: Int) -> Point { reversed ? pts[m - 1 - k] : pts[k] }
    if closed {
      var dPrev = unit(at(0) - at(m - 1))
      for k in 0..<m {
        let dNext = unit(at(k + 1 == m ? 0 : k + 1) - at(k))
        joinAt(at(k), dPrev, dNext, firstPass: !reversed)
        dPrev = dNext
      }
    } else {
      var dPrev = unit(at(1) - at(0))
      emit(at(0) + normal(dPrev))
      for k in 1..<(m - 1) {
        let dNext = unit(at(k + 1) - at(k))
        joinAt(at(k), dPrev, dNext, firstPass: !reversed)
        dPrev = dNext
      }
      let last = at(m - 1)
      emit(last + normal(dPrev))
      capAt(last, dPrev)
    }
  }

  // MARK: Joins, caps, dots

  /// Emits from `v + normal(d0)` to `v + normal(d1)`. An exact 180° reversal
  /// gets its outer turn on the first pass only (the second is the pivot).
  private mutating func joinAt(_ v: Point, _ d0: Point, _ d1: Point, firstPass: Bool) {
    let c = d0.cross(d1)
    let dt = d0.dot(d1)
    let n0 = normal(d0)
    let n1 = normal(d1)
    if dt > 0 && abs(c) * halfWidth <= 1e-6 {  // straight on: nothing to join
      emit(v + n1)
      return
    }
    let outer = c > 0 || (c == 0 && firstPass)
    emit(v + n0)
    if !outer {
      emit(v)
    } else {
      switch join {
      case .bevel:
        break
      case .miter:
        // cos(turn / 2) = sin(θ / 2) where θ is the angle between the segments.
        let cosHalf = ((1 + dt) / 2).squareRoot()
        if cosHalf * miterLimit >= 1 {
          emit(v + (n0 + n1) * (1 / (1 + dt)))
        }
      case .round:
        arc(around: v, from: n0, sweep: atan2(abs(c), dt))
      }
    }
    emit(v + n1)
  }

  /// Emits the cap at end point `p` of a walk heading along unit `d`, between
  /// `p + normal(d)` (already emitted) and `p - normal(d)` (emitted next).
  private mutating func capAt(_ p: Point, _ d: Point) {
    let n = normal(d)
    switch cap {
    case .butt:
      break
    case .square:
      let e = d * halfWidth
      emit(p + n + e)
      emit(p - n + e)
    case .round:
      arc(around: p, from: n, sweep: .pi)
    }
  }

  private mutating func dot(_ p: Point) {
    let h = halfWidth
    switch cap {
    case .butt:
      return
    case .square:
      begin()
      emit(Point(p.x - h, p.y - h)); emit(Point(p.x + h, p.y - h))
      emit(Point(p.x + h, p.y + h)); emit(Point(p.x - h, p.y + h))
      end()
    case .round:
      begin()
      emit(Point(p.x + h, p.y))
      arc(around: p, from: Point(h, 0), sweep: 2 * .pi)
      end()
    }
  }

  /// Emits the interior vertices of the arc that starts at `center + r0` and
  /// turns clockwise on screen by `sweep` radians (the end point is not emitted).
  private mutating func arc(around center: Point, from r0: Point, sweep: Double) {
    let steps = (sweep / arcStep).rounded(.up)
    guard steps > 1, steps <= 4096 else { return }  // also rejects NaN
    let k = Int(steps)
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

@inline(__always) private func dist2(_ a: Point, _ b: Point) -> Double {
  let d = a - b
  return d.dot(d)
}

@inline(__always) private func unit(_ v: Point) -> Point {
  v * (1 / v.length)
}
