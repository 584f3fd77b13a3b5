internal import _MapSnapJSON

/// The state of one legacy function's stops while they are checked in order.
private struct StopState {
  var keyType: String?
  var previousDomain: Double?
  var previousZoom: Double?
  var seen: Set<String> = []
}

extension ValidationRun {
  // MARK: - Legacy functions

  /// A legacy function (`{"stops": [[z, v], ...], "base": ...}`): its
  /// members, its kind against what `spec` allows, and each stop: domain
  /// values of one type, ascending (unique integers for categorical
  /// functions), zoom-and-property stops keyed by `{zoom, value}`, outputs
  /// checked against `spec` and never expressions.
  func legacyFunction(_ function: JSONObject, _ spec: PropertySpec, _ path: JSONPath) {
    let functionType = function["type"].flatMap(\.stringValue)
    let isZoomFunction = functionType != "categorical" && function["property"] == nil
    var isZoomAndProperty = false
    if case .array(let stops)? = function["stops"], case .array(let first)? = stops.first, case .object? = first.first {
      isZoomAndProperty = true
    }
    var state = StopState()
    members(of: function, functionMembers, path, othersAllowed: false) { key, value, at in
      switch key {
      case "stops":
        self.stops(value, at, spec: spec, functionType: functionType, zoomAndProperty: isZoomAndProperty, &state)
      case "default":
        self.value(value, spec, at)
      default:
        return false
      }
      return true
    }
    if functionType == "identity" && isZoomFunction { report(.memberMissing("property"), path) }
    if functionType != "identity" && !Self.truthy(function["stops"]) { report(.memberMissing("stops"), path) }
    if functionType == "exponential" && spec.supportsExpressions && !spec.interpolated {
      report(.functionKindUnsupported("exponential"), path)
    }
    if !isZoomFunction && !spec.supportsDataExpressions {
      report(.functionKindUnsupported("property"), path)
    } else if isZoomFunction && !spec.supportsZoomExpressions {
      report(.functionKindUnsupported("zoom"), path)
    }
    if (functionType == "categorical" || isZoomAndProperty) && function["property"] == nil {
      report(.functionPropertyMissing, path)
    }
  }

  private var functionMembers: SpecTable<MemberSpec> { Self.functionMembers }

  private static let functionMembers = SpecTable<MemberSpec>([
    "expression": MemberSpec(StyleReference.function["expression"]!),
    "stops": MemberSpec(StyleReference.function["stops"]!),
    "base": MemberSpec(StyleReference.function["base"]!),
    "property": MemberSpec(StyleReference.function["property"]!),
    "type": MemberSpec(StyleReference.function["type"]!),
    "colorSpace": MemberSpec(StyleReference.function["colorSpace"]!),
    "default": MemberSpec(StyleReference.function["default"]!),
  ])

  private func stops(
    _ value: JSONValue, _ path: JSONPath, spec: PropertySpec, functionType: String?, zoomAndProperty: Bool,
    _ state: inout StopState
  ) {
    if functionType == "identity" {
      report(.identityFunctionStops, path)
      return
    }
    guard case .array(let stops) = value else {
      report(.typeMismatch(expected: "array", found: value.typeName), path)
      return
    }
    for (i, stop) in stops.enumerated() {
      self.stop(stop, path.index(i), spec: spec, functionType: functionType, zoomAndProperty: zoomAndProperty, &state)
    }
    if stops.isEmpty { report(.functionStopsEmpty, path) }
  }

  private func stop(
    _ value: JSONValue, _ path: JSONPath, spec: PropertySpec, functionType: String?, zoomAndProperty: Bool,
    _ state: inout StopState
  ) {
    guard case .array(let pair) = value else {
      report(.typeMismatch(expected: "array", found: value.typeName), path)
      return
    }
    guard pair.count == 2 else {
      report(.arrayLength(expected: 2, found: pair.count), path)
      return
    }
    let keyPath = path.index(0)
    if zoomAndProperty {
      guard case .object(let key) = pair[0] else {
        report(.typeMismatch(expected: "object", found: pair[0].typeName), path)
        return
      }
      guard let zoom = key["zoom"] else { return report(.stopKeyMissing("zoom"), path) }
      guard key["value"] != nil else { return report(.stopKeyMissing("value"), path) }
      let zoomNumber = zoom.numberValue
      if let previous = state.previousZoom, previous != 0, let z = zoomNumber, previous > z {
        return report(.stopZoomOrder, path)
      }
      if zoomNumber != state.previousZoom {
        state.previousZoom = zoomNumber
        state.previousDomain = nil
        state.seen = []
      }
      for (name, member) in key.pairs {
        let at = keyPath.key(name)
        switch name {
        case "zoom": number(member, PropertySpec(type: "number"), at)
        case "value": stopDomain(member, at, spec: spec, functionType: functionType, &state)
        default: report(.unknownMember(name, candidates: ["zoom", "value"]), keyPath)
        }
      }
    } else {
      stopDomain(pair[0], keyPath, spec: spec, functionType: functionType, &state)
    }
    if expressions.isExpression(pair[1]) {
      report(.expressionInStop, path.index(1))
      return
    }
    self.value(pair[1], spec, path.index(1))
  }

  private func stopDomain(
    _ value: JSONValue, _ path: JSONPath, spec: PropertySpec, functionType: String?, _ state: inout StopState
  ) {
    let type = value.typeName
    if let keyType = state.keyType, keyType != type {
      return report(.stopDomainTypeChange(type, previous: keyType), path)
    }
    state.keyType = state.keyType ?? type
    guard ["number", "string", "boolean"].contains(type) else { return report(.stopDomainKind, path) }
    let categorical = functionType == "categorical"
    if type != "number" && !categorical {
      let suggest = spec.supportsDataExpressions && functionType == nil
      return report(.stopDomainNotNumber(found: type, suggestCategorical: suggest), path)
    }
    if categorical, case .number(let x) = value, x.rounded(.down) != x {
      return report(.stopDomainNotInteger(x), path)
    }
    if !categorical, case .number(let x) = value {
      if let previous = state.previousDomain, x < previous { return report(.stopDomainOrder, path) }
      state.previousDomain = x
    }
    if categorical {
      // Keys compare as the reference's object keys do: by their text.
      let key: String
      switch value {
      case .number(let x): key = JSONWriter.numberText(x)
      case .bool(let b): key = b ? "true" : "false"
      case .string(let s): key = s
      default: key = ""
      }
      if !state.seen.insert(key).inserted { report(.stopDomainDuplicate, path) }
    }
  }
}

extension JSONValue {
  var isArray: Bool {
    if case .array = self { return true }
    return false
  }

  var numberValue: Double? {
    if case .number(let x) = self { return x }
    return nil
  }
}
