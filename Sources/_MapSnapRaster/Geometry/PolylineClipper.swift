/// Cuts polylines to a rectangle before they are stroked, so that lines far
/// outside the frame cost nothing and never reach the fixed-point range.
///
/// Each visible run keeps the distance along the original line at which it
/// starts, so a dash pattern continues with the right phase across cuts.
public enum PolylineClipper {
  /// The parts of the polyline `pts` (closed when `closed`) inside `rect`,
  /// appended to `out` as open contours; `phases` receives each new contour's
  /// start distance along the original line. A closed polyline that lies
  /// wholly inside stays one closed contour.
  public static func clip(
    _ pts: ArraySlice<Point>, closed: Bool, to rect: Rect, into out: inout Path, phases: inout [Double]
  ) {
    guard let first = pts.first else { return }
    var bounds = Rect.empty
    for p in pts { bounds.include(p) }
    if bounds.isEmpty || !bounds.intersects(rect) { return }
    if bounds.minX >= rect.minX && bounds.maxX <= rect.maxX && bounds.minY >= rect.minY && bounds.maxY <= rect.maxY {
      out.addContour(pts, closed: closed)
      phases.append(0)
      return
    }
    var run: [Point] = []
    var runStart = 0.0
    var distance = 0.0
    var prev = first
    func flush() {
      if !run.isEmpty {
        out.addContour(run, closed: false)
        phases.append(runStart)
        run.removeAll(keepingCapacity: true)
      }
    }
    func segment(_ a: Point, _ b: Point) {
      let len = (b - a).length
      defer { distance += len }
      guard let (t0, t1) = liangBarsky(a, b, rect) else {
        flush()
        return
      }
      let pa = t0 == 0 ? a : a + (b - a) * t0
      let pb = t1 == 1 ? b : a + (b - a) * t1
      if run.isEmpty || t0 > 0 {
        flush()
        runStart = distance + len * t0
        run.append(pa)
      }
      run.append(pb)
      if t1 < 1 { flush() }
    }
    for p in pts.dropFirst() {
      segment(prev, p)
      prev = p
    }
    if closed { segment(prev, first) }
    flush()
  }

  /// `clip` applied to every contour of `path`, in order, into a new path:
  /// `path` itself, not copied, when that is what `clip` would make of it
  /// (its contours follow one another from its first point to its last,
  /// each wholly inside `rect`), its phases all 0. A frame's strokes mostly
  /// lie inside it: nyc-250000's outlines are 1.2 MB of points that were
  /// copied into fresh pages only to be read.
  public static func clip(_ path: Path, to rect: Rect, phases: inout [Double]) -> Path {
    // The contours before `firstCut` follow one another from the first
    // point, each wholly inside.
    var next = 0
    let firstCut = path.points.withUnsafeBufferPointer { pts in
      path.contours.firstIndex { c in
        guard c.count > 0, c.start == next, c.start + c.count <= pts.count else { return true }
        next = c.start + c.count
        var bounds = Rect.empty
        for p in pts[c.start..<(c.start + c.count)] { bounds.include(p) }
        return !(!bounds.isEmpty && bounds.minX >= rect.minX && bounds.maxX <= rect.maxX && bounds.minY >= rect.minY
          && bounds.maxY <= rect.maxY)
      }
    } ?? path.contours.count
    phases.append(contentsOf: repeatElement(0, count: firstCut))
    if firstCut == path.contours.count && next == path.points.count { return path }
    // Otherwise a copy: the contours found inside as they are (what `clip`
    // makes of them, without testing them again), the others clipped.
    var out = Path()
    out.points.reserveCapacity(path.points.count + 16)
    for i in path.contours.indices {
      if i < firstCut {
        out.addContour(path.points(of: i), closed: path.contours[i].isClosed)
      } else {
        clip(path.points(of: i), closed: path.contours[i].isClosed, to: rect, into: &out, phases: &phases)
      }
    }
    return out
  }

  /// The parameter interval of segment a→b inside `r`, or nil when it misses.
  @inline(__always)
  static func liangBarsky(_ a: Point, _ b: Point, _ r: Rect) -> (Double, Double)? {
    var t0 = 0.0
    var t1 = 1.0
    let dx = b.x - a.x
    let dy = b.y - a.y
    @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
      if p == 0 { return q >= 0 }
      let t = q / p
      if p < 0 {
        if t > t1 { return false }
        if t > t0 { t0 = t }
      } else {
        if t < t0 { return false }
        if t < t1 { t1 = t }
      }
      return true
    }
    guard edge(-dx, a.x - r.minX), edge(dx, r.maxX - a.x), edge(-dy, a.y - r.minY), edge(dy, r.maxY - a.y) else {
      return nil
    }
    return (t0, t1)
  }
}
