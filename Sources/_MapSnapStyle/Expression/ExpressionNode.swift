/// A compiled expression: a node of the tree the parser builds, with its
/// static type and the key path of the JSON it came from. Subclasses
/// evaluate themselves; evaluation allocates nothing beyond the values it
/// builds.
class ExpressionNode: @unchecked Sendable {
  let type: ExpressionType
  let key: String

  init(type: ExpressionType, key: String) {
    self.type = type
    self.key = key
  }

  /// The node's value for one evaluation; every node kind overrides it.
  func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    preconditionFailure("\(Self.self) does not evaluate")
  }

  /// The sub-expressions, for the static analyses (feature or zoom dependence, zoom curves).
  var children: [ExpressionNode] { [] }

  /// An error raised by this node.
  final func fail(_ message: String) -> ExpressionEvaluationError {
    ExpressionEvaluationError(message, key: key)
  }

  /// `child`'s number; an error when it is not one.
  final func number(_ child: ExpressionNode, _ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> Double {
    let v = try child.evaluate(input)
    if case .number(let n) = v { return n }
    throw child.fail("Expected value to be of type number, but found \(v.type.name) instead.")
  }

  final func string(_ child: ExpressionNode, _ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> String {
    let v = try child.evaluate(input)
    if case .string(let s) = v { return s }
    throw child.fail("Expected value to be of type string, but found \(v.type.name) instead.")
  }

  final func bool(_ child: ExpressionNode, _ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> Bool {
    let v = try child.evaluate(input)
    if case .bool(let b) = v { return b }
    throw child.fail("Expected value to be of type boolean, but found \(v.type.name) instead.")
  }
}

/// A constant: `literal`, a bare JSON value, or a constant sub-expression folded at compile time.
final class LiteralNode: ExpressionNode, @unchecked Sendable {
  let value: StyleValue
  init(_ value: StyleValue, type: ExpressionType, key: String) {
    self.value = value
    super.init(type: type, key: key)
  }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue { value }
}
