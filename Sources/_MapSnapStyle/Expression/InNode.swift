internal import _MapSnapJSON

/// Whether a run-time value is a boolean, string, number or null (what `in` and `index-of` look for).
private func isNeedle(_ v: StyleValue) -> Bool {
  switch v {
  case .null, .bool, .string, .number: return true
  default: return false
  }
}

private func parseNeedleAndHaystack(_ args: [JSONValue], _ context: ParsingContext) -> (ExpressionNode, ExpressionNode)? {
  guard let needle = context.parse(args[1], 1, .value), let haystack = context.parse(args[2], 2, .value) else { return nil }
  guard [.boolean, .string, .number, .null, .value].contains(needle.type) else {
    context.error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type.name) instead")
    return nil
  }
  guard haystack.type == .string || haystack.type.isArray || haystack.type == .value else {
    context.error("Expected second argument to be of type array or string, but found \(haystack.type.name) instead")
    return nil
  }
  return (needle, haystack)
}

/// JavaScript's strict equality for the values `in` and `index-of` compare.
func strictEquals(_ a: StyleValue, _ b: StyleValue) -> Bool {
  switch (a, b) {
  case (.null, .null): return true
  case (.bool(let x), .bool(let y)): return x == y
  case (.number(let x), .number(let y)): return x == y
  case (.string(let x), .string(let y)): return x == y
  default: return false
  }
}

/// `in` and `index-of`: whether / where a value occurs in an array or a string.
final class InNode: ExpressionNode, @unchecked Sendable {
  let needle: ExpressionNode, haystack: ExpressionNode, fromIndex: ExpressionNode?
  let returnsIndex: Bool
  init(needle: ExpressionNode, haystack: ExpressionNode, fromIndex: ExpressionNode?, returnsIndex: Bool, key: String) {
    self.needle = needle
    self.haystack = haystack
    self.fromIndex = fromIndex
    self.returnsIndex = returnsIndex
    super.init(type: returnsIndex ? .number : .boolean, key: key)
  }
  override var children: [ExpressionNode] { [needle, haystack] + (fromIndex.map { [$0] } ?? []) }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let n = try needle.evaluate(input)
    let h = try haystack.evaluate(input)
    if !returnsIndex {
      // A missing or empty haystack holds nothing.
      switch h {
      case .null, .bool(false), .number(0), .string(""): return .bool(false)
      default: break
      }
    }
    guard isNeedle(n) else {
      throw fail("Expected first argument to be of type boolean, string, number or null, but found \(n.type.name) instead.")
    }
    var from = 0
    if let fromIndex { from = Int(try number(fromIndex, input)) }
    switch h {
    case .string(let s):
      // The needle is searched for as JavaScript writes it (`null`, `true`, `123`).
      let sub = n == .null ? "null" : n.displayString
      let i = InNode.indexOf(Array(sub.unicodeScalars), in: Array(s.unicodeScalars), from: from)
      return returnsIndex ? .number(Double(i)) : .bool(i >= 0)
    case .array(let items):
      let start = max(0, from < 0 ? items.count + from : from)
      var found = -1
      if start < items.count {
        for i in start..<items.count where strictEquals(items[i], n) {
          found = i
          break
        }
      }
      return returnsIndex ? .number(Double(found)) : .bool(found >= 0)
    default:
      throw fail("Expected second argument to be of type array or string, but found \(h.type.name) instead.")
    }
  }

  static func indexOf(_ needle: [Unicode.Scalar], in hay: [Unicode.Scalar], from: Int) -> Int {
    let start = min(max(0, from), hay.count)
    if needle.isEmpty { return start }
    guard hay.count >= needle.count else { return -1 }
    var i = start
    while i + needle.count <= hay.count {
      if hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return -1
  }

  static func parseIn(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 3 else { return context.error("Expected 2 arguments, but found \(args.count - 1) instead.") }
    guard let (n, h) = parseNeedleAndHaystack(args, context) else { return nil }
    return InNode(needle: n, haystack: h, fromIndex: nil, returnsIndex: false, key: context.key)
  }

  static func parseIndexOf(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 3 || args.count == 4 else { return context.error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.") }
    guard let (n, h) = parseNeedleAndHaystack(args, context) else { return nil }
    var from: ExpressionNode?
    if args.count == 4 {
      guard let f = context.parse(args[3], 3, .number) else { return nil }
      from = f
    }
    return InNode(needle: n, haystack: h, fromIndex: from, returnsIndex: true, key: context.key)
  }
}
