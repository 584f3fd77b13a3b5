internal import _MapSnapJSON

/// `collator`: string comparison rules (case and diacritic sensitivity, locale).
final class CollatorNode: ExpressionNode, @unchecked Sendable {
  let caseSensitive: ExpressionNode, diacriticSensitive: ExpressionNode, locale: ExpressionNode?
  init(caseSensitive: ExpressionNode, diacriticSensitive: ExpressionNode, locale: ExpressionNode?, key: String) {
    self.caseSensitive = caseSensitive
    self.diacriticSensitive = diacriticSensitive
    self.locale = locale
    super.init(type: .collator, key: key)
  }
  override var children: [ExpressionNode] { [caseSensitive, diacriticSensitive] + (locale.map { [$0] } ?? []) }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    var l: String?
    if let locale { l = try string(locale, input) }
    return .collator(StyleCollator(caseSensitive: try bool(caseSensitive, input), diacriticSensitive: try bool(diacriticSensitive, input), locale: l))
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else { return context.error("Expected one argument.") }
    guard case .object(let options) = args[1] else { return context.error("Collator options argument must be an object.") }
    guard let cs = context.parse(options["case-sensitive"] ?? false, 1, .boolean),
      let ds = context.parse(options["diacritic-sensitive"] ?? false, 1, .boolean)
    else { return nil }
    var locale: ExpressionNode?
    if let l = options["locale"], l != .null, l != .bool(false), l != .string(""), l != .number(0) {
      guard let p = context.parse(l, 1, .string) else { return nil }
      locale = p
    }
    return CollatorNode(caseSensitive: cs, diacriticSensitive: ds, locale: locale, key: context.key)
  }
}
