internal import _MapSnapJSON

/// The parameters of one overload of a compound operator.
enum CompoundParameters {
  case fixed([ExpressionType])
  case varargs(ExpressionType)

  var text: String {
    switch self {
    case .fixed(let types): return "(" + types.map(\.name).joined(separator: ", ") + ")"
    case .varargs(let t): return "(\(t.name)...)"
    }
  }
}

/// What a compound operator's overload computes; `CompoundNode` evaluates it.
enum CompoundOp {
  case error, typeOf, toRGBA, rgb, rgba, has, hasIn, get, getIn, featureState, properties, geometryType, id
  case zoom, heatmapDensity, elevation, lineProgress, accumulated
  case plus, times, minus, negate, divide, mod, ln2, pi, e, pow, sqrt, log10, ln, log2
  case sin, cos, tan, asin, acos, atan, min, max, abs, round, floor, ceil
  case and2, andN, or2, orN, not, isSupportedScript, upcase, downcase, concat, resolvedLocale, split, join
  case filterTypeEquals
}

/// The compound operators: result type and overloads, as the specification lists them.
enum CompoundDefinitions {
  static let table: [String: (ExpressionType, [(CompoundParameters, CompoundOp)])] = {
    let n = ExpressionType.number
    let unaryMath: [(String, CompoundOp)] = [
      ("sqrt", .sqrt), ("log10", .log10), ("ln", .ln), ("log2", .log2), ("sin", .sin), ("cos", .cos), ("tan", .tan),
      ("asin", .asin), ("acos", .acos), ("atan", .atan), ("abs", .abs), ("round", .round), ("floor", .floor), ("ceil", .ceil),
    ]
    var t: [String: (ExpressionType, [(CompoundParameters, CompoundOp)])] = [
      "error": (.error, [(.fixed([.string]), .error)]),
      "typeof": (.string, [(.fixed([.value]), .typeOf)]),
      "to-rgba": (.array(.number, 4), [(.fixed([.color]), .toRGBA)]),
      "rgb": (.color, [(.fixed([n, n, n]), .rgb)]),
      "rgba": (.color, [(.fixed([n, n, n, n]), .rgba)]),
      "has": (.boolean, [(.fixed([.string]), .has), (.fixed([.string, .object]), .hasIn)]),
      "get": (.value, [(.fixed([.string]), .get), (.fixed([.string, .object]), .getIn)]),
      "feature-state": (.value, [(.fixed([.string]), .featureState)]),
      "properties": (.object, [(.fixed([]), .properties)]),
      "geometry-type": (.string, [(.fixed([]), .geometryType)]),
      "id": (.value, [(.fixed([]), .id)]),
      "zoom": (n, [(.fixed([]), .zoom)]),
      "heatmap-density": (n, [(.fixed([]), .heatmapDensity)]),
      "elevation": (n, [(.fixed([]), .elevation)]),
      "line-progress": (n, [(.fixed([]), .lineProgress)]),
      "accumulated": (n, [(.fixed([]), .accumulated)]),
      "+": (n, [(.varargs(n), .plus)]),
      "*": (n, [(.varargs(n), .times)]),
      "-": (n, [(.fixed([n, n]), .minus), (.fixed([n]), .negate)]),
      "/": (n, [(.fixed([n, n]), .divide)]),
      "%": (n, [(.fixed([n, n]), .mod)]),
      "ln2": (n, [(.fixed([]), .ln2)]),
      "pi": (n, [(.fixed([]), .pi)]),
      "e": (n, [(.fixed([]), .e)]),
      "^": (n, [(.fixed([n, n]), .pow)]),
      "min": (n, [(.varargs(n), .min)]),
      "max": (n, [(.varargs(n), .max)]),
      "all": (.boolean, [(.fixed([.boolean, .boolean]), .and2), (.varargs(.boolean), .andN)]),
      "any": (.boolean, [(.fixed([.boolean, .boolean]), .or2), (.varargs(.boolean), .orN)]),
      "!": (.boolean, [(.fixed([.boolean]), .not)]),
      "is-supported-script": (.boolean, [(.fixed([.string]), .isSupportedScript)]),
      "upcase": (.string, [(.fixed([.string]), .upcase)]),
      "downcase": (.string, [(.fixed([.string]), .downcase)]),
      "concat": (.string, [(.varargs(.value), .concat)]),
      "resolved-locale": (.string, [(.fixed([.collator]), .resolvedLocale)]),
      "split": (.array(.string, nil), [(.fixed([.string, .string]), .split)]),
      "join": (.string, [(.fixed([.array(.string, nil), .string]), .join)]),
      "filter-type-==": (.boolean, [(.fixed([.string]), .filterTypeEquals)]),
    ]
    for (name, op) in unaryMath { t[name] = (n, [(.fixed([n]), op)]) }
    return t
  }()

  /// Parses `[op, args...]` against the operator's overloads: the first
  /// overload whose arity and argument types fit wins; otherwise the errors
  /// of the only candidate, or a list of the signatures.
  static func parse(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard case .string(let name) = args[0], let (resultType, available) = table[name] else { return nil }
    let arity = args.count - 1
    let overloads = available.filter {
      if case .fixed(let p) = $0.0 { return p.count == arity }
      return true
    }
    var lastContext: ParsingContext?
    for (params, op) in overloads {
      let signatureContext = ParsingContext(path: context.path, expected: nil, scope: context.scope)
      lastContext = signatureContext
      var parsed: [ExpressionNode] = []
      var failed = false
      for i in 1..<max(args.count, 1) {
        let expected: ExpressionType
        switch params {
        case .fixed(let p): expected = p[i - 1]
        case .varargs(let t): expected = t
        }
        guard let arg = signatureContext.parse(args[i], 1 + parsed.count, expected) else {
          failed = true
          break
        }
        parsed.append(arg)
      }
      if failed { continue }
      for (i, arg) in parsed.enumerated() {
        let expected: ExpressionType
        switch params {
        case .fixed(let p): expected = p[i]
        case .varargs(let t): expected = t
        }
        signatureContext.concat(i + 1).checkSubtype(expected, arg.type)
      }
      if signatureContext.errors.isEmpty {
        return CompoundNode(name: name, op: op, type: resultType, args: parsed, key: context.key)
      }
    }
    if overloads.count == 1, let lastContext {
      context.sink.errors.append(contentsOf: lastContext.errors)
    } else {
      let listed = overloads.isEmpty ? available : overloads
      let signatures = listed.map(\.0.text).joined(separator: " | ")
      var actual: [String] = []
      for i in 1..<max(args.count, 1) {
        guard let parsed = context.parse(args[i], 1 + actual.count) else { return nil }
        actual.append(parsed.type.name)
      }
      context.error("Expected arguments of type \(signatures), but found (\(actual.joined(separator: ", "))) instead.")
    }
    return nil
  }
}
