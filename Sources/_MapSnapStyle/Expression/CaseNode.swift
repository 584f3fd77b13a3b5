internal import _MapSnapJSON

/// `case`: the output of the first true condition, else the fallback.
final class CaseNode: ExpressionNode, @unchecked Sendable {
  let branches: [(ExpressionNode, ExpressionNode)]
  let otherwise: ExpressionNode
  init(type: ExpressionType, branches: [(ExpressionNode, ExpressionNode)], otherwise: ExpressionNode, key: String) {
    self.branches = branches
    self.otherwise = otherwise
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { branches.flatMap { [$0.0, $0.1] } + [otherwise] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    for (test, output) in branches where try bool(test, input) { return try output.evaluate(input) }
    return try otherwise.evaluate(input)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 4 else { return context.error("Expected at least 3 arguments, but found only \(args.count - 1).") }
    guard args.count % 2 == 0 else { return context.error("Expected an odd number of arguments.") }
    var outputType: ExpressionType? = context.expected == .value ? nil : context.expected
    var branches: [(ExpressionNode, ExpressionNode)] = []
    var i = 1
    while i < args.count - 1 {
      guard let test = context.parse(args[i], i, .boolean), let result = context.parse(args[i + 1], i + 1, outputType) else { return nil }
      branches.append((test, result))
      outputType = outputType ?? result.type
      i += 2
    }
    guard let otherwise = context.parse(args[args.count - 1], args.count - 1, outputType), let outputType else { return nil }
    return CaseNode(type: outputType, branches: branches, otherwise: otherwise, key: context.key)
  }
}
