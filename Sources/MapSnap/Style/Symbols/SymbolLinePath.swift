internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

/// The line a symbol stands on, on the frame (device pixels), seen from
/// its anchor: where a glyph lands a given distance along it, as MapLibre
/// lays a line label's glyphs along the line one by one
/// (`placeGlyphsAlongLine`), each at the point its centre reaches and
/// turned to the segment there.
struct SymbolLinePath {
  let points: [Point]
  /// The anchor lies on the segment from `points[segment]` to `points[segment + 1]`.
  let segment: Int
  let anchor: Point

  /// The point `distance` device pixels from the anchor along the line
  /// (forward for a positive distance, backward for a negative one) and the
  /// direction of the segment there (radians, forward); nil past an end.
  func point(at distance: Double) -> (point: Point, angle: Double)? {
    guard segment >= 0, segment + 1 < points.count else { return nil }
    if distance >= 0 {
      var from = anchor
      var left = distance
      var i = segment + 1
      while i < points.count {
        let to = points[i]
        let d = hypot(to.x - from.x, to.y - from.y)
        let seg = (points[i - 1], to)
        if left <= d {
          let t = d > 0 ? left / d : 0
          return (Point(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t), atan2(seg.1.y - seg.0.y, seg.1.x - seg.0.x))
        }
        left -= d
        from = to
        i += 1
      }
      return nil
    }
    var from = anchor
    var left = -distance
    var i = segment
    while i >= 0 {
      let to = points[i]
      let d = hypot(to.x - from.x, to.y - from.y)
      let seg = (to, points[i + 1])
      if left <= d {
        let t = d > 0 ? left / d : 0
        return (Point(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t), atan2(seg.1.y - seg.0.y, seg.1.x - seg.0.x))
      }
      left -= d
      from = to
      i -= 1
    }
    return nil
  }
}
