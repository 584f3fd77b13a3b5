/// A scale range with ArcGIS semantics: `minScale` is the most zoomed-out scale
/// denominator at which a thing shows, `maxScale` the most zoomed-in one; 0 is
/// no limit. Both bounds are inclusive.
public struct ScaleRange: Sendable, Hashable {
  /// The most zoomed-out scale denominator shown; 0: no limit.
  public var minScale: Double
  /// The most zoomed-in scale denominator shown; 0: no limit.
  public var maxScale: Double

  /// Every scale.
  public static let unlimited = ScaleRange(minScale: 0, maxScale: 0)

  /// A range of these bounds (0: no limit).
  public init(minScale: Double = 0, maxScale: Double = 0) {
    self.minScale = minScale
    self.maxScale = maxScale
  }

  /// Shown at scale `s` exactly when `(minScale == 0 || s <= minScale) && (maxScale == 0 || s >= maxScale)`.
  public func contains(_ s: Double) -> Bool {
    (minScale == 0 || s <= minScale) && (maxScale == 0 || s >= maxScale)
  }

  /// True when it holds every scale.
  public var isUnlimited: Bool { minScale == 0 && maxScale == 0 }
}
