internal import _MapSnapJSON

/// `case`: the output of the first true condition, else the fallback.
final class CaseNode: ExpressionNode, @unchecked Sendable {
  let branches: [(ExpressionNode, ExpressionNode)]
  let otherwise: ExpressionNode
  init(type: ExpressionType, branches: [(ExpressionNode, ExpressionNode)], otherwise: ExpressionNode, key: String) {
    self.branches = branches
    self.otherwise = otherwise
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { branches.flatMap { [$0.0, $0.1] } + [otherwise] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    for (test, output) in branches where try bool(test, input) { return try output.evaluate(input) }
    return try otherwise.evaluate(input)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 4 else { return context.error("Expected at least 3 arguments, but found only \(args.count - 1).") }
    guard args.count % 2 == 0 else { return context.error("Expected an odd number of arguments.") }
    var outputType: ExpressionType? = context.expected == .value ? nil : context.expected
    var branches: [(ExpressionNode, ExpressionNode)] = []
    var i = 1
    while i < args.count - 1 {
      guard let test = context.parse(args[i], i, .boolean), let result = context.parse(args[i + 1], i + 1, outputType) else { return nil }
      branches.append((test, result))
      outputType = outputType ?? result.type
      i += 2
    }
    guard let otherwise = context.parse(args[args.count - 1], args.count - 1, outputType), let outputType else { return nil }
    return CaseNode(type: outputType, branches: branches, otherwise: otherwise, key: context.key)
  }
}

/// `match`: the output whose label equals the input (same type), else the fallback.
final class MatchNode: ExpressionNode, @unchecked Sendable {
  let input: ExpressionNode
  let inputType: ExpressionType
  let numberCases: [Double: Int]
  let stringCases: [String: Int]
  let outputs: [ExpressionNode]
  let otherwise: ExpressionNode
  init(
    type: ExpressionType, input: ExpressionNode, inputType: ExpressionType, numberCases: [Double: Int], stringCases: [String: Int],
    outputs: [ExpressionNode], otherwise: ExpressionNode, key: String
  ) {
    self.input = input
    self.inputType = inputType
    self.numberCases = numberCases
    self.stringCases = stringCases
    self.outputs = outputs
    self.otherwise = otherwise
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { [input] + outputs + [otherwise] }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    switch try self.input.evaluate(input) {
    case .number(let n) where inputType == .number:
      if let i = numberCases[n] { return try outputs[i].evaluate(input) }
    case .string(let s) where inputType == .string:
      if let i = stringCases[s] { return try outputs[i].evaluate(input) }
    default: break
    }
    return try otherwise.evaluate(input)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count >= 5 else { return context.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
    guard args.count % 2 == 1 else { return context.error("Expected an even number of arguments.") }
    var inputType: ExpressionType?
    var outputType: ExpressionType? = context.expected == .value ? nil : context.expected
    var numberCases: [Double: Int] = [:], stringCases: [String: Int] = [:]
    var outputs: [ExpressionNode] = []
    var i = 2
    while i < args.count - 1 {
      var labels: [JSONValue]
      if case .array(let a) = args[i] { labels = a } else { labels = [args[i]] }
      let labelContext = context.concat(i)
      if labels.isEmpty { return labelContext.error("Expected at least one branch label.") }
      for label in labels {
        let labelType: ExpressionType
        switch label {
        case .number(let n):
          if abs(n) > 9007199254740991 { return labelContext.error("Branch labels must be integers no larger than 9007199254740991.") }
          if n != n.rounded(.down) { return labelContext.error("Numeric branch labels must be integer values.") }
          labelType = .number
        case .string: labelType = .string
        default: return labelContext.error("Branch labels must be numbers or strings.")
        }
        if let inputType {
          if labelContext.checkSubtype(inputType, labelType) != nil { return nil }
        } else {
          inputType = labelType
        }
        switch label {
        case .number(let n):
          if numberCases[n] != nil { return labelContext.error("Branch labels must be unique.") }
          numberCases[n] = outputs.count
        case .string(let s):
          if stringCases[s] != nil { return labelContext.error("Branch labels must be unique.") }
          stringCases[s] = outputs.count
        default: break
        }
      }
      guard let result = context.parse(args[i + 1], i, outputType) else { return nil }
      outputType = outputType ?? result.type
      outputs.append(result)
      i += 2
    }
    guard let input = context.parse(args[1], 1, .value),
      let otherwise = context.parse(args[args.count - 1], args.count - 1, outputType),
      let outputType, let inputType
    else { return nil }
    if input.type != .value, context.concat(1).checkSubtype(inputType, input.type) != nil { return nil }
    return MatchNode(
      type: outputType, input: input, inputType: inputType, numberCases: numberCases, stringCases: stringCases,
      outputs: outputs, otherwise: otherwise, key: context.key)
  }
}

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
