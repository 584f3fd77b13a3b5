internal import _MapSnapJSON

/// `image`: an image of the style by name, and whether it is available.
final class ImageNode: ExpressionNode, @unchecked Sendable {
  let name: ExpressionNode
  init(name: ExpressionNode, key: String) {
    self.name = name
    super.init(type: .resolvedImage, key: key)
  }
  override var children: [ExpressionNode] { [name] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let v = try name.evaluate(input)
    let text = v.displayString
    if text.isEmpty { return .null }
    return .image(StyleResolvedImage(name: text, available: input.context.availableImages.contains(text)))
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else { return context.error("Expected two arguments.") }
    guard let name = context.parse(args[1], 1, .string) else { return context.error("No image name provided.") }
    return ImageNode(name: name, key: context.key)
  }
}
