internal import _MapSnapJSON

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
