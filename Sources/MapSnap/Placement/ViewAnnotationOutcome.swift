/// What happened to one view annotation, written once by
/// `ViewAnnotationPlacer`: placed with its anchor and box, or hidden with
/// the one reason why (`decision`), which the report and `explain` print as
/// is.
public struct ViewAnnotationOutcome: Sendable {
  /// Placed where, or hidden why.
  public enum Decision: Sendable, Hashable {
    /// Placed: the anchor taken, which entry of `anchors` it is (0 is the
    /// first), and the box in logical pixels from the image's top-left
    /// corner.
    case placed(anchor: Anchor, anchorIndex: Int, box: Rect)
    case hidden(ViewAnnotationHiddenReason)
  }

  public var id: String
  public var decision: Decision
  /// For `outOfBounds`: true when the annotated position itself lies outside
  /// the image (for a feature, when the feature is nowhere near the frame);
  /// false when it is inside but no anchor puts the box wholly inside.
  public var positionOutside = false
  /// For `collision`: the ids of the placed boxes in the way, in scene
  /// order: of the first `PlacementResult.namedBlockers` in placement order.
  public var blockedBy: [String] = []
  /// For `collision`: how many more boxes are in the way than `blockedBy`
  /// names.
  public var blockedByMore = 0
  /// The annotated position in logical pixels, when one was found.
  public var position: Point?
  /// A problem with the annotation itself, also printed on standard error.
  public var problem: ViewAnnotationProblem?

  /// The problem as a warning line: `view annotation "va": layer "valves" has
  /// no feature with id "V-71" (did you mean "V-17"?)`.
  public var warning: String? { problem.map { "view annotation \(Echo.quoted(id)): \($0.message)" } }

  package init(id: String, decision: Decision) {
    self.id = id
    self.decision = decision
  }

  /// True when placed.
  public var isPlaced: Bool { if case .placed = decision { true } else { false } }
  /// The anchor taken, when placed.
  public var anchor: Anchor? { if case .placed(let a, _, _) = decision { a } else { nil } }
  /// Which entry of `anchors` was taken, when placed.
  public var anchorIndex: Int? { if case .placed(_, let k, _) = decision { k } else { nil } }
  /// The box in logical pixels, when placed.
  public var box: Rect? { if case .placed(_, _, let b) = decision { b } else { nil } }
  /// Why it is hidden; nil when placed.
  public var hiddenReason: ViewAnnotationHiddenReason? { if case .hidden(let r) = decision { r } else { nil } }
}

/// Something wrong with a view annotation itself: the data, and one message
/// builder.
public enum ViewAnnotationProblem: Sendable, Equatable {
  /// It is tied to a feature id that its layer's source does not have;
  /// `suggestion` is the closest id, if one is close.
  case unknownFeature(layer: String, id: FeatureID, suggestion: String?)
  /// It is tied to a feature of a style layer its layer's style does not have.
  case unknownStyleLayer(layer: String, styleLayer: String, suggestion: String?)

  public var message: String {
    switch self {
    case .unknownFeature(let layer, let id, let suggestion):
      return "layer \(Echo.quoted(layer)) has no feature with id \(Echo.quoted(id.text))" + (suggestion.map { " (did you mean \(Echo.quoted($0))?)" } ?? "")
    case .unknownStyleLayer(let layer, let styleLayer, let suggestion):
      return "the style of layer \(Echo.quoted(layer)) has no layer \(Echo.quoted(styleLayer))" + (suggestion.map { " (did you mean \(Echo.quoted($0))?)" } ?? "")
    }
  }
}
