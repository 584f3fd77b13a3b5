internal import _MapSnapJSON

/// `coalesce`: the first argument that is not null (an unavailable image
/// counts as null, except as the last resort).
final class CoalesceNode: ExpressionNode, @unchecked Sendable {
  let args: [ExpressionNode]
  init(type: ExpressionType, args: [ExpressionNode], key: String) {
    self.args = args
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { args }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    var requestedImage: StyleValue?
    for (i, arg) in args.enumerated() {
      var result = try arg.evaluate(input)
      if case .image(let image) = result, !image.available {
        if requestedImage == nil { requestedImage = result }
        result = .null
        if i == args.count - 1, let requestedImage { result = requestedImage }
      }
      if result != .null { return result }
    }
    return .null
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 2 else { return context.error("Expectected at least one argument.") }
    var outputType: ExpressionType? = context.expected == .value ? nil : context.expected
    var parsed: [ExpressionNode] = []
    for arg in args.dropFirst() {
      guard let p = context.parse(arg, 1 + parsed.count, outputType, annotation: .omit) else { return nil }
      outputType = outputType ?? p.type
      parsed.append(p)
    }
    let needsAnnotation = context.expected.map { e in parsed.contains { e.mismatch($0.type) != nil } } ?? false
    return CoalesceNode(type: needsAnnotation ? .value : (outputType ?? .value), args: parsed, key: context.key)
  }
}
