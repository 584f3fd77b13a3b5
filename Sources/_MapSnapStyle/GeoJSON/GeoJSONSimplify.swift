/// Douglas–Peucker simplification as geojson-vt prepares it once for every
/// zoom: each vertex is given an importance, the squared distance from the
/// chord of the span it splits, and a tile at zoom z keeps the vertices
/// whose importance exceeds its own squared tolerance. Within a span
/// (first…last), the vertex farthest from the chord splits it when it is
/// farther than `sqTolerance`; of vertices equally far, the one nearest the
/// span's middle (which keeps degenerate inputs from splitting one vertex
/// at a time); both halves are then split the same way.
enum GeoJSONSimplify {
  /// Marks the importance of the vertices strictly between `first` and
  /// `last` of `c` (`GeoJSONPart` layout). An explicit stack, so that no
  /// input deepens the call stack.
  static func markImportance(_ c: UnsafeMutableBufferPointer<Double>, first: Int, last: Int, sqTolerance: Double) {
    let s = GeoJSONPart.stride
    var spans: [(Int, Int)] = [(first, last)]
    while let (a, b) = spans.popLast() {
      guard b - a > 1 else { continue }
      let mid = a + (b - a) / 2
      var best = sqTolerance
      var bestIndex = -1
      var bestToMid = b - a
      let ax = c[a * s], ay = c[a * s + 1], bx = c[b * s], by = c[b * s + 1]
      for i in (a + 1)..<b {
        let d = squaredSegmentDistance(c[i * s], c[i * s + 1], ax, ay, bx, by)
        if d > best {
          best = d
          bestIndex = i
          bestToMid = abs(i - mid)
        } else if d == best && bestIndex >= 0 {
          let toMid = abs(i - mid)
          if toMid < bestToMid {
            bestIndex = i
            bestToMid = toMid
          }
        }
      }
      guard bestIndex >= 0 else { continue }
      c[bestIndex * s + 2] = best
      spans.append((bestIndex, b))
      spans.append((a, bestIndex))
    }
  }

  /// The squared distance from (px, py) to the segment (ax, ay)–(bx, by).
  @inline(__always)
  static func squaredSegmentDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    var x = ax, y = ay
    var dx = bx - ax, dy = by - ay
    if dx != 0 || dy != 0 {
      let t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
      if t > 1 {
        x = bx; y = by
      } else if t > 0 {
        x += dx * t; y += dy * t
      }
    }
    dx = px - x
    dy = py - y
    return dx * dx + dy * dy
  }
}
