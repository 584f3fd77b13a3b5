/// What happened to one label candidate: a feature part of an active layer
/// whose style labels it and whose symbols or label can reach the frame.
public struct LabelOutcome: Sendable {
  /// The layer's id.
  public var layer: String
  /// Index of the layer in `MapState.layers` (and in the scene).
  public var layerIndex: Int
  public var feature: FeatureKey
  /// Which position of the feature: the index of the point in a MultiPoint,
  /// 0 for a polygon's single label point.
  public var part: Int
  /// The label's text; empty for `noText`.
  public var text: String
  public var placed: Bool
  /// Why it is not shown, when it is not placed.
  public var reason: LabelHiddenReason?
  /// The anchor taken, when placed.
  public var anchor: Anchor?
  /// In logical pixels from the image's top-left corner: the box taken (text
  /// block grown by the halo) when placed; for a `collision` or `edge`, the
  /// box of its last anchor; nil for the other reasons.
  public var box: Rect?
  /// For a `collision`: the features whose placed labels or `collides`
  /// markers are in the way of any of its anchors, each once, in placement
  /// order: those of the first `PlacementResult.namedBlockers` in the way.
  public var blockedBy: [FeatureRef] = []
  /// For a `collision`: how many more labels and markers are in the way
  /// than `blockedBy` names (counted over at most
  /// `PlacementResult.countedBlockers` boxes).
  public var blockedByMore = 0
  /// True for a label along a line (`placement` line): it has no anchor, and
  /// `part` counts its places along the feature's lines.
  public var alongLine = false
  public var allowOverlap: Bool
  public var priority: Double
}
