internal import _MapSnapJSON

/// `==`, `!=`, `<`, `>`, `<=`, `>=`, optionally under a `collator`.
final class ComparisonNode: ExpressionNode, @unchecked Sendable {
  enum Op: String { case eq = "==", ne = "!=", lt = "<", gt = ">", le = "<=", ge = ">=" }
  let op: Op
  let lhs: ExpressionNode, rhs: ExpressionNode, collator: ExpressionNode?
  let hasUntypedArgument: Bool

  init(op: Op, lhs: ExpressionNode, rhs: ExpressionNode, collator: ExpressionNode?, key: String) {
    self.op = op
    self.lhs = lhs
    self.rhs = rhs
    self.collator = collator
    self.hasUntypedArgument = lhs.type == .value || rhs.type == .value
    super.init(type: .boolean, key: key)
  }
  override var children: [ExpressionNode] { [lhs, rhs] + (collator.map { [$0] } ?? []) }

  var isOrder: Bool { op != .eq && op != .ne }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let a = try lhs.evaluate(input), b = try rhs.evaluate(input)
    if isOrder && hasUntypedArgument {
      let at = a.type, bt = b.type
      if !at.sameKind(bt) || !(at == .string || at == .number) {
        throw fail("Expected arguments for \"\(op.rawValue)\" to be (string, string) or (number, number), but found (\(ComparisonNode.kindName(at)), \(ComparisonNode.kindName(bt))) instead.")
      }
    }
    if let collator {
      if case .string(let x) = a, case .string(let y) = b, case .collator(let c) = try collator.evaluate(input) {
        return .bool(result(CollatorRules.compare(x, y, c)))
      }
      if !isOrder && hasUntypedArgument { return .bool(basic(a, b)) }
    }
    return .bool(basic(a, b))
  }

  static func kindName(_ t: ExpressionType) -> String {
    if case .array = t { return "array" }
    return t.name
  }

  private func result(_ order: Int) -> Bool {
    switch op {
    case .eq: return order == 0
    case .ne: return order != 0
    case .lt: return order < 0
    case .gt: return order > 0
    case .le: return order <= 0
    case .ge: return order >= 0
    }
  }

  private func basic(_ a: StyleValue, _ b: StyleValue) -> Bool {
    switch op {
    case .eq: return strictEquals(a, b)
    case .ne: return !strictEquals(a, b)
    default:
      switch (a, b) {
      case (.number(let x), .number(let y)):
        switch op {
        case .lt: return x < y
        case .gt: return x > y
        case .le: return x <= y
        default: return x >= y
        }
      case (.string(let x), .string(let y)):
        let order = x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : (x == y ? 0 : 1)
        return result(order)
      default: return false
      }
    }
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard case .string(let name) = args[0], let op = Op(rawValue: name) else { return nil }
    guard args.count == 3 || args.count == 4 else { return context.error("Expected two or three arguments.") }
    let isOrder = op != .eq && op != .ne
    let comparable = { (t: ExpressionType) -> Bool in
      isOrder ? [.string, .number, .value].contains(t) : [.string, .number, .boolean, .null, .value].contains(t)
    }
    guard var lhs = context.parse(args[1], 1, .value) else { return nil }
    if !comparable(lhs.type) {
      return context.concat(1).error("\"\(name)\" comparisons are not supported for type '\(lhs.type.name)'.")
    }
    guard var rhs = context.parse(args[2], 2, .value) else { return nil }
    if !comparable(rhs.type) {
      return context.concat(2).error("\"\(name)\" comparisons are not supported for type '\(rhs.type.name)'.")
    }
    if !lhs.type.sameKind(rhs.type), lhs.type != .value, rhs.type != .value {
      return context.error("Cannot compare types '\(lhs.type.name)' and '\(rhs.type.name)'.")
    }
    if isOrder {
      if lhs.type == .value, rhs.type != .value {
        lhs = AssertionNode(type: rhs.type, args: [lhs], key: "")
      } else if lhs.type != .value, rhs.type == .value {
        rhs = AssertionNode(type: lhs.type, args: [rhs], key: "")
      }
    }
    var collator: ExpressionNode?
    if args.count == 4 {
      if lhs.type != .string, rhs.type != .string, lhs.type != .value, rhs.type != .value {
        return context.error("Cannot use collator to compare non-string types.")
      }
      guard let c = context.parse(args[3], 3, .collator) else { return nil }
      collator = c
    }
    return ComparisonNode(op: op, lhs: lhs, rhs: rhs, collator: collator, key: context.key)
  }
}
