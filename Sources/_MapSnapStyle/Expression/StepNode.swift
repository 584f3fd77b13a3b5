internal import _MapSnapJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index `i` of the stop with `labels[i] <= value < labels[i + 1]`.
func stopIndex(_ labels: [Double], _ value: Double) -> Int {
  var lo = 0, hi = labels.count - 1
  while lo <= hi {
    let mid = (lo + hi) / 2
    let current = labels[mid]
    let next = mid + 1 < labels.count ? labels[mid + 1] : .infinity
    if current <= value {
      if mid == labels.count - 1 || value < next { return mid }
      lo = mid + 1
    } else if current > value {
      hi = mid - 1
    } else {
      return 0
    }
  }
  return 0
}

/// `step`: the output of the last stop at or below the input.
final class StepNode: ExpressionNode, @unchecked Sendable {
  let input: ExpressionNode
  let labels: [Double]
  let outputs: [ExpressionNode]
  init(type: ExpressionType, input: ExpressionNode, labels: [Double], outputs: [ExpressionNode], key: String) {
    self.input = input
    self.labels = labels
    self.outputs = outputs
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { [input] + outputs }
  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    let value = try number(self.input, input)
    if labels.count == 1 || value <= labels[0] { return try outputs[0].evaluate(input) }
    if value >= labels[labels.count - 1] { return try outputs[labels.count - 1].evaluate(input) }
    return try outputs[stopIndex(labels, value)].evaluate(input)
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count - 1 >= 4 else { return context.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
    guard (args.count - 1) % 2 == 0 else { return context.error("Expected an even number of arguments.") }
    guard let input = context.parse(args[1], 1, .number) else { return nil }
    var outputType: ExpressionType? = context.expected == .value ? nil : context.expected
    var labels: [Double] = [], outputs: [ExpressionNode] = []
    var i = 1
    while i < args.count {
      let label: Double
      if i == 1 {
        label = -.infinity
      } else {
        guard case .number(let n) = args[i] else {
          return context.error("Input/output pairs for \"step\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
        }
        label = n
      }
      if let last = labels.last, last >= label {
        return context.error("Input/output pairs for \"step\" expressions must be arranged with input values in strictly ascending order.", i)
      }
      guard let parsed = context.parse(args[i + 1], i + 1, outputType) else { return nil }
      outputType = outputType ?? parsed.type
      labels.append(label)
      outputs.append(parsed)
      i += 2
    }
    return StepNode(type: outputType ?? .value, input: input, labels: labels, outputs: outputs, key: context.key)
  }
}
