internal import _MapSnapJSON

/// How a parsed expression whose type is less precise than expected is made
/// to fit: a run-time assertion, a conversion, or neither (`coalesce`).
enum TypeAnnotation {
  case assert, coerce, omit
}

/// The `let` bindings in scope, innermost last.
final class ParsingScope {
  let parent: ParsingScope?
  let bindings: [(String, ExpressionNode)]
  init(parent: ParsingScope?, bindings: [(String, ExpressionNode)]) {
    self.parent = parent
    self.bindings = bindings
  }
  func lookup(_ name: String) -> ExpressionNode? {
    if let hit = bindings.last(where: { $0.0 == name }) { return hit.1 }
    return parent?.lookup(name)
  }
}

/// Where the errors of one parse collect (shared by the contexts of its sub-expressions).
final class ErrorSink {
  var errors: [ExpressionError] = []
}

/// The state of parsing at one point of the expression tree: the key path,
/// the type the parent expects, the `let` bindings in scope and where
/// errors go.
final class ParsingContext {
  let path: [Int]
  let key: String
  let expected: ExpressionType?
  let scope: ParsingScope?
  let sink: ErrorSink

  init(path: [Int] = [], expected: ExpressionType?, scope: ParsingScope? = nil, sink: ErrorSink = ErrorSink()) {
    self.path = path
    self.key = path.map { "[\($0)]" }.joined()
    self.expected = expected
    self.scope = scope
    self.sink = sink
  }

  var errors: [ExpressionError] { sink.errors }

  /// The context of the argument at `index` (index 0 keeps this path, as
  /// the reference implementation does).
  func concat(_ index: Int?, expected: ExpressionType? = nil, bindings: [(String, ExpressionNode)]? = nil) -> ParsingContext {
    let newPath = index.map { path + [$0] } ?? path
    let newScope = bindings.map { ParsingScope(parent: scope, bindings: $0) } ?? scope
    return ParsingContext(path: newPath, expected: expected, scope: newScope, sink: sink)
  }

  /// Records an error at this key, or at a child of it; returns nil for `return ctx.error(...)`.
  @discardableResult
  func error(_ message: String, _ keys: Int...) -> ExpressionNode? {
    sink.errors.append(ExpressionError(key: key + keys.map { "[\($0)]" }.joined(), message: message))
    return nil
  }

  /// Records and returns the mismatch message when `actual` cannot stand for `expected`.
  @discardableResult
  func checkSubtype(_ expected: ExpressionType, _ actual: ExpressionType) -> String? {
    let message = expected.mismatch(actual)
    if let message { error(message) }
    return message
  }

  func parse(
    _ json: JSONValue, _ index: Int? = nil, _ expected: ExpressionType? = nil,
    bindings: [(String, ExpressionNode)]? = nil, annotation: TypeAnnotation? = nil
  ) -> ExpressionNode? {
    if let index, index != 0 {
      return concat(index, expected: expected, bindings: bindings).parseHere(json, annotation: annotation)
    }
    return parseHere(json, annotation: annotation)
  }

  private func parseHere(_ json: JSONValue, annotation: TypeAnnotation?) -> ExpressionNode? {
    var args: [JSONValue]
    switch json {
    case .null, .bool, .number, .string: args = ["literal", json]
    case .array(let a): args = a
    case .object: return error("Bare objects invalid. Use [\"literal\", {...}] instead.")
    }
    guard let first = args.first else {
      return error("Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].")
    }
    guard case .string(let op) = first else {
      return error("Expression name must be a string, but found \(first.jsTypeName) instead. If you wanted a literal array, use [\"literal\", [...]].", 0)
    }
    guard let parser = ExpressionRegistry.parser(op) else {
      return error("Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].", 0)
    }
    guard var parsed = parser(args, self) else { return nil }
    if let expected {
      let actual = parsed.type
      if [.string, .number, .boolean, .object].contains(expected) || expected.isArray, actual == .value {
        parsed = annotate(parsed, expected, annotation ?? .assert)
      } else if needsCoercion(expected, actual) {
        parsed = annotate(parsed, expected, annotation ?? .coerce)
      } else if checkSubtype(expected, actual) != nil {
        return nil
      }
    }
    // A sub-expression of constants is folded into its value now (images wait
    // for the available images of an evaluation).
    if !(parsed is LiteralNode), parsed.type != .resolvedImage, ExpressionAnalysis.isConstant(parsed) {
      do {
        let value = try parsed.evaluate(EvaluationInput(EvaluationContext(), nil))
        parsed = LiteralNode(value, type: parsed.type, key: parsed.key)
      } catch {
        return self.error(error.message)
      }
    }
    return parsed
  }

  private func needsCoercion(_ expected: ExpressionType, _ actual: ExpressionType) -> Bool {
    switch expected {
    case .projectionDefinition: return actual == .string || actual.isArray || actual == .value
    case .color, .formatted, .resolvedImage: return actual == .value || actual == .string
    case .padding, .numberArray: return actual == .value || actual == .number || actual.isArray
    case .colorArray: return actual == .value || actual == .string || actual.isArray
    case .variableAnchorOffsetCollection: return actual == .value || actual.isArray
    default: return false
    }
  }

  private func annotate(_ parsed: ExpressionNode, _ type: ExpressionType, _ annotation: TypeAnnotation) -> ExpressionNode {
    switch annotation {
    case .assert: return AssertionNode(type: type, args: [parsed], key: key)
    case .coerce: return CoercionNode(type: type, args: [parsed], key: key)
    case .omit: return parsed
    }
  }
}

extension JSONValue {
  /// The name JavaScript's `typeof` gives this value.
  var jsTypeName: String {
    switch self {
    case .null, .array, .object: return "object"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    }
  }
}
