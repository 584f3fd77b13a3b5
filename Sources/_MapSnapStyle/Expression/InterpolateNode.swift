internal import _MapSnapJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `interpolate`, `interpolate-hcl`, `interpolate-lab`: a value between the
/// outputs of the two stops around the input.
final class InterpolateNode: ExpressionNode, @unchecked Sendable {
  let interpolation: Interpolation
  let space: ColorRules.Space
  let input: ExpressionNode
  let labels: [Double]
  let outputs: [ExpressionNode]
  init(
    type: ExpressionType, interpolation: Interpolation, space: ColorRules.Space, input: ExpressionNode, labels: [Double],
    outputs: [ExpressionNode], key: String
  ) {
    self.interpolation = interpolation
    self.space = space
    self.input = input
    self.labels = labels
    self.outputs = outputs
    super.init(type: type, key: key)
  }
  override var children: [ExpressionNode] { [input] + outputs }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    if labels.count == 1 { return try outputs[0].evaluate(input) }
    let value = try number(self.input, input)
    if value <= labels[0] { return try outputs[0].evaluate(input) }
    if value >= labels[labels.count - 1] { return try outputs[labels.count - 1].evaluate(input) }
    let i = stopIndex(labels, value)
    let t = interpolation.factor(value, labels[i], labels[i + 1])
    let a = try outputs[i].evaluate(input), b = try outputs[i + 1].evaluate(input)
    if type == .projectionDefinition {
      // Between two projections: the transition from the lower stop's to the upper stop's.
      let name = { (v: StyleValue) -> String in
        if case .projection(let p) = v { return t < 0.5 ? p.from : p.to }
        if case .array(let items) = v, items.count == 3 { return (t < 0.5 ? items[0] : items[1]).displayString }
        return v.displayString
      }
      return .projection(StyleProjectionTransition(from: name(a), to: name(b), transition: t))
    }
    return InterpolateNode.mix(a, b, t, space: space)
  }

  /// The value `t` of the way from `a` to `b`.
  static func mix(_ a: StyleValue, _ b: StyleValue, _ t: Double, space: ColorRules.Space) -> StyleValue {
    let m = { (x: [Double], y: [Double]) in zip(x, y).map { ColorRules.mix($0, $1, t) } }
    switch (a, b) {
    case (.number(let x), .number(let y)): return .number(ColorRules.mix(x, y, t))
    case (.color(let x), .color(let y)): return .color(ColorRules.interpolate(x, y, t, space: space))
    case (.padding(let x), .padding(let y)): return .padding(m(x, y))
    case (.numberArray(let x), .numberArray(let y)):
      guard x.count == y.count else { return t < 1 ? a : b }
      return .numberArray(m(x, y))
    case (.colorArray(let x), .colorArray(let y)):
      guard x.count == y.count else { return t < 1 ? a : b }
      return .colorArray(zip(x, y).map { ColorRules.interpolate($0, $1, t, space: space) })
    case (.anchorOffsets(let x), .anchorOffsets(let y)):
      guard x.count == y.count, zip(x, y).allSatisfy({ $0.0 == $1.0 }) else { return t < 1 ? a : b }
      return .anchorOffsets(zip(x, y).map { ($0.0, m($0.1, $1.1)) })
    case (.array(let x), .array(let y)):
      return .array(zip(x, y).map { mix($0, $1, t, space: space) })
    default: return a
    }
  }

  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard case .string(let op) = args[0] else { return nil }
    guard args.count > 1, case .array(let spec) = args[1], let kind = spec.first else {
      return context.error("Expected an interpolation type expression.", 1)
    }
    let interpolation: Interpolation
    switch kind {
    case .string("linear"): interpolation = .linear
    case .string("exponential"):
      guard spec.count > 1, case .number(let base) = spec[1] else {
        return context.error("Exponential interpolation requires a numeric base.", 1, 1)
      }
      interpolation = .exponential(base)
    case .string("cubic-bezier"):
      let points = spec.dropFirst().compactMap { v -> Double? in
        if case .number(let n) = v, n >= 0, n <= 1 { return n }
        return nil
      }
      guard spec.count == 5, points.count == 4 else {
        return context.error("Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.", 1)
      }
      interpolation = .cubicBezier(points[0], points[1], points[2], points[3])
    default:
      return context.error("Unknown interpolation type \(kind.displayText)", 1, 0)
    }
    guard args.count - 1 >= 4 else { return context.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
    guard (args.count - 1) % 2 == 0 else { return context.error("Expected an even number of arguments.") }
    guard let input = context.parse(args[2], 2, .number) else { return nil }
    var outputType: ExpressionType?
    let space: ColorRules.Space = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
    if space != .rgb {
      outputType = context.expected == .colorArray ? .colorArray : .color
    } else if context.expected != .value {
      outputType = context.expected
    }
    var labels: [Double] = [], outputs: [ExpressionNode] = []
    var i = 3
    while i < args.count {
      guard case .number(let label) = args[i] else {
        return context.error("Input/output pairs for \"interpolate\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
      }
      if let last = labels.last, last >= label {
        return context.error("Input/output pairs for \"interpolate\" expressions must be arranged with input values in strictly ascending order.", i)
      }
      guard let parsed = context.parse(args[i + 1], i + 1, outputType) else { return nil }
      outputType = outputType ?? parsed.type
      labels.append(label)
      outputs.append(parsed)
      i += 2
    }
    guard let outputType else { return nil }
    let interpolatable: Bool
    switch outputType {
    case .number, .color, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection, .projectionDefinition: interpolatable = true
    case .array(.number, let n): interpolatable = n != nil
    default: interpolatable = false
    }
    if !interpolatable { return context.error("Type \(outputType.name) is not interpolatable.") }
    return InterpolateNode(
      type: outputType, interpolation: interpolation, space: space, input: input, labels: labels, outputs: outputs, key: context.key)
  }
}

extension JSONValue {
  /// The value as JavaScript's `String(value)` writes it.
  var displayText: String { StyleValue(json: self).displayString }
}
