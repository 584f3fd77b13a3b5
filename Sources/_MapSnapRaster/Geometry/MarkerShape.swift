#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The point-marker symbols. Every shape is sized by one `size` in px and is
/// returned by `markerPath` as one closed contour, wound clockwise on screen
/// like stroke outlines.
public enum MarkerShape: String, Sendable, CaseIterable {
  /// A disc of diameter `size` centred on the point.
  case circle
  /// An axis-aligned square of side `size` centred on the point.
  case square
  /// A triangle pointing up: apex at the top centre, base along the bottom;
  /// width `size`, height `size`, bounding box centred on the point.
  case triangle
  /// A plus sign whose arms span `size` across and down, arm thickness
  /// `size / 3`, centred on the point; one 12-vertex outline.
  case cross
  /// A map pin of width `size` whose tip is exactly at the point, with a round
  /// head of diameter `size` above it (head centre `size` above the tip, sides
  /// tangent to the head); total height `1.5 × size`.
  case pin
}

/// The outline of `shape` at `center` (see `MarkerShape` for each shape's
/// geometry), to be filled nonzero and optionally stroked.
///
/// Round parts are flattened with vertices on the circle and chord error at
/// most `tolerance` (`Flattening.arcStep`, the rule of round joins), in whole
/// steps per quarter circle (per 30° of a pin's head), so the leftmost,
/// rightmost and topmost points of circles are vertices and the bounds are
/// exact. A non-finite `center`, or a `size` that is not finite and positive,
/// gives an empty path.
public func markerPath(_ shape: MarkerShape, at center: Point, size: Double, tolerance: Double = Flattening.tolerance) -> Path {
  var path = Path()
  guard center.isFinite, size.isFinite, size > 0 else { return path }
  let h = size / 2
  let (cx, cy) = (center.x, center.y)
  switch shape {
  case .circle:
    let n = 4 * Flattening.arcSegments(sweep: .pi / 2, radius: h, tolerance: tolerance)
    path.points.reserveCapacity(n)
    path.move(to: Point(cx + h, cy))
    for i in 1..<n {
      let a = 2 * Double.pi * Double(i) / Double(n)
      path.line(to: Point(cx + h * cos(a), cy + h * sin(a)))
    }
  case .square:
    path.addContour(
      [Point(cx - h, cy - h), Point(cx + h, cy - h), Point(cx + h, cy + h), Point(cx - h, cy + h)],
      closed: false)
  case .triangle:
    path.addContour([Point(cx, cy - h), Point(cx + h, cy + h), Point(cx - h, cy + h)], closed: false)
  case .cross:
    let a = size / 6
    let offsets: [(Double, Double)] = [
      (-a, -h), (a, -h), (a, -a), (h, -a), (h, a), (a, a),
      (a, h), (-a, h), (-a, a), (-h, a), (-h, -a), (-a, -a),
    ]
    path.addContour(offsets.lazy.map { Point(cx + $0.0, cy + $0.1) }, closed: false)
  case .pin:
    // Head centre `size` above the tip; the tangents from the tip touch the
    // head at ±60° from straight down (cos 60° = r / distance = 1/2), so the
    // head's outline runs from 150° over the top to 390° (y down), 8 × 30°.
    let headY = cy - size
    let m = Flattening.arcSegments(sweep: .pi / 6, radius: h, tolerance: tolerance)
    let n = 8 * m
    path.points.reserveCapacity(n + 2)
    path.move(to: center)
    for i in 0...n {
      let a = Double.pi * (5.0 / 6.0 + 4.0 / 3.0 * Double(i) / Double(n))
      path.line(to: Point(cx + h * cos(a), headY + h * sin(a)))
    }
  }
  path.close()
  return path
}
