internal import _MapSnapJSON

/// `to-boolean`, `to-color`, `to-number`, `to-string` and the conversions the
/// type checker inserts for colours, rich text, images, padding and arrays.
final class CoercionNode: ExpressionNode, @unchecked Sendable {
  let args: [ExpressionNode]
  init(type: ExpressionType, args: [ExpressionNode], key: String) {
    self.args = args
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { args }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 2 else { return context.error("Expected at least one argument.") }
    guard case .string(let name) = args[0] else { return nil }
    if (name == "to-boolean" || name == "to-string") && args.count != 2 { return context.error("Expected one argument.") }
    let types: [String: ExpressionType] = ["to-boolean": .boolean, "to-color": .color, "to-number": .number, "to-string": .string]
    var parsed: [ExpressionNode] = []
    for i in 1..<args.count {
      guard let arg = context.parse(args[i], i, .value) else { return nil }
      parsed.append(arg)
    }
    return CoercionNode(type: types[name] ?? .value, args: parsed, key: context.key)
  }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    switch type {
    case .boolean:
      switch try args[0].evaluate(input) {
      case .null: return .bool(false)
      case .bool(let b): return .bool(b)
      case .number(let n): return .bool(n != 0 && !n.isNaN)
      case .string(let s): return .bool(!s.isEmpty)
      default: return .bool(true)
      }
    case .color:
      var last: StyleValue = .null
      var message: String?
      for arg in args {
        last = try arg.evaluate(input)
        message = nil
        switch last {
        case .color: return last
        case .string(let s): if let c = StyleColor(css: s) { return .color(c) }
        case .array(let items):
          switch ColorRules.colorFromArray(items) {
          case .success(let c): return .color(c)
          case .failure(let e): message = e.message
          }
        default: break
        }
      }
      throw fail(message ?? "Could not parse color from value '\(ColorRules.describe(last))'")
    case .number:
      var last: StyleValue = .null
      for arg in args {
        last = try arg.evaluate(input)
        if case .null = last { return .number(0) }
        if let n = CoercionNode.jsNumber(last), !n.isNaN { return .number(n) }
      }
      throw fail("Could not convert \(last.compactJSON) to number.")
    case .string:
      return .string(try args[0].evaluate(input).displayString)
    case .formatted:
      let v = try args[0].evaluate(input)
      if case .formatted = v { return v }
      return .formatted(StyleFormatted(sections: [StyleFormattedSection(text: v.displayString)]))
    case .resolvedImage:
      let v = try args[0].evaluate(input)
      if case .image = v { return v }
      let name = v.displayString
      return .image(StyleResolvedImage(name: name, available: input.context.availableImages.contains(name)))
    case .projectionDefinition:
      // A projection's name, or [from, to, transition].
      let v = try args[0].evaluate(input)
      switch v {
      case .string, .projection: return v
      case .array(let items):
        if items.count == 3, case .string = items[0], case .string = items[1], case .number = items[2] { return v }
      default: break
      }
      throw fail("Could not parse projectionDefinition from value '\(ColorRules.describe(v))'")
    case .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection:
      var last: StyleValue = .null
      for arg in args {
        last = try arg.evaluate(input)
        if let v = RichValues.convert(last, to: type) { return v }
      }
      throw fail("Could not parse \(type.name) from value '\(ColorRules.describe(last))'")
    default:
      return try args[0].evaluate(input)
    }
  }

  /// JavaScript's `Number(value)`.
  static func jsNumber(_ v: StyleValue) -> Double? {
    switch v {
    case .null: return 0
    case .bool(let b): return b ? 1 : 0
    case .number(let n): return n
    case .string(let s):
      let t = s.trimmingSpaces
      if t.isEmpty { return 0 }
      if t.hasPrefix("0x") || t.hasPrefix("0X") { return UInt64(t.dropFirst(2), radix: 16).map(Double.init) ?? .nan }
      if t == "Infinity" || t == "+Infinity" { return .infinity }
      if t == "-Infinity" { return -.infinity }
      guard t.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else { return .nan }
      return Double(t) ?? .nan
    case .array(let items):
      if items.isEmpty { return 0 }
      if items.count == 1 { return jsNumber(.string(items[0].displayString)) }
      return .nan
    default: return .nan
    }
  }
}
