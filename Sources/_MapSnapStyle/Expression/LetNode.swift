internal import _MapSnapJSON

/// `let`: names values for `var` in its last argument.
final class LetNode: ExpressionNode, @unchecked Sendable {
  let bindings: [(String, ExpressionNode)]
  let result: ExpressionNode
  init(bindings: [(String, ExpressionNode)], result: ExpressionNode, key: String) {
    self.bindings = bindings
    self.result = result
    super.init(type: result.type, key: key)
  }
  override var children: [ExpressionNode] { bindings.map(\.1) + [result] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    try result.evaluate(input)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 4 else { return context.error("Expected at least 3 arguments, but found \(args.count - 1) instead.") }
    var bindings: [(String, ExpressionNode)] = []
    var i = 1
    while i < args.count - 1 {
      guard case .string(let name) = args[i] else {
        return context.error("Expected string, but found \(args[i].jsTypeName) instead.", i)
      }
      if name.unicodeScalars.contains(where: { !(("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "_") }) {
        return context.error("Variable names must contain only alphanumeric characters or '_'.", i)
      }
      guard let value = context.parse(args[i + 1], i + 1) else { return nil }
      bindings.append((name, value))
      i += 2
    }
    guard let result = context.parse(args[args.count - 1], args.count - 1, context.expected, bindings: bindings) else { return nil }
    return LetNode(bindings: bindings, result: result, key: context.key)
  }
}
