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

/// `let`: names values for `var` in its last argument.
final class LetNode: ExpressionNode, @unchecked Sendable {
  let bindings: [(String, ExpressionNode)]
  let result: ExpressionNode
  init(bindings: [(String, ExpressionNode)], result: ExpressionNode, key: String) {
    self.bindings = bindings
    self.result = result
    super.init(type: result.type, key: key)
  }
  override var children: [ExpressionNode] { bindings.map(\.1) + [result] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    try result.evaluate(input)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 4 else { return context.error("Expected at least 3 arguments, but found \(args.count - 1) instead.") }
    var bindings: [(String, ExpressionNode)] = []
    var i = 1
    while i < args.count - 1 {
      guard case .string(let name) = args[i] else {
        return context.error("Expected string, but found \(args[i].jsTypeName) instead.", i)
      }
      if name.unicodeScalars.contains(where: { !(("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "_") }) {
        return context.error("Variable names must contain only alphanumeric characters or '_'.", i)
      }
      guard let value = context.parse(args[i + 1], i + 1) else { return nil }
      bindings.append((name, value))
      i += 2
    }
    guard let result = context.parse(args[args.count - 1], args.count - 1, context.expected, bindings: bindings) else { return nil }
    return LetNode(bindings: bindings, result: result, key: context.key)
  }
}

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

/// `global-state`: a member of the style's `state`.
final class GlobalStateNode: ExpressionNode, @unchecked Sendable {
  let property: String
  init(property: String, key: String) {
    self.property = property
    super.init(type: .value, key: key)
  }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    input.context.globalState[property] ?? .null
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else { return context.error("Expected 1 argument, but found \(args.count - 1) instead.") }
    guard case .string(let name) = args[1] else {
      return context.error("Global state property must be string, but found \(args[1].jsTypeName) instead.")
    }
    return GlobalStateNode(property: name, key: context.key)
  }
}

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
