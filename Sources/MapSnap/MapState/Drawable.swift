/// One feature to draw: its geometry, the style its rule gives it, its key,
/// and its label as resolution decided it.
public struct Drawable: Sendable {
  public var geometry: Geometry
  public var style: Style
  public var feature: FeatureKey
  /// The label to place, or why there is none; nil when the style has no label.
  public var label: LabelRequest?

  /// Position of the feature in its source (placement order).
  public var order: Int { feature.index }
}
