/// Why a view annotation is not shown: the reason its outcome
/// (`ViewAnnotationOutcome.decision`) carries, decided by
/// `ViewAnnotationPlacer`.
public enum ViewAnnotationHiddenReason: String, Sendable, CaseIterable {
  /// `visible` is false.
  case notVisible
  /// The scale is outside its `minScale`/`maxScale`.
  case outOfScale
  /// It is on another floor than the one shown.
  case floor
  /// Its feature is not drawn at this scale and floor (or does not exist).
  case featureHidden
  /// Its position is outside the viewport, or no anchor puts the box wholly inside.
  case outOfBounds
  /// Every anchor that fits overlaps a box placed before it (`blockedBy`).
  case collision
  /// The frame's text budget (`FrameBudget.textCharacters`) was spent by
  /// labels, annotation text and the view annotations placed before it.
  case overBudget
}

