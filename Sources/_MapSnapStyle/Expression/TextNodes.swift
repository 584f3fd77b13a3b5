internal import _MapSnapJSON

/// `format`: rich text from text or image sections, each with its options.
final class FormatNode: ExpressionNode, @unchecked Sendable {
  struct Section {
    var content: ExpressionNode
    var scale: ExpressionNode?
    var font: ExpressionNode?
    var textColor: ExpressionNode?
    var verticalAlign: ExpressionNode?
  }
  let sections: [Section]
  init(sections: [Section], key: String) {
    self.sections = sections
    super.init(type: .formatted, key: key)
  }
  override var children: [ExpressionNode] {
    sections.flatMap { s in [s.content] + [s.scale, s.font, s.textColor, s.verticalAlign].compactMap { $0 } }
  }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    var out: [StyleFormattedSection] = []
    for s in sections {
      let content = try s.content.evaluate(input)
      var verticalAlign: String?
      if let v = s.verticalAlign { verticalAlign = try string(v, input) }
      if case .image(let image) = content {
        out.append(StyleFormattedSection(text: "", image: image, verticalAlign: verticalAlign))
        continue
      }
      var section = StyleFormattedSection(text: content.displayString, verticalAlign: verticalAlign)
      if let scale = s.scale { section.scale = try number(scale, input) }
      if let font = s.font, case .array(let names) = try font.evaluate(input) {
        section.fontStack = names.map(\.displayString).joined(separator: ",")
      }
      if let color = s.textColor, case .color(let c) = try color.evaluate(input) { section.textColor = c }
      out.append(section)
    }
    return .formatted(StyleFormatted(sections: out))
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 2 else { return context.error("Expected at least one argument.") }
    if case .object = args[1] { return context.error("First argument must be an image or text section.") }
    var sections: [Section] = []
    var nextMayBeOptions = false
    for i in 1..<args.count {
      if nextMayBeOptions, case .object(let options) = args[i] {
        nextMayBeOptions = false
        var scale: ExpressionNode?, font: ExpressionNode?, color: ExpressionNode?, align: ExpressionNode?
        if let v = options["font-scale"], v.isTruthy {
          guard let p = context.parse(v, 1, .number) else { return nil }
          scale = p
        }
        if let v = options["text-font"], v.isTruthy {
          guard let p = context.parse(v, 1, .array(.string, nil)) else { return nil }
          font = p
        }
        if let v = options["text-color"], v.isTruthy {
          guard let p = context.parse(v, 1, .color) else { return nil }
          color = p
        }
        if let v = options["vertical-align"], v.isTruthy {
          if case .string(let s) = v, !["bottom", "center", "top"].contains(s) {
            return context.error("'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(s)' instead.")
          }
          guard let p = context.parse(v, 1, .string) else { return nil }
          align = p
        }
        sections[sections.count - 1].scale = scale
        sections[sections.count - 1].font = font
        sections[sections.count - 1].textColor = color
        sections[sections.count - 1].verticalAlign = align
      } else {
        guard let content = context.parse(args[i], 1, .value) else { return nil }
        guard [.string, .value, .null, .resolvedImage].contains(content.type) else {
          return context.error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
        }
        nextMayBeOptions = true
        sections.append(Section(content: content))
      }
    }
    return FormatNode(sections: sections, key: context.key)
  }
}

/// `image`: an image of the style by name, and whether it is available.
final class ImageNode: ExpressionNode, @unchecked Sendable {
  let name: ExpressionNode
  init(name: ExpressionNode, key: String) {
    self.name = name
    super.init(type: .resolvedImage, key: key)
  }
  override var children: [ExpressionNode] { [name] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let v = try name.evaluate(input)
    let text = v.displayString
    if text.isEmpty { return .null }
    return .image(StyleResolvedImage(name: text, available: input.context.availableImages.contains(text)))
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else { return context.error("Expected two arguments.") }
    guard let name = context.parse(args[1], 1, .string) else { return context.error("No image name provided.") }
    return ImageNode(name: name, key: context.key)
  }
}

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
