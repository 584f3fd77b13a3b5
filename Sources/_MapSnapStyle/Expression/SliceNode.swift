internal import _MapSnapJSON

/// `slice`: part of an array or a string (negative indices count from the end).
final class SliceNode: ExpressionNode, @unchecked Sendable {
  let input: ExpressionNode, begin: ExpressionNode, end: ExpressionNode?
  init(type: ExpressionType, input: ExpressionNode, begin: ExpressionNode, end: ExpressionNode?, key: String) {
    self.input = input
    self.begin = begin
    self.end = end
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { [input, begin] + (end.map { [$0] } ?? []) }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let v = try self.input.evaluate(input)
    let b = try number(begin, input)
    var e: Double?
    if let end { e = try number(end, input) }
    func range(_ count: Int) -> Range<Int> {
      func clampIndex(_ x: Double) -> Int {
        let i = x.isNaN ? 0 : Int(max(min(x.rounded(.towardZero), 1e15), -1e15))
        return i < 0 ? max(count + i, 0) : min(i, count)
      }
      let lo = clampIndex(b), hi = e.map(clampIndex) ?? count
      return lo < hi ? lo..<hi : lo..<lo
    }
    switch v {
    case .string(let s):
      let scalars = Array(s.unicodeScalars)
      var out = String.UnicodeScalarView()
      out.append(contentsOf: scalars[range(scalars.count)])
      return .string(String(out))
    case .array(let items): return .array(Array(items[range(items.count)]))
    default:
      throw fail("Expected first argument to be of type array or string, but found \(v.type.name) instead.")
    }
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 3 || args.count == 4 else { return context.error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.") }
    guard let input = context.parse(args[1], 1, .value), let begin = context.parse(args[2], 2, .number) else { return nil }
    guard input.type == .string || input.type.isArray || input.type == .value else {
      return context.error("Expected first argument to be of type array or string, but found \(input.type.name) instead")
    }
    var end: ExpressionNode?
    if args.count == 4 {
      guard let e = context.parse(args[3], 3, .number) else { return nil }
      end = e
    }
    return SliceNode(type: input.type, input: input, begin: begin, end: end, key: context.key)
  }
}
