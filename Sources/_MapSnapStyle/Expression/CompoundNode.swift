internal import _MapSnapJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A compound operator applied to its arguments (math, lookups, strings, ...).
final class CompoundNode: ExpressionNode, @unchecked Sendable {
  let name: String
  let op: CompoundOp
  let args: [ExpressionNode]

  init(name: String, op: CompoundOp, type: ExpressionType, args: [ExpressionNode], key: String) {
    self.name = name
    self.op = op
    self.args = args
    super.init(type: type, key: key)
  }

  override var children: [ExpressionNode] { args }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    switch op {
    case .error: throw fail(try string(args[0], input))
    case .typeOf: return .string(try args[0].evaluate(input).type.name)
    case .toRGBA:
      guard case .color(let c) = try args[0].evaluate(input) else { return .null }
      return .array([.number(c.r * 255), .number(c.g * 255), .number(c.b * 255), .number(c.a)])
    case .rgb, .rgba:
      var v: [Double] = []
      for a in args { v.append(try number(a, input)) }
      if let message = ColorRules.validateRGBA(v) { throw fail(message) }
      return .color(StyleColor(r: v[0] / 255, g: v[1] / 255, b: v[2] / 255, a: v.count == 4 ? v[3] : 1))
    case .has:
      let k = try string(args[0], input)
      return .bool(input.feature?.properties[k] != nil)
    case .hasIn:
      let k = try string(args[0], input)
      guard case .object(let members) = try args[1].evaluate(input) else { return .bool(false) }
      return .bool(members.contains { $0.0 == k })
    case .get:
      let k = try string(args[0], input)
      return input.feature?.properties[k] ?? .null
    case .getIn:
      let k = try string(args[0], input)
      guard case .object(let members) = try args[1].evaluate(input) else { return .null }
      return members.first { $0.0 == k }?.1 ?? .null
    case .featureState:
      let k = try string(args[0], input)
      return input.context.featureState[k] ?? .null
    case .properties:
      guard let f = input.feature else { return .object([]) }
      return .object(f.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    case .geometryType:
      guard let f = input.feature else { return .null }
      switch f.kind {
      case .point: return .string(f.isMulti ? "MultiPoint" : "Point")
      case .lineString: return .string(f.isMulti ? "MultiLineString" : "LineString")
      case .polygon: return .string(f.isMulti ? "MultiPolygon" : "Polygon")
      case .unknown: return .string("Unknown")
      }
    case .filterTypeEquals:
      let want = try string(args[0], input)
      guard let f = input.feature else { return .bool(false) }
      let names = ["Unknown", "Point", "LineString", "Polygon"]
      return .bool(names[Int(f.kind.rawValue)] == want)
    case .id: return input.feature?.id ?? .null
    case .zoom: return .number(input.context.zoom ?? 0)
    case .heatmapDensity: return .number(input.context.heatmapDensity ?? 0)
    case .elevation: return .number(input.context.elevation ?? 0)
    case .lineProgress: return .number(input.context.lineProgress ?? 0)
    case .accumulated: return input.context.accumulated ?? .number(0)
    case .plus:
      var s = 0.0
      for a in args { s += try number(a, input) }
      return .number(s)
    case .times:
      var p = 1.0
      for a in args { p *= try number(a, input) }
      return .number(p)
    case .minus: return .number(try number(args[0], input) - number(args[1], input))
    case .negate: return .number(-(try number(args[0], input)))
    case .divide: return .number(try number(args[0], input) / number(args[1], input))
    case .mod:
      let a = try number(args[0], input), b = try number(args[1], input)
      return .number(a.truncatingRemainder(dividingBy: b))
    case .ln2: return .number(0.6931471805599453)
    case .pi: return .number(Double.pi)
    case .e: return .number(2.718281828459045)
    case .pow: return .number(pow(try number(args[0], input), try number(args[1], input)))
    case .sqrt: return .number(try number(args[0], input).squareRoot())
    case .log10: return .number(log10(try number(args[0], input)))
    case .ln: return .number(log(try number(args[0], input)))
    case .log2: return .number(log2(try number(args[0], input)))
    case .sin: return .number(sin(try number(args[0], input)))
    case .cos: return .number(cos(try number(args[0], input)))
    case .tan: return .number(tan(try number(args[0], input)))
    case .asin: return .number(asin(try number(args[0], input)))
    case .acos: return .number(acos(try number(args[0], input)))
    case .atan: return .number(atan(try number(args[0], input)))
    case .min, .max:
      var r = op == .min ? Double.infinity : -Double.infinity
      for a in args {
        let v = try number(a, input)
        if v.isNaN { r = .nan } else if !r.isNaN { r = op == .min ? Swift.min(r, v) : Swift.max(r, v) }
      }
      return .number(r)
    case .abs: return .number(Swift.abs(try number(args[0], input)))
    case .round:
      // Half away from zero.
      let v = try number(args[0], input)
      return .number(v.rounded(.toNearestOrAwayFromZero))
    case .floor: return .number((try number(args[0], input)).rounded(.down))
    case .ceil: return .number((try number(args[0], input)).rounded(.up))
    case .and2, .andN:
      for a in args where !(try bool(a, input)) { return .bool(false) }
      return .bool(true)
    case .or2, .orN:
      for a in args where try bool(a, input) { return .bool(true) }
      return .bool(false)
    case .not: return .bool(!(try bool(args[0], input)))
    // Every script is supported: the renderer shapes text with HarfBuzz and FriBidi.
    case .isSupportedScript: return .bool(true)
    case .upcase: return .string(try string(args[0], input).uppercased())
    case .downcase: return .string(try string(args[0], input).lowercased())
    case .concat:
      var s = ""
      for a in args { s += try a.evaluate(input).displayString }
      return .string(s)
    case .resolvedLocale:
      guard case .collator(let c) = try args[0].evaluate(input) else { return .null }
      return .string(CollatorRules.resolvedLocale(c))
    case .split:
      let s = try string(args[0], input), sep = try string(args[1], input)
      if sep.isEmpty { return .array(s.map { .string(String($0)) }) }
      return .array(s.components(separatedBy: sep).map { .string($0) })
    case .join:
      guard case .array(let items) = try args[0].evaluate(input) else { return .null }
      let sep = try string(args[1], input)
      return .string(items.map(\.displayString).joined(separator: sep))
    }
  }
}

extension String {
  /// The pieces between occurrences of `separator` (which is not empty).
  func components(separatedBy separator: String) -> [String] {
    var pieces: [String] = []
    var rest = self[...]
    while let range = rest.range(of: separator) {
      pieces.append(String(rest[..<range.lowerBound]))
      rest = rest[range.upperBound...]
    }
    pieces.append(String(rest))
    return pieces
  }
}

extension Substring {
  func range(of needle: String) -> Range<Index>? {
    guard !needle.isEmpty else { return nil }
    var i = startIndex
    while i < endIndex {
      if self[i...].hasPrefix(needle) {
        return i..<index(i, offsetBy: needle.count)
      }
      i = index(after: i)
    }
    return nil
  }
}
