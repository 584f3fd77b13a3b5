internal import _MapSnapJSON

/// `semiliteral`: an array whose elements are expressions (or a single
/// expression), typed by its elements.
final class SemiliteralNode: ExpressionNode, @unchecked Sendable {
  let elements: [ExpressionNode]
  init(type: ExpressionType, elements: [ExpressionNode], key: String) {
    self.elements = elements
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { elements }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    var out: [StyleValue] = []
    out.reserveCapacity(elements.count)
    for e in elements { out.append(try e.evaluate(input)) }
    return .array(out)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else {
      return context.error("'semiliteral' expression requires exactly one argument, but found \(args.count - 1) instead.")
    }
    guard case .array(let items) = args[1] else { return context.parse(args[1], 1) }
    let inner = context.concat(1)
    var elements: [ExpressionNode] = []
    var item: ExpressionType?
    for (i, json) in items.enumerated() {
      guard let e = inner.parse(json, i) else { return nil }
      elements.append(e)
      item = item == nil ? e.type : (item == e.type ? item : .value)
    }
    return SemiliteralNode(type: .array(item ?? .value, elements.count), elements: elements, key: context.key)
  }
}
