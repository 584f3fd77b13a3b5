/// Why an annotation text is not drawn: the reason its outcome
/// (`AnnotationTextOutcome`) carries. Resolution decides the map's rules
/// (`notVisible` to `tooLarge`, in `AnnotationText.hidden`), placement
/// `noGlyphs` and `overBudget`, the display list `outOfBounds`; each text's
/// reason comes from the first stage that hides it.
public enum AnnotationHiddenReason: String, Sendable, CaseIterable {
  /// Its sublayer's or its layer's `visible` is false.
  case notVisible
  /// The scale is outside its sublayer's or its layer's range.
  case outOfScale
  /// Nothing of it can show: its layer's opacity is 0, or its colour is
  /// fully transparent and it has no visible halo.
  case transparent
  /// On another floor than the one shown.
  case floor
  /// The feature has no text in `textField`.
  case noText
  /// Under one device pixel per em at this scale.
  case tooSmall
  /// Over ``FontLibrary/maxTextSize`` device pixels per em at this scale.
  case tooLarge
  /// No font covers any of its characters (see `text.missingCodePoints`).
  case noGlyphs
  /// Its glyphs put no pixel into the image.
  case outOfBounds
  /// The frame's text budget (`FrameBudget.textCharacters`) was spent by
  /// the texts laid out before it.
  case overBudget
}
