/// One feature of one layer, as blockers and view annotations name it.
public struct FeatureRef: Sendable, Hashable {
  /// The layer's id.
  public var layer: String
  public var feature: FeatureKey

  public init(layer: String, feature: FeatureKey) {
    self.layer = layer
    self.feature = feature
  }

  /// `pois/V-7` or `pois/#12`.
  public var text: String { layer + "/" + feature.text }
}
