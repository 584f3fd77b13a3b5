internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

/// Where symbols stand along a line (`symbol-placement: line` and
/// `line-center`), in tile units, as MapLibre's `getAnchors` and
/// `getCenterAnchor` find them:
///
/// - `line`: every `spacing` along the line, starting half a label (plus
///   two ems) from its start, or half a spacing when the line continues
///   from the neighbouring tile; the spacing grows to the label's length
///   plus a quarter spacing when the label is longer. An anchor is kept
///   when it lies in the tile, the whole label fits on the line, and the
///   line turns by no more than `maxAngle` (radians) within any window of
///   3/5 em along the label (`checkMaxAngle`). A line with no anchor, not
///   continued from a neighbour, gets one at its middle.
/// - `line-center`: one anchor at the middle of the line, when the label
///   fits and the angle allows.
enum SymbolLineAnchors {
  /// `labelLength` and `em` (the text's em: `text-size`) in tile units;
  /// `hasText`: the angle is checked (over a window of 3/5 em).
  static func anchors(
    _ line: [Point], spacing requested: Double, labelLength: Double, em: Double, hasText: Bool, maxAngle: Double, center: Bool, extent: Double
  ) -> [LineAnchor] {
    guard line.count >= 2 else { return [] }
    let angleWindow = hasText ? 3.0 / 5.0 * em : 0
    if center {
      return centerAnchor(line, labelLength: labelLength, angleWindow: angleWindow, maxAngle: maxAngle, extent: extent).map { [$0] } ?? []
    }
    let first = line[0]
    let continued = first.x == 0 || first.x == extent || first.y == 0 || first.y == extent
    var spacing = max(requested, 1)
    if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
    // Two ems before the first label.
    let extra = 2 * em
    let offset = continued ? (spacing / 2).truncatingRemainder(dividingBy: spacing) : (labelLength / 2 + extra).truncatingRemainder(dividingBy: spacing)
    return resample(line, offset: offset, spacing: spacing, labelLength: labelLength, angleWindow: angleWindow, maxAngle: maxAngle,
      continued: continued, atMiddle: false, extent: extent)
  }

  private static func resample(
    _ line: [Point], offset: Double, spacing: Double, labelLength: Double, angleWindow: Double, maxAngle: Double, continued: Bool,
    atMiddle: Bool, extent: Double
  ) -> [LineAnchor] {
    let half = labelLength / 2
    let total = length(line)
    var distance = 0.0
    var marked = offset - spacing
    var out: [LineAnchor] = []
    for i in 0..<(line.count - 1) {
      let a = line[i], b = line[i + 1]
      let d = hypot(b.x - a.x, b.y - a.y)
      let angle = atan2(b.y - a.y, b.x - a.x)
      while marked + spacing < distance + d {
        marked += spacing
        let t = (marked - distance) / d
        let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
        guard x >= 0, x < extent, y >= 0, y < extent, marked - half >= 0, marked + half <= total else { continue }
        // MapLibre rounds anchors to whole tile units.
        let anchor = LineAnchor(point: Point(x.rounded(), y.rounded()), angle: angle, line: line, segment: i)
        if angleWindow == 0 || fitsAngle(line, anchor, labelLength: labelLength, window: angleWindow, maxAngle: maxAngle) { out.append(anchor) }
      }
      distance += d
    }
    if !atMiddle && out.isEmpty && !continued {
      return resample(line, offset: distance / 2, spacing: spacing, labelLength: labelLength, angleWindow: angleWindow, maxAngle: maxAngle,
        continued: continued, atMiddle: true, extent: extent)
    }
    return out
  }

  private static func centerAnchor(_ line: [Point], labelLength: Double, angleWindow: Double, maxAngle: Double, extent: Double) -> LineAnchor? {
    let total = length(line)
    guard labelLength <= total else { return nil }
    let middle = total / 2
    var distance = 0.0
    for i in 0..<(line.count - 1) {
      let a = line[i], b = line[i + 1]
      let d = hypot(b.x - a.x, b.y - a.y)
      if distance + d > middle {
        let t = (middle - distance) / d
        let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
        guard x >= 0, x < extent, y >= 0, y < extent else { return nil }
        let anchor = LineAnchor(point: Point(x.rounded(), y.rounded()), angle: atan2(b.y - a.y, b.x - a.x), line: line, segment: i)
        if angleWindow > 0 && !fitsAngle(line, anchor, labelLength: labelLength, window: angleWindow, maxAngle: maxAngle) { return nil }
        return anchor
      }
      distance += d
    }
    return nil
  }

  static func length(_ line: [Point]) -> Double {
    var total = 0.0
    for i in 0..<max(0, line.count - 1) { total += hypot(line[i + 1].x - line[i].x, line[i + 1].y - line[i].y) }
    return total
  }

  /// MapLibre's `checkMaxAngle`: false when the label would run off the
  /// line, or the line turns by more than `maxAngle` within `window` along
  /// it. A label of no length (glyphs without advances) fits; one of no
  /// finite length does not.
  static func fitsAngle(_ line: [Point], _ anchor: LineAnchor, labelLength: Double, window: Double, maxAngle: Double) -> Bool {
    guard labelLength.isFinite else { return false }
    guard labelLength > 0 else { return true }
    var p = anchor.point
    var index = anchor.segment + 1
    var along = 0.0
    while along > -labelLength / 2 {
      index -= 1
      if index < 0 { return false }
      along -= hypot(line[index].x - p.x, line[index].y - p.y)
      p = line[index]
    }
    along += hypot(line[index + 1].x - line[index].x, line[index + 1].y - line[index].y)
    index += 1
    var corners: [(distance: Double, delta: Double)] = []
    var head = 0
    var recent = 0.0
    while along < labelLength / 2 {
      guard index + 1 < line.count else { return false }
      let prev = line[index - 1], current = line[index], next = line[index + 1]
      var delta = atan2(current.y - prev.y, current.x - prev.x) - atan2(next.y - current.y, next.x - current.x)
      delta = abs(fmod(delta + 3 * .pi, 2 * .pi) - .pi)
      corners.append((along, delta))
      recent += delta
      while along - corners[head].distance > window {
        recent -= corners[head].delta
        head += 1
      }
      if recent > maxAngle { return false }
      index += 1
      along += hypot(next.x - current.x, next.y - current.y)
    }
    return true
  }
}
