internal import _MapSnapRaster

/// Cuts closed contours to a convex polygon (Sutherland–Hodgman, one edge
/// at a time). Each contour is cut on its own, which keeps every point's
/// winding number inside the polygon: what a nonzero or even-odd fill of
/// the result covers is what the fill of the original covers, inside.
enum ConvexClip {
  /// `path`'s contours (all taken as closed) cut to `polygon` (convex, its
  /// points in either order).
  static func clip(_ path: Path, to polygon: [Point]) -> Path {
    guard polygon.count >= 3 else { return path }
    // Orient the clip polygon so that "inside" is left of each edge.
    var poly = polygon
    var area = 0.0
    for i in poly.indices {
      let a = poly[i], b = poly[(i + 1) % poly.count]
      area += a.x * b.y - b.x * a.y
    }
    if area < 0 { poly.reverse() }
    // A path wholly inside (most of a tile's features) is kept as it is.
    if Self.inside(path.bounds, poly) { return path }
    var out = Path()
    var current: [Point] = []
    var next: [Point] = []
    for ci in path.contours.indices {
      current.removeAll(keepingCapacity: true)
      current.append(contentsOf: path.points(of: ci))
      if Self.inside(Self.bounds(current), poly) {
        out.addContour(current, closed: true)
        continue
      }
      for i in poly.indices {
        let a = poly[i], b = poly[(i + 1) % poly.count]
        next.removeAll(keepingCapacity: true)
        guard let last = current.last else { break }
        var prev = last
        var prevIn = side(prev, a, b) >= 0
        for p in current {
          let pIn = side(p, a, b) >= 0
          if pIn != prevIn { next.append(intersection(prev, p, a, b)) }
          if pIn { next.append(p) }
          prev = p
          prevIn = pIn
        }
        swap(&current, &next)
        if current.isEmpty { break }
      }
      if current.count >= 3 { out.addContour(current, closed: true) }
    }
    return out
  }

  private static func bounds(_ points: [Point]) -> Rect {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for p in points {
      minX = min(minX, p.x); maxX = max(maxX, p.x)
      minY = min(minY, p.y); maxY = max(maxY, p.y)
    }
    return Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
  }

  /// True when `box` lies inside the (left-oriented) convex `poly`.
  private static func inside(_ box: Rect, _ poly: [Point]) -> Bool {
    let corners = [Point(box.minX, box.minY), Point(box.maxX, box.minY), Point(box.maxX, box.maxY), Point(box.minX, box.maxY)]
    for i in poly.indices {
      let a = poly[i], b = poly[(i + 1) % poly.count]
      for c in corners where side(c, a, b) < 0 { return false }
    }
    return true
  }

  /// Positive when `p` is left of the edge `a` → `b`.
  @inline(__always) private static func side(_ p: Point, _ a: Point, _ b: Point) -> Double {
    (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
  }

  @inline(__always) private static func intersection(_ p: Point, _ q: Point, _ a: Point, _ b: Point) -> Point {
    let sp = side(p, a, b), sq = side(q, a, b)
    let t = sp / (sp - sq)
    return Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t)
  }
}
