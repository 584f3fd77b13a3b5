/// What happened to one label candidate: a feature part of an active layer
/// whose style labels it and whose symbols or label can reach the frame.
/// Written once by placement (`TextPlacer`); a hidden label always carries
/// its reason (`decision`), which the report and `explain` print as is.
public struct LabelOutcome: Sendable {
  /// Placed, or hidden with the one reason why.
  public enum Decision: Sendable, Hashable {
    case placed
    case hidden(LabelHiddenReason)

    /// `placed`, or the reason's name: the report's `outcome`.
    public var name: String {
      switch self {
      case .placed: "placed"
      case .hidden(let r): r.rawValue
      }
    }
  }

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
  public var decision: Decision
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

  /// True when placed.
  public var isPlaced: Bool { decision == .placed }
  /// Why it is hidden; nil when placed.
  public var hiddenReason: LabelHiddenReason? {
    if case .hidden(let r) = decision { r } else { nil }
  }
}
