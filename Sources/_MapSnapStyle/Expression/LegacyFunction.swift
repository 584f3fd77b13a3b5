internal import _MapSnapJSON

/// Legacy property functions (`{"stops": ..., "property": ..., "type": ...}`)
/// rewritten as the expressions that mean the same: identity functions as
/// `get` with an assertion or conversion, categorical as `match` (or `case`
/// for boolean stops), interval as `step`, exponential as `interpolate` (in
/// the `colorSpace` given), zoom-and-property functions as a zoom curve of
/// property curves; a `default` is the fallback for inputs of the wrong type.
enum LegacyFunction {
  static func convert(_ function: JSONValue, spec: PropertySpec) -> JSONValue {
    guard case .object(let parameters) = function else { return function }
    guard case .array(let rawStops)? = parameters["stops"] else { return identity(parameters, spec) }
    let zoomAndFeature: Bool
    if case .array(let first)? = rawStops.first, case .object? = first.first { zoomAndFeature = true } else { zoomAndFeature = false }
    let featureDependent = zoomAndFeature || parameters["property"] != nil
    let zoomDependent = zoomAndFeature || !featureDependent
    let stops: [(JSONValue, JSONValue)] = rawStops.compactMap { stop in
      guard case .array(let pair) = stop, pair.count == 2 else { return nil }
      if !featureDependent, spec.tokens, case .string(let s) = pair[1] { return (pair[0], tokenString(s)) }
      return (pair[0], literal(pair[1]))
    }
    if zoomAndFeature { return zoomAndProperty(parameters, spec, stops) }
    if zoomDependent { return zoomFunction(parameters, spec, stops) }
    return propertyFunction(parameters, spec, stops)
  }

  private static func literal(_ v: JSONValue) -> JSONValue {
    switch v {
    case .array, .object: return ["literal", v]
    default: return v
    }
  }

  private static func identity(_ p: JSONObject, _ spec: PropertySpec) -> JSONValue {
    let get: JSONValue = ["get", p["property"] ?? .null]
    guard let fallback = p["default"] else { return spec.type == "string" ? ["string", get] : get }
    if spec.type == "enum" {
      return ["match", get, .array(spec.values.map { .string($0) }), get, fallback]
    }
    var e: [JSONValue] = [.string(spec.type == "color" ? "to-color" : spec.type), get, literal(fallback)]
    if spec.type == "array" {
      e.insert(contentsOf: [spec.value.map { .string($0) } ?? .null, spec.length.map { .number(Double($0)) } ?? .null], at: 1)
    }
    return .array(e)
  }

  private static func interpolateOperator(_ p: JSONObject) -> JSONValue {
    switch p["colorSpace"] {
    case .string("hcl")?: return "interpolate-hcl"
    case .string("lab")?: return "interpolate-lab"
    default: return "interpolate"
    }
  }

  private static func functionType(_ p: JSONObject, _ spec: PropertySpec) -> String {
    if case .string(let t)? = p["type"] { return t }
    return spec.interpolated ? "exponential" : "interval"
  }

  private static func zoomAndProperty(_ p: JSONObject, _ spec: PropertySpec, _ stops: [(JSONValue, JSONValue)]) -> JSONValue {
    var zooms: [Double] = []
    var byZoom: [Double: [(JSONValue, JSONValue)]] = [:]
    for (input, output) in stops {
      guard case .object(let o) = input, case .number(let z)? = o["zoom"] else { continue }
      if byZoom[z] == nil {
        zooms.append(z)
        byZoom[z] = []
      }
      byZoom[z]!.append((o["value"] ?? .null, output))
    }
    let exponential = functionType(JSONObject(), spec) == "exponential"
    var e: [JSONValue] = exponential ? [interpolateOperator(p), ["linear"], ["zoom"]] : ["step", ["zoom"]]
    for z in zooms {
      let output = propertyFunction(p, spec, byZoom[z]!)
      appendStop(&e, .number(z), output, isStep: !exponential)
    }
    fixDegenerateStep(&e)
    return .array(e)
  }

