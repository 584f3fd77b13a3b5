internal import _MapSnapJSON

/// `length`: of a string (in code points) or an array.
final class LengthNode: ExpressionNode, @unchecked Sendable {
  let input: ExpressionNode
  init(input: ExpressionNode, key: String) {
    self.input = input
    super.init(type: .number, key: key)
  }
  override var children: [ExpressionNode] { [input] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let v = try self.input.evaluate(input)
    switch v {
    case .string(let s): return .number(Double(s.unicodeScalars.count))
    case .array(let a): return .number(Double(a.count))
    default: throw fail("Expected value to be of type string or array, but found \(v.type.name) instead.")
    }
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else { return context.error("Expected 1 argument, but found \(args.count - 1) instead.") }
    guard let input = context.parse(args[1], 1) else { return nil }
    guard input.type == .string || input.type.isArray || input.type == .value else {
      return context.error("Expected argument of type string or array, but found \(input.type.name) instead.")
    }
    return LengthNode(input: input, key: context.key)
  }
}
