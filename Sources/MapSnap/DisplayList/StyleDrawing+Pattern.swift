internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

extension StyleDrawing {
  /// How far (device pixels) a segment's piece reaches into the next
  /// piece, so that the two meet without an antialiased seam: the later
  /// piece is drawn over the overlap.
  static let patternOverlap = 1.0

  /// `line-pattern` (`StyleLinePattern` says where the image lies): along
  /// each contour, from its start.
  ///
  /// Each segment is a piece of its own (a rectangle as wide as the line)
  /// with its pattern turned along it and shifted by the distance before
  /// it; each interior vertex adds its join (round: a disc; miter within
  /// the miter limit: the miter's quadrilateral; otherwise the bevel's
  /// triangle) on the outer side, with the pattern of the segment before;
  /// the contour's ends add their caps (round: a disc; square: the end
  /// piece half a width longer). A translucent line is one group, so
  /// overlapping pieces do not darken each other.
  static func drawLinePattern(_ path: Path, style: StrokeStyle, pattern: StyleLinePattern, clip: [Point]?, into list: inout DisplayList) {
    let hw = style.width / 2
    let h = Double(pattern.image.height)
    let across = pattern.across(halfWidth: hw)
    let along = pattern.along
    guard hw > 0, across > 0, across.isFinite, along > 0, along.isFinite else { return }
    let grouped = pattern.opacity < 1
    if grouped { list.beginGroup(opacity: pattern.opacity) }
    defer { if grouped { list.endGroup() } }
    func fill(_ piece: Path, _ paint: PatternPaint) {
      let cut = clip.map { ConvexClip.clip(piece, to: $0) } ?? piece
      guard !cut.isEmpty else { return }
      list.fill(cut, rule: .nonZero, pattern: paint)
    }
    for contour in path.contours {
      var pts = Array(path.points[contour.start..<(contour.start + contour.count)])
      // Repeated points make no segment.
      pts = pts.enumerated().filter { $0.offset == 0 || $0.element != pts[$0.offset - 1] }.map(\.element)
      if contour.isClosed, pts.count > 2, pts.first != pts.last { pts.append(pts[0]) }
      guard pts.count >= 2 else { continue }
      let segments = pts.count - 1
      var distance = 0.0
      var previous: (d: Point, n: Point, paint: PatternPaint)?
      for i in 0..<segments {
        let a = pts[i], b = pts[i + 1]
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { continue }
        let d = Point(dx / length, dy / length)
        // Left of the direction, with y down.
        let n = Point(d.y, -d.x)
        // The image's middle row on the line, its top on the right (−n), its
        // rows running leftwards (n).
        let top = h / 2 * across
        let origin = Point(a.x - d.x * distance - n.x * top, a.y - d.y * distance - n.y * top)
        let paint = PatternPaint(
          image: pattern.image, origin: origin, xAxis: Point(d.x * along, d.y * along), yAxis: Point(n.x * across, n.y * across))
        if let previous {
          fill(joinPiece(at: a, from: previous.d, previous.n, to: d, n, hw: hw, style: style), previous.paint)
        }
        let first = i == 0 && !contour.isClosed, last = i == segments - 1 && !contour.isClosed
        let capReach = style.cap == .square ? hw : 0
        let back = first ? capReach : (i == 0 ? 0 : patternOverlap)
        let ahead = last ? capReach : patternOverlap
        let s = Point(a.x - d.x * back, a.y - d.y * back), e = Point(b.x + d.x * ahead, b.y + d.y * ahead)
        var quad = Path()
        quad.addContour(
          [Point(s.x + n.x * hw, s.y + n.y * hw), Point(e.x + n.x * hw, e.y + n.y * hw),
           Point(e.x - n.x * hw, e.y - n.y * hw), Point(s.x - n.x * hw, s.y - n.y * hw)], closed: true)
        if style.cap == .round && first { fill(markerPath(.circle, at: a, size: style.width, tolerance: Flattening.tolerance), paint) }
        fill(quad, paint)
        if style.cap == .round && last { fill(markerPath(.circle, at: b, size: style.width, tolerance: Flattening.tolerance), paint) }
        distance += length
        previous = (d, n, paint)
      }
    }
  }

  /// The outer side of the join at `v` between a segment of direction `d1`
  /// (left normal `n1`) and one of direction `d2` (`n2`), for a line
  /// `hw` × 2 wide.
  private static func joinPiece(at v: Point, from d1: Point, _ n1: Point, to d2: Point, _ n2: Point, hw: Double, style: StrokeStyle) -> Path {
    var p = Path()
    if style.join == .round {
      return markerPath(.circle, at: v, size: 2 * hw, tolerance: Flattening.tolerance)
    }
    // Turning right (clockwise on screen, y down) opens the left side.
    let cross = d1.x * d2.y - d1.y * d2.x
    guard cross != 0 else { return p }
    let side = cross > 0 ? 1.0 : -1.0
    let a = Point(v.x + side * n1.x * hw, v.y + side * n1.y * hw)
    let b = Point(v.x + side * n2.x * hw, v.y + side * n2.y * hw)
    let mx = n1.x + n2.x, my = n1.y + n2.y
    let m2 = mx * mx + my * my
    // The miter's length over the half width is 2 / |n1 + n2|.
    if style.join == .miter, m2 > 0, 2 / m2.squareRoot() <= style.miterLimit {
      let k = side * 2 * hw / m2
      p.addContour([v, a, Point(v.x + mx * k, v.y + my * k), b], closed: true)
    } else {
      p.addContour([v, a, b], closed: true)
    }
    return p
  }
}
