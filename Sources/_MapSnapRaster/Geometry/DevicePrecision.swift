/// The rasteriser's precision, and the vertex reduction it allows.
///
/// The rasteriser rounds every vertex to 1/256 px (24.8 fixed point, see
/// `Edge`), so each coordinate it draws may be up to half a step, 1/512 px,
/// from the one it was given. Geometry that moves by no more than that is
/// drawn as precisely as the rasteriser can draw anything: vertices closer
/// than `tolerance` to the line through their neighbours carry nothing the
/// rasteriser can show, and are dropped before filling and stroking.
public enum DevicePrecision {
  /// Fixed-point steps per device pixel (the rasteriser's 24.8 format).
  public static let subpixels = 256.0

  /// Half a fixed-point step, 1/512 px: the most the rasteriser's own
  /// rounding moves a coordinate, and the most vertex reduction and the
  /// stroker's join shortcuts move an outline.
  public static let tolerance = 0.5 / subpixels

  /// Drops, in place, the vertices of every contour of `path` that lie within
  /// `tolerance` of the chord that replaces them (see `reduce`). Contours left
  /// with no point are removed.
  public static func reduceVertices(_ path: inout Path) {
    var write = 0
    var kept = 0
    let count = path.points.count
    path.points.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      for i in path.contours.indices {
        let c = path.contours[i]
        guard c.start >= 0, c.count > 0, c.start + c.count <= count else { continue }
        let n = reduce(UnsafePointer(base + c.start), count: c.count, closed: c.isClosed, into: base + write)
        if n > 0 {
          path.contours[kept] = Contour(start: write, count: n, isClosed: c.isClosed)
          kept += 1
          write += n
        }
      }
    }
    path.points.removeSubrange(write...)
    path.contours.removeSubrange(kept...)
  }

  /// Copies the finite points of `src[0..<count]` to `dst`, dropping every
  /// point within `tolerance` of the point kept before it (and, for a closed
  /// contour, a last point within `tolerance` of the first); returns how many
  /// it kept. The cheap half of `reduce`, for paths that were reduced before
  /// (or are small): one squared distance per point. `dst` may be `src` or
  /// before it.
  public static func merge(
    _ src: UnsafePointer<Point>, count: Int, closed: Bool, into dst: UnsafeMutablePointer<Point>
  ) -> Int {
    let tol2 = tolerance * tolerance
    var out = 0
    var last = Point(0, 0)
    for k in 0..<count {
      let p = src[k]
      guard p.isFinite else { continue }
      if out > 0 {
        let d = p - last
        if d.dot(d) <= tol2 { continue }
      }
      dst[out] = p
      out += 1
      last = p
    }
    if closed && out > 1 {
      let d = dst[out - 1] - dst[0]
      if d.dot(d) <= tol2 { out -= 1 }
    }
    return out
  }

  /// Copies the finite points of the polyline `src[0..<count]` (a ring when
  /// `closed`) to `dst`, dropping every vertex that lies within `tolerance`
  /// of the chord between the kept vertices around it, and returns how many
  /// it kept. `dst` may be `src` or before it (the copy runs forwards).
  ///
  /// Rules:
  /// - The first finite point is kept, and so is the last point of an open
  ///   line unless it lies within `tolerance` of the vertex kept before it
  ///   (the line's end then moves by at most `tolerance`).
  /// - Greedy, one pass: from the last kept vertex (the anchor), the line
  ///   runs on to the farthest point such that every point passed over lies
  ///   within `tolerance` of the chord from the anchor to it and projects
  ///   inside that chord. A point within `tolerance` of the anchor is always
  ///   passed over (this merges near-duplicates); every other passed point p
  ///   at distance r from the anchor allows chord directions within
  ///   atan(tolerance / r) of its own (just inside the asin(tolerance / r)
  ///   that keeps p within `tolerance` of the chord), and the chord must
  ///   also be at least r long. The allowed directions are kept as a cone of
  ///   two vectors, so the test costs one square root per point and no
  ///   trigonometry.
  /// - A closed contour's last kept vertex is dropped when it lies within
  ///   `tolerance` of the first.
  ///
  /// - Points so far apart that their squared distance overflows are kept.
  ///
  /// So the result lies within `tolerance` of the input and the input within
  /// `tolerance` of the result (Hausdorff distance), consecutive kept
  /// vertices are more than `tolerance` apart, and the result is a subset
  /// of the input's vertices, so its total turning is no larger.
  public static func reduce(
    _ src: UnsafePointer<Point>, count: Int, closed: Bool, into dst: UnsafeMutablePointer<Point>
  ) -> Int {
    let tol = tolerance
    let tol2 = tol * tol
    var k = 0
    while k < count && !src[k].isFinite { k += 1 }
    if k == count { return 0 }
    var anchor = src[k]
    dst[0] = anchor
    var out = 1
    k += 1
    var hasEnd = false
    var end = anchor
    var endDistance2 = 0.0
    // The cone of chord directions every passed point allows, from `low`
    // turning through positive cross products to `high` (at most 180°).
    var low = Point(0, 0)
    var high = Point(0, 0)
    while k < count {
      let p = src[k]
      if !p.isFinite {
        k += 1
        continue
      }
      let v = p - anchor
      let r2 = v.dot(v)
      if r2 <= tol2 {
        k += 1
        continue
      }
      if !r2.isFinite {
        // Coordinates too far apart to measure (beyond ~1e154 px): keep both ends.
        if hasEnd {
          dst[out] = end
          out += 1
        }
        dst[out] = p
        out += 1
        anchor = p
        hasEnd = false
        k += 1
        continue
      }
      if hasEnd && !(r2 >= endDistance2 && low.cross(v) >= 0 && v.cross(high) >= 0) {
        // p cannot end the current chord: keep its end, start again from there.
        dst[out] = end
        out += 1
        anchor = end
        hasEnd = false
        continue
      }
      // v turned either way by atan(tol / r), scaled by r (cross products
      // only compare directions): a little inside the asin(tol / r) that p
      // allows, so a chord in the cone passes within `tol` of p.
      let r = r2.squareRoot()
      let pLow = Point(v.x * r + v.y * tol, v.y * r - v.x * tol)
      let pHigh = Point(v.x * r - v.y * tol, v.y * r + v.x * tol)
      if hasEnd {
        if low.cross(pLow) > 0 { low = pLow }
        if pHigh.cross(high) > 0 { high = pHigh }
      } else {
        low = pLow
        high = pHigh
      }
      end = p
      endDistance2 = r2
      hasEnd = true
      k += 1
    }
    if hasEnd {
      dst[out] = end
      out += 1
    }
    if closed && out > 1 {
      let d = dst[out - 1] - dst[0]
      if d.dot(d) <= tol2 { out -= 1 }
    }
    return out
  }
}
