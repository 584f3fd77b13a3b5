internal import _MapSnapJSON

/// `global-state`: a member of the style's `state`.
final class GlobalStateNode: ExpressionNode, @unchecked Sendable {
  let property: String
  init(property: String, key: String) {
    self.property = property
    super.init(type: .value, key: key)
  }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    input.context.globalState[property] ?? .null
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else { return context.error("Expected 1 argument, but found \(args.count - 1) instead.") }
    guard case .string(let name) = args[1] else {
      return context.error("Global state property must be string, but found \(args[1].jsTypeName) instead.")
    }
    return GlobalStateNode(property: name, key: context.key)
  }
}
