internal import _MapSnapJSON

/// `var`: the value a `let` bound to a name.
final class VarNode: ExpressionNode, @unchecked Sendable {
  let name: String
  let bound: ExpressionNode
  init(name: String, bound: ExpressionNode, key: String) {
    self.name = name
    self.bound = bound
    super.init(type: bound.type, key: key)
  }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    try bound.evaluate(input)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2, case .string(let name) = args[1] else {
      return context.error("'var' expression requires exactly one string literal argument.")
    }
    guard let bound = context.scope?.lookup(name) else {
      return context.error("Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.", 1)
    }
    return VarNode(name: name, bound: bound, key: context.key)
  }
}
