/// Why a label is not shown: the reason its outcome (`LabelOutcome.decision`)
/// carries, decided once by resolution (`LabelRequest.skip`: `noText`,
/// `tooSmall`) or by placement (`TextPlacer`: every other reason).
public enum LabelHiddenReason: String, Sendable, CaseIterable {
  /// Every anchor's box overlaps a label placed before it or a marker with
  /// `collides` (``LabelOutcome/blockedBy`` names them).
  case collision
  /// No anchor's box reaches into the image.
  case outOfBounds
  /// With `avoidEdges`: every anchor's box that reaches into the image
  /// crosses its edge (and none is blocked by another label).
  case edge
  /// The feature has no text in `label.field`.
  case noText
  /// The text is under one device pixel per em.
  case tooSmall
  /// No font covers any of its characters (see `text.missingCodePoints`).
  case noGlyphs
  /// The geometry has no position to label: a line with `placement` point
  /// (the default), or a point with `placement` line.
  case noPosition
  /// Along a line: every part of the line in the image is shorter than the
  /// text.
  case lineTooShort
  /// Along a line: wherever the text fits, two neighbouring glyphs would
  /// turn by more than `maxAngle`.
  case tooCurved
  /// The frame's text budget (`FrameBudget.textCharacters`) was spent by
  /// the texts laid out before it.
  case overBudget
}
