internal import _MapSnapJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an `interpolate` expression weighs the two stops around its input.
package enum Interpolation: Sendable, Equatable {
  case linear
  case exponential(Double)
  case cubicBezier(Double, Double, Double, Double)

  /// The weight of the upper stop, 0...1, for `input` between `lower` and `upper`.
  package func factor(_ input: Double, _ lower: Double, _ upper: Double) -> Double {
    switch self {
    case .linear: return Interpolation.exponentialFactor(input, 1, lower, upper)
    case .exponential(let base): return Interpolation.exponentialFactor(input, base, lower, upper)
    case .cubicBezier(let x1, let y1, let x2, let y2):
      return UnitBezier(x1, y1, x2, y2).solve(Interpolation.exponentialFactor(input, 1, lower, upper))
    }
  }

  static func exponentialFactor(_ input: Double, _ base: Double, _ lower: Double, _ upper: Double) -> Double {
    let difference = upper - lower, progress = input - lower
    if difference == 0 { return 0 }
    if base == 1 { return progress / difference }
    return (pow(base, progress) - 1) / (pow(base, difference) - 1)
  }
}
