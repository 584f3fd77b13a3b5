internal import _MapSnapJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CSS cubic Bézier timing curve from (0, 0) to (1, 1).
struct UnitBezier {
  let cx, bx, ax, cy, by, ay: Double
  init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    cx = 3 * x1
    bx = 3 * (x2 - x1) - cx
    ax = 1 - cx - bx
    cy = 3 * y1
    by = 3 * (y2 - y1) - cy
    ay = 1 - cy - by
  }
  func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
  func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
  func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

  /// The curve's y where its x is `x`: Newton's method, then bisection.
  func solve(_ x: Double, epsilon: Double = 1e-6) -> Double {
    if x <= 0 { return y(0) }
    if x >= 1 { return y(1) }
    var t = x
    for _ in 0..<8 {
      let err = self.x(t) - x
      if abs(err) < epsilon { return y(t) }
      let d = dx(t)
      if abs(d) < 1e-6 { break }
      t -= err / d
    }
    var lo = 0.0, hi = 1.0
    t = x
    for _ in 0..<20 {
      let v = self.x(t)
      if abs(v - x) < epsilon { break }
      if x > v { lo = t } else { hi = t }
      t = (hi - lo) * 0.5 + lo
    }
    return y(t)
  }
}
