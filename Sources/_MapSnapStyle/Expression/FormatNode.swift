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
