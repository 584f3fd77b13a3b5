internal import _MapSnapJSON

/// `literal`: a JSON value taken as it is.
enum LiteralParser {
  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else {
      return context.error("'literal' expression requires exactly one argument, but found \(args.count - 1) instead.")
    }
    let value = StyleValue(json: args[1])
    var type = value.type
    if case .array(_, let n) = type, n == 0, let expected = context.expected, case .array(_, let en) = expected, en == nil || en == 0 {
      type = expected
    }
    return LiteralNode(value, type: type, key: context.key)
  }
}
