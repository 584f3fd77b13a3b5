internal import _MapSnapJSON

/// `at`: an array's element by index.
final class AtNode: ExpressionNode, @unchecked Sendable {
  let index: ExpressionNode, input: ExpressionNode
  init(type: ExpressionType, index: ExpressionNode, input: ExpressionNode, key: String) {
    self.index = index
    self.input = input
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { [index, input] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let i = try number(index, input)
    let v = try self.input.evaluate(input)
    guard case .array(let items) = v else { return .null }
    if i < 0 { throw fail("Array index out of bounds: \(StyleValue.javaScriptString(i)) < 0.") }
    if i >= Double(items.count) { throw fail("Array index out of bounds: \(StyleValue.javaScriptString(i)) > \(items.count - 1).") }
    if i != i.rounded(.down) { throw fail("Array index must be an integer, but found \(StyleValue.javaScriptString(i)) instead.") }
    return items[Int(i)]
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 3 else { return context.error("Expected 2 arguments, but found \(args.count - 1) instead.") }
    guard let index = context.parse(args[1], 1, .number),
      let input = context.parse(args[2], 2, .array(context.expected ?? .value, nil))
    else { return nil }
    guard case .array(let item, _) = input.type else { return nil }
    return AtNode(type: item, index: index, input: input, key: context.key)
  }
}
