/// A scale range with ArcGIS semantics: `minScale` is the most zoomed-out scale
/// denominator at which a thing shows, `maxScale` the most zoomed-in one; 0 is
/// no limit. Both bounds are inclusive.
public struct ScaleRange: Sendable, Hashable {
  public var minScale: Double
  public var maxScale: Double

  public static let unlimited = ScaleRange(minScale: 0, maxScale: 0)

  public init(minScale: Double = 0, maxScale: Double = 0) {
    self.minScale = minScale
    self.maxScale = maxScale
  }

  /// Shown at scale `s` exactly when `(minScale == 0 || s <= minScale) && (maxScale == 0 || s >= maxScale)`.
  public func contains(_ s: Double) -> Bool {
    (minScale == 0 || s <= minScale) && (maxScale == 0 || s >= maxScale)
  }

  public var isUnlimited: Bool { minScale == 0 && maxScale == 0 }
}
