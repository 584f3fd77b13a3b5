/// A feature's label as resolution leaves it for placement: the text (the
/// `label.field` property as text), or the reason it cannot be placed at
/// all. Its style is the drawable's (`Drawable.style.label`), held once.
public struct LabelRequest: Sendable {
  /// The text; nil when the feature has none (`skip` is then `.noText`).
  public var text: String?
  /// `noText` (the property is absent, null, an object, or only white space)
  /// or `tooSmall` (under one device pixel per em); nil when it is placed.
  public var skip: LabelHiddenReason?
}
