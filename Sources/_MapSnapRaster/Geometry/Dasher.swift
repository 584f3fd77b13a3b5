#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The "on" intervals of `path` under an SVG `stroke-dasharray`, as contours to
/// be stroked.
///
/// Rules:
/// - `pattern` alternates on, off, on, … lengths in px; an odd-length pattern
///   is repeated once to make it even. A pattern that is empty, has a negative
///   or non-finite entry, or sums to <= 0 returns `path` unchanged.
/// - `offset` is `stroke-dashoffset`: each contour starts `offset` px into the
///   pattern (negative values wrap around). `phaseOffsets[i]`, when given, is
///   the distance already travelled along the original line before contour
///   `i`'s first point (for callers that clipped a long line); it is added to
///   `offset`. Missing or non-finite entries count as 0.
/// - Each on interval becomes one open contour. A zero-length on interval
///   becomes a one-point contour, so round or square caps draw a dot. A
///   one-point or zero-length contour becomes a one-point contour when its
///   start falls in an on interval. An interval boundary that falls exactly on
///   the end of an open contour starts nothing there.
/// - Closed contours are walked around including the closing edge. When one
///   starts and ends inside on intervals, the last and first pieces are JOINED
///   into one open contour running through the first point (so a corner there
///   gets a join, not two caps). When a closed contour starts inside an on
///   interval, the piece holding its first point is emitted after the others.
///   A closed contour that lies entirely inside one on interval is returned
///   closed.
/// - Non-finite points are skipped. A contour that would make more than
///   1,000,000 dashes is returned undashed (as Skia does), so a tiny pattern on
///   a huge line cannot stall the renderer.
public func dashed(
  _ path: Path, pattern: [Double], offset: Double = 0, phaseOffsets: [Double]? = nil
) -> Path {
  guard var dasher = DashWalker(pattern: pattern) else { return path }
  var out = Path()
  out.points.reserveCapacity(path.points.count * 2 + 16)
  let base = offset.isFinite ? offset : 0
  for (i, c) in path.contours.enumerated() {
    var phase = base
    if let po = phaseOffsets, i < po.count, po[i].isFinite { phase += po[i] }
    dasher.dash(path.points[c.start..<(c.start + c.count)], closed: c.isClosed, phase: phase, into: &out)
  }
  return out
}

/// Walks contours through a walkable dash pattern (`DashPattern`).
private struct DashWalker {
  let pattern: [Double]
  let total: Double
  let dashPattern: DashPattern
  private var pts: [Point] = []

  static let maxDashes = 1_000_000.0

  init?(pattern raw: [Double]) {
    let p = DashPattern(raw)
    guard p.isWalkable else { return nil }
    pattern = p.lengths
    total = p.period
    dashPattern = p
  }

  /// The interval index and the length left in it, `phase` px into the pattern.
  /// Like Skia, a phase exactly at the end of a non-empty interval starts the
  /// next one, while a zero-length interval at the phase is kept.
  private func start(at phase: Double) -> (index: Int, remaining: Double) {
    var ph = fmod(phase, total)
    if ph < 0 { ph += total }
    if !(ph < total) { ph = 0 }
    var i = 0
    while i < pattern.count {
      let g = pattern[i]
      if ph > g || (ph == g && g > 0) {
        ph -= g
        i += 1
      } else {
        return (i, g - ph)
      }
    }
    return (0, pattern[0])
  }

  mutating func dash(_ input: ArraySlice<Point>, closed: Bool, phase: Double, into out: inout Path) {
    pts.removeAll(keepingCapacity: true)
    for p in input where p.isFinite && pts.last != p { pts.append(p) }
    if closed, pts.count > 1, pts[0] == pts[pts.count - 1] { pts.removeLast() }
    let m = pts.count
    if m == 0 { return }
    let segments = closed ? m : m - 1
    var length = 0.0
    for k in 0..<segments { length += (pts[k + 1 == m ? 0 : k + 1] - pts[k]).length }

    var (idx, rem) = start(at: phase)
    if length == 0 || !length.isFinite {
      if idx % 2 == 0 { out.move(to: pts[0]) }
      return
    }
    if dashPattern.dashes(along: length) > Self.maxDashes {
      out.addContour(pts, closed: closed)
      return
    }

    var skippingFirst = closed && idx % 2 == 0  // the first piece is drawn last
    var firstEnd: Double? = nil
    var drawing = false
    if idx % 2 == 0 && !skippingFirst {
      out.move(to: pts[0])
      drawing = true
    }
    var dist = 0.0
    for k in 0..<segments {
      let a = pts[k]
      let b = pts[k + 1 == m ? 0 : k + 1]
      let len = (b - a).length
      if len == 0 { continue }
      var t = 0.0
      while rem < len - t {
        t += rem
        let p = a + (b - a) * (t / len)
        if idx % 2 == 0 {  // an on interval ends
          if skippingFirst {
            firstEnd = dist + t
            skippingFirst = false
          } else {
            lineTo(p, &out)
            drawing = false
          }
        } else {  // an off interval ends
          out.move(to: p)
          drawing = true
        }
        idx = idx + 1 == pattern.count ? 0 : idx + 1
        rem = pattern[idx]
      }
      rem -= len - t
      if drawing { lineTo(b, &out) }
      dist += len
    }

    guard closed else { return }
    if skippingFirst {  // never left the first on interval
      out.addContour(pts, closed: true)
    } else if let end = firstEnd {
      if !drawing { out.move(to: pts[0]) }
      var d = 0.0
      for k in 0..<segments {
        let a = pts[k]
        let b = pts[k + 1 == m ? 0 : k + 1]
        let len = (b - a).length
        if d + len >= end {
          lineTo(len > 0 ? a + (b - a) * ((end - d) / len) : b, &out)
          return
        }
        lineTo(b, &out)
        d += len
      }
    }
  }

  /// Extends the current contour to `p` unless it already ends there.
  @inline(__always) private func lineTo(_ p: Point, _ out: inout Path) {
    if out.points.last != p { out.line(to: p) }
  }
}
