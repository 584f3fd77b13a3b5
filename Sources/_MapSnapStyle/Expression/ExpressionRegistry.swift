internal import _MapSnapJSON

/// The operators of the expression language and the parser of each.
enum ExpressionRegistry {
  typealias Parser = @Sendable ([JSONValue], ParsingContext) -> ExpressionNode?

  private static let parsers: [String: Parser] = {
    var p: [String: Parser] = [
      "literal": LiteralParser.parse, "semiliteral": SemiliteralNode.parse, "let": LetNode.parse, "var": VarNode.parse, "global-state": GlobalStateNode.parse,
      "array": AssertionNode.parse, "boolean": AssertionNode.parse, "number": AssertionNode.parse,
      "string": AssertionNode.parse, "object": AssertionNode.parse,
      "to-boolean": CoercionNode.parse, "to-color": CoercionNode.parse, "to-number": CoercionNode.parse, "to-string": CoercionNode.parse,
      "at": AtNode.parse, "in": InNode.parseIn, "index-of": InNode.parseIndexOf, "slice": SliceNode.parse, "length": LengthNode.parse,
      "case": CaseNode.parse, "match": MatchNode.parse, "coalesce": CoalesceNode.parse,
      "==": ComparisonNode.parse, "!=": ComparisonNode.parse, "<": ComparisonNode.parse, ">": ComparisonNode.parse,
      "<=": ComparisonNode.parse, ">=": ComparisonNode.parse, "collator": CollatorNode.parse,
      "step": StepNode.parse, "interpolate": InterpolateNode.parse, "interpolate-hcl": InterpolateNode.parse,
      "interpolate-lab": InterpolateNode.parse,
      "format": FormatNode.parse, "image": ImageNode.parse, "number-format": NumberFormatNode.parse,
      "within": GeometryNode.parseWithin, "distance": GeometryNode.parseDistance,
    ]
    for name in CompoundDefinitions.table.keys { p[name] = CompoundDefinitions.parse }
    return p
  }()

  static func parser(_ op: String) -> Parser? { parsers[op] }
  static func isOperator(_ op: String) -> Bool { parsers[op] != nil }
}
