internal import _MapSnapRaster

/// Moves lines sideways (`line-offset`, and each side of a `line-gap-width`):
/// every vertex along the bisector of its two segments' normals, so that
/// each segment lies `distance` from the original (positive: right of the
/// line's direction, as MapLibre's `line-offset`); where the miter would be
/// longer than `miterLimit` times the distance, the corner is cut (bevel):
/// the vertex becomes two, one on each segment's offset.
enum LineOffset {
  static func offset(_ path: Path, by distance: Double, miterLimit: Double) -> Path {
    var out = Path()
    let limit = max(1, miterLimit)
    for ci in path.contours.indices {
      let pts = Array(path.points(of: ci))
      let closed = path.contours[ci].isClosed
      guard pts.count >= 2 else { continue }
      var moved: [Point] = []
      moved.reserveCapacity(pts.count)
      let n = pts.count
      for i in 0..<n {
        let hasPrev = closed || i > 0, hasNext = closed || i < n - 1
        let prev = pts[(i - 1 + n) % n], here = pts[i], next = pts[(i + 1) % n]
        let n1 = hasPrev ? normal(prev, here) : nil
        let n2 = hasNext ? normal(here, next) : nil
        var dir: Point
        var scale = 1.0
        switch (n1, n2) {
        case let (a?, b?):
          let sum = Point(a.x + b.x, a.y + b.y)
          let len = (sum.x * sum.x + sum.y * sum.y).squareRoot()
          let cosHalf = len / 2
          if len < 1e-9 || 1 / cosHalf > limit {
            moved.append(Point(here.x + a.x * distance, here.y + a.y * distance))
            moved.append(Point(here.x + b.x * distance, here.y + b.y * distance))
            continue
          }
          dir = Point(sum.x / len, sum.y / len)
          scale = 1 / cosHalf
        case let (a?, nil): dir = a
        case let (nil, b?): dir = b
        default: dir = Point(0, 0)
        }
        moved.append(Point(here.x + dir.x * distance * scale, here.y + dir.y * distance * scale))
      }
      out.addContour(moved, closed: closed)
    }
    return out
  }

  /// The unit normal right of `a` → `b` (y down), or nil for a zero-length segment.
  private static func normal(_ a: Point, _ b: Point) -> Point? {
    let dx = b.x - a.x, dy = b.y - a.y
    let len = (dx * dx + dy * dy).squareRoot()
    guard len > 1e-12 else { return nil }
    return Point(-dy / len, dx / len)
  }
}
