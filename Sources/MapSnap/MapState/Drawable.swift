/// One feature to draw: its geometry, the style its rule gives it, its key,
/// and its label as resolution decided it.
public struct Drawable: Sendable {
  public let geometry: Geometry
  public let style: Style
  public let feature: FeatureKey
  /// The label to place, or why there is none; nil when the style has no label.
  public let label: LabelRequest?

  /// Position of the feature in its source (placement order).
  public var order: Int { feature.index }
}
