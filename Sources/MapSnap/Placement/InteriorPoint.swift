internal import _MapSnapRaster

/// A point inside the visible part of a polygon, for labels and view
/// annotations tied to polygons.
///
/// Rule: the rings are clipped to the frame; among a 16 × 16 grid of sample
/// points over the clipped outer ring's bounds (cell centres), the one inside
/// the polygon (even-odd over all rings) farthest from every edge wins, ties
/// going to the first in row order; with no sample inside, the centre of the
/// clipped bounds is used. Deterministic, and inside for any convex or
/// reasonably fat concave shape.
enum InteriorPoint {
  /// Where a polygon feature is labelled or annotated, in the pixel space of
  /// `frame`: the interior point (below) of the polygon whose outer ring,
  /// clipped to the frame, has the largest area (the first of equal ones);
  /// nil when no polygon has a visible part. `toPixels` maps map units to
  /// that pixel space.
  static func ofLargestVisible(_ polygons: [[[Point]]], within frame: Rect, toPixels: (Point) -> Point) -> Point? {
    var bestArea = 0.0
    var best: [[Point]]? = nil
    for polygon in polygons {
      let rings = polygon.map { $0.map(toPixels) }
      let clipped = clip(rings[0], to: frame)
      guard clipped.count >= 3 else { continue }
      var twiceArea = 0.0
      var prev = clipped[clipped.count - 1]
      for q in clipped {
        twiceArea += prev.x * q.y - q.x * prev.y
        prev = q
      }
      let area = abs(twiceArea) / 2
      if area > bestArea {
        bestArea = area
        best = rings
      }
    }
    return best.flatMap { of($0, within: frame) }
  }

  static func of(_ rings: [[Point]], within frame: Rect) -> Point? {
    guard let outer = rings.first, outer.count >= 3 else { return nil }
    let clipped = clip(outer, to: frame)
    guard clipped.count >= 3 else { return nil }
    var b = Rect.empty
    for p in clipped { b.include(p) }
    let n = 16
    var best: Point? = nil
    var bestDistance = -1.0
    for j in 0..<n {
      for i in 0..<n {
        let p = Point(b.minX + (Double(i) + 0.5) * b.width / Double(n), b.minY + (Double(j) + 0.5) * b.height / Double(n))
        guard inside(p, rings) else { continue }
        let d = distanceToEdges(p, rings, clippedOuter: clipped)
        if d > bestDistance {
          bestDistance = d
          best = p
        }
      }
    }
    return best ?? Point((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)
  }

  /// Even-odd point-in-polygon over every ring.
  static func inside(_ p: Point, _ rings: [[Point]]) -> Bool {
    var inside = false
    for ring in rings {
      var prev = ring[ring.count - 1]
      for q in ring {
        if (q.y > p.y) != (prev.y > p.y) {
          let x = q.x + (p.y - q.y) * (prev.x - q.x) / (prev.y - q.y)
          if p.x < x { inside.toggle() }
        }
        prev = q
      }
    }
    return inside
  }

  private static func distanceToEdges(_ p: Point, _ rings: [[Point]], clippedOuter: [Point]) -> Double {
    var best = Double.infinity
    func visit(_ ring: [Point]) {
      var prev = ring[ring.count - 1]
      for q in ring {
        best = min(best, segmentDistance(p, prev, q))
        prev = q
      }
    }
    visit(clippedOuter)
    for ring in rings.dropFirst() { visit(ring) }
    return best
  }

  private static func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let ab = b - a
    let len2 = ab.dot(ab)
    let t = len2 > 0 ? min(1, max(0, (p - a).dot(ab) / len2)) : 0
    return (p - (a + ab * t)).length
  }

  /// Sutherland–Hodgman clip of a ring to a rectangle.
  static func clip(_ ring: [Point], to r: Rect) -> [Point] {
    var pts = ring
    func pass(_ inside: (Point) -> Bool, _ cross: (Point, Point) -> Point) {
      guard !pts.isEmpty else { return }
      var out: [Point] = []
      out.reserveCapacity(pts.count + 4)
      var prev = pts[pts.count - 1]
      for q in pts {
        let qi = inside(q)
        let pi = inside(prev)
        if qi {
          if !pi { out.append(cross(prev, q)) }
          out.append(q)
        } else if pi {
          out.append(cross(prev, q))
        }
        prev = q
      }
      pts = out
    }
    func atX(_ x: Double) -> (Point, Point) -> Point {
      { a, b in Point(x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)) }
    }
    func atY(_ y: Double) -> (Point, Point) -> Point {
      { a, b in Point(a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y) }
    }
    pass({ $0.x >= r.minX }, atX(r.minX))
    pass({ $0.x <= r.maxX }, atX(r.maxX))
    pass({ $0.y >= r.minY }, atY(r.minY))
    pass({ $0.y <= r.maxY }, atY(r.maxY))
    return pts
  }
}
