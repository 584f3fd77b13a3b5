/// A feature's label as resolution leaves it for placement: the text (the
/// `label.field` property as text), or the reason it cannot be placed at
/// all. Its style is the drawable's (`Drawable.style.label`), held once.
public struct LabelRequest: Sendable {
  /// The text; nil when the feature has none (`skip` is then `.noText`).
  public let text: String?
  /// `noText` (the property is absent, null, an object, or only white space)
  /// or `tooSmall` (under one device pixel per em); nil when it is placed.
  public let skip: LabelHiddenReason?
}

extension LabelRequest {
  /// The label of a feature with `properties` styled `style`: its text,
  /// skipped for no text (`noText`) or a size under
  /// `FontLibrary.minTextSize` device pixels at `pixelRatio` (`tooSmall`);
  /// and, when it is not skipped, how far it can reach from the feature
  /// (logical pixels, characters at most `advance` ems wide).
  static func of(_ style: LabelStyle, properties: JSONObject, pixelRatio: Double, advance: Double) -> (request: LabelRequest, reach: Double?) {
    let text = style.text.text(properties)
    if text == nil { return (LabelRequest(text: nil, skip: .noText), nil) }
    if style.size * pixelRatio < FontLibrary.minTextSize { return (LabelRequest(text: text, skip: .tooSmall), nil) }
    return (LabelRequest(text: text, skip: nil), SymbolReach.label(text!, style: style, advance: advance))
  }
}
