#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How curves become straight segments: one tolerance for every arc and
/// curve the renderer flattens (round joins, round caps and dots of strokes,
/// circle and pin markers, rounded boxes, glyph outlines and their halos).
public enum Flattening {
  /// The largest distance, in device pixels, between a flattened curve and
  /// the curve. 0.1 px keeps a flattened edge within a tenth of a pixel of
  /// the true one (at most about 26 of 255 coverage levels on one edge
  /// pixel), which no map feature shows, while a 1-px stroke's round join
  /// needs no arc below a 74° turn.
  public static let tolerance = 0.1

  /// The fewest chords a flattened arc may have per full circle, whatever
  /// its radius and tolerance: bounds the work a huge radius asks for.
  static let maxSegmentsPerCircle = 4096.0

  /// The largest angle one chord of an arc of `radius` may span so that the
  /// chord stays within `tolerance` of the arc: a chord spanning θ is
  /// `radius × (1 − cos(θ/2))` from it, so θ = 2·acos(1 − tolerance/radius),
  /// and a whole circle in one step (2π) when the radius is at most half the
  /// tolerance. Never below 2π / `maxSegmentsPerCircle`. A tolerance that is
  /// not finite and positive counts as `Flattening.tolerance`.
  public static func arcStep(radius: Double, tolerance: Double = tolerance) -> Double {
    let tol = tolerance.isFinite && tolerance > 0 ? tolerance : Flattening.tolerance
    let floor = 2 * Double.pi / maxSegmentsPerCircle
    guard radius.isFinite, radius > 0 else { return radius > 0 ? floor : 2 * .pi }
    let step = 2 * acos(max(-1, 1 - tol / radius))
    return step.isNaN ? floor : max(step, floor)
  }

  /// The number of equal chords, at least 1, that an arc sweeping `sweep`
  /// radians at `radius` is flattened into: ceil(sweep / `arcStep`), with
  /// every vertex on the arc. At most `maxSegmentsPerCircle` per full turn.
  public static func arcSegments(sweep: Double, radius: Double, tolerance: Double = tolerance) -> Int {
    let steps = (abs(sweep) / arcStep(radius: radius, tolerance: tolerance)).rounded(.up)
    guard steps >= 1 else { return 1 }  // also NaN
    return Int(min(steps, maxSegmentsPerCircle))
  }
}
