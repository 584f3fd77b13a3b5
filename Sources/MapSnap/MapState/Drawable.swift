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

/// A feature's label as resolution leaves it for placement: the text (the
/// `label.field` property as text) and the style, or the reason it cannot be
/// placed at all.
public struct LabelRequest: Sendable {
  public var style: LabelStyle
  /// The text; nil when the feature has none (`skip` is then `.noText`).
  public var text: String?
  /// `noText` (the property is absent, null, an object, or only white space)
  /// or `tooSmall` (under one device pixel per em); nil when it is placed.
  public var skip: LabelHiddenReason?
}

/// Why a label is not shown.
public enum LabelHiddenReason: String, Sendable, CaseIterable {
  /// Every anchor's box overlaps a label placed before it or a marker with
  /// `collides` (``LabelOutcome/blockedBy`` names them).
  case collision
  /// No anchor's box reaches into the image.
  case outOfBounds
  /// The feature has no text in `label.field`.
  case noText
  /// The text is under one device pixel per em.
  case tooSmall
  /// The geometry has no position to label (lines are not labelled).
  case noPosition
}