  private static func fallback(_ p: JSONObject, _ spec: PropertySpec) -> JSONValue {
    if let d = p["default"] { return literal(d) }
    if let d = spec.defaultValue { return literal(d) }
    return spec.type == "resolvedImage" ? "" : .null
  }

  private static func propertyFunction(_ p: JSONObject, _ spec: PropertySpec, _ stops: [(JSONValue, JSONValue)]) -> JSONValue {
    let type = functionType(p, spec)
    let get: JSONValue = ["get", p["property"] ?? .null]
    let typeGuard = { (e: JSONValue) -> JSONValue in
      guard let d = p["default"] else { return e }
      return ["case", ["==", ["typeof", get], "number"], e, literal(d)]
    }
    switch type {
    case "categorical":
      if case .bool? = stops.first?.0 {
        var e: [JSONValue] = ["case"]
        for (input, output) in stops { e += [["==", get, input], output] }
        e.append(fallback(p, spec))
        return .array(e)
      }
      var e: [JSONValue] = ["match", get]
      for (input, output) in stops { appendStop(&e, input, output, isStep: false) }
      e.append(fallback(p, spec))
      return .array(e)
    case "interval":
      var e: [JSONValue] = ["step", ["number", get]]
      for (input, output) in stops { appendStop(&e, input, output, isStep: true) }
      fixDegenerateStep(&e)
      return typeGuard(.array(e))
    default:
      var base = 1.0
      if case .number(let b)? = p["base"] { base = b }
      var e: [JSONValue] = [interpolateOperator(p), base == 1 ? ["linear"] : ["exponential", .number(base)], ["number", get]]
      for (input, output) in stops { appendStop(&e, input, output, isStep: false) }
      return typeGuard(.array(e))
    }
  }

  private static func zoomFunction(_ p: JSONObject, _ spec: PropertySpec, _ stops: [(JSONValue, JSONValue)]) -> JSONValue {
    let type = functionType(p, spec)
    var e: [JSONValue]
    let isStep = type == "interval"
    if isStep {
      e = ["step", ["zoom"]]
    } else {
      var base = 1.0
      if case .number(let b)? = p["base"] { base = b }
      e = [interpolateOperator(p), base == 1 ? ["linear"] : ["exponential", .number(base)], ["zoom"]]
    }
    for (input, output) in stops { appendStop(&e, input, output, isStep: isStep) }
    fixDegenerateStep(&e)
    return .array(e)
  }

  /// A step curve with one output gets a no-op stop, as `step` needs one.
  private static func fixDegenerateStep(_ e: inout [JSONValue]) {
    if e.first == "step", e.count == 3 { e += [0, e[2]] }
  }

  /// Appends a stop, skipping a repeated input (functions allowed them) and
  /// a step curve's first input (`step` has none).
  private static func appendStop(_ e: inout [JSONValue], _ input: JSONValue, _ output: JSONValue, isStep: Bool) {
    if e.count > 3, input == e[e.count - 2] { return }
    if !(isStep && e.count == 2) { e.append(input) }
    e.append(output)
  }

  /// "Text with {name} tokens" as `concat` of the text and `get`s.
  static func tokenString(_ s: String) -> JSONValue {
    var parts: [JSONValue] = ["concat"]
    var literalText = ""
    var i = s.startIndex
    var sawToken = false
    while i < s.endIndex {
      if s[i] == "{", let close = s[s.index(after: i)...].firstIndex(where: { $0 == "}" || $0 == "{" }), s[close] == "}",
        close > s.index(after: i)
      {
        if !literalText.isEmpty { parts.append(.string(literalText)) }
        literalText = ""
        parts.append(["get", .string(String(s[s.index(after: i)..<close]))])
        sawToken = true
        i = s.index(after: close)
      } else {
        literalText.append(s[i])
        i = s.index(after: i)
      }
    }
    if !sawToken { return .string(s) }
    if !literalText.isEmpty {
      parts.append(.string(literalText))
    } else if parts.count == 2 {
      return ["to-string", parts[1]]
    }
    return .array(parts)
  }
}
