internal import _MapSnapJSON

/// `number-format`: a number as text, with the locale's digits grouping,
/// fraction digits and currency.
final class NumberFormatNode: ExpressionNode, @unchecked Sendable {
  let number: ExpressionNode
  let locale: ExpressionNode?, currency: ExpressionNode?, unit: ExpressionNode?
  let minFraction: ExpressionNode?, maxFraction: ExpressionNode?
  init(
    number: ExpressionNode, locale: ExpressionNode?, currency: ExpressionNode?, unit: ExpressionNode?, minFraction: ExpressionNode?,
    maxFraction: ExpressionNode?, key: String
  ) {
    self.number = number
    self.locale = locale
    self.currency = currency
    self.unit = unit
    self.minFraction = minFraction
    self.maxFraction = maxFraction
    super.init(type: .string, key: key)
  }
  override var children: [ExpressionNode] { [number] + [locale, currency, unit, minFraction, maxFraction].compactMap { $0 } }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let value = try self.number(number, input)
    var options = NumberFormatRules.Options()
    if let locale { options.locale = try string(locale, input) }
    if let currency { options.currency = try string(currency, input) }
    if let unit { options.unit = try string(unit, input) }
    if let minFraction { options.minFraction = Int(try self.number(minFraction, input)) }
    if let maxFraction { options.maxFraction = Int(try self.number(maxFraction, input)) }
    return .string(NumberFormatRules.format(value, options))
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 3 else { return context.error("Expected two arguments.") }
    guard let number = context.parse(args[1], 1, .number) else { return nil }
    guard case .object(let options) = args[2] else { return context.error("NumberFormat options argument must be an object.") }
    func option(_ name: String, _ type: ExpressionType) -> (ExpressionNode?, Bool) {
      guard let v = options[name], v.isTruthy else { return (nil, true) }
      guard let p = context.parse(v, 1, type) else { return (nil, false) }
      return (p, true)
    }
    let (locale, ok1) = option("locale", .string)
    guard ok1 else { return nil }
    let (currency, ok2) = option("currency", .string)
    guard ok2 else { return nil }
    let (unit, ok3) = option("unit", .string)
    guard ok3 else { return nil }
    if currency != nil && unit != nil { return context.error("NumberFormat options `currency` and `unit` are mutually exclusive") }
    let (minFraction, ok4) = option("min-fraction-digits", .number)
    guard ok4 else { return nil }
    let (maxFraction, ok5) = option("max-fraction-digits", .number)
    guard ok5 else { return nil }
    return NumberFormatNode(
      number: number, locale: locale, currency: currency, unit: unit, minFraction: minFraction, maxFraction: maxFraction, key: context.key)
  }
}
