internal import _MapSnapJSON

/// `array`, `boolean`, `number`, `string`, `object` (and the assertions the
/// type checker inserts): the first argument whose value has the type, else
/// an error for the last.
final class AssertionNode: ExpressionNode, @unchecked Sendable {
  let args: [ExpressionNode]
  init(type: ExpressionType, args: [ExpressionNode], key: String) {
    self.args = args
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { args }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    for (i, arg) in args.enumerated() {
      let value = try arg.evaluate(input)
      if type.mismatch(value.type) == nil { return value }
      if i == args.count - 1 {
        throw fail("Expected value to be of type \(type.name), but found \(value.type.name) instead.")
      }
    }
    return .null
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 2 else { return context.error("Expected at least one argument.") }
    guard case .string(let name) = args[0] else { return nil }
    var i = 1
    let type: ExpressionType
    if name == "array" {
      var item = ExpressionType.value
      if args.count > 2 {
        let names: [String: ExpressionType] = ["string": .string, "number": .number, "boolean": .boolean]
        guard case .string(let t) = args[1], let it = names[t] else {
          return context.error("The item type argument of \"array\" must be one of string, number, boolean", 1)
        }
        item = it
        i += 1
      }
      var length: Int?
      if args.count > 3 {
        switch args[2] {
        case .null: break
        case .number(let n) where n >= 0 && n == n.rounded(.down): length = Int(n)
        default: return context.error("The length argument to \"array\" must be a positive integer literal", 2)
        }
        i += 1
      }
      type = .array(item, length)
    } else {
      let names: [String: ExpressionType] = ["string": .string, "number": .number, "boolean": .boolean, "object": .object]
      type = names[name] ?? .value
    }
    var parsed: [ExpressionNode] = []
    while i < args.count {
      guard let arg = context.parse(args[i], i, .value) else { return nil }
      parsed.append(arg)
      i += 1
    }
    return AssertionNode(type: type, args: parsed, key: context.key)
  }
}
