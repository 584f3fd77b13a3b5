internal import _MapSnapJSON

extension ValidationRun {
  /// `value` checked against `spec`: a legacy function (an object, where the
  /// spec takes expressions), an expression (through the checker), or a
  /// value of the spec's type.
  func value(_ value: JSONValue, _ spec: PropertySpec, _ path: JSONPath, context: ExpressionContext? = nil) {
    if spec.supportsExpressions, case .object(let function) = value {
      legacyFunction(function, spec, path)
      return
    }
    if spec.supportsExpressions, expressions.isExpression(value) {
      issues += expressions.check(value, spec: spec, context: context ?? .value, path: path)
      return
    }
    switch spec.type {
    case "*", "expression":
      return
    case "number":
      number(value, spec, path)
    case "string":
      expect("string", value, path)
    case "boolean":
      expect("boolean", value, path)
    case "color":
      color(value, path)
    case "enum":
      choice(value, spec.values, path)
    case "array":
      array(value, spec, path)
    case "formatted", "resolvedImage":
      // A string, or anything else read as an expression.
      if case .string = value { return }
      issues += expressions.check(value, spec: spec, context: context ?? .value, path: path)
    case "padding":
      numbers(value, path, counts: 1...4) { self.report(.paddingLength(found: $0), path) }
    case "numberArray":
      numbers(value, path, counts: 1...Int.max) { self.report(.arrayTooShort(minimum: 1, found: $0), path) }
    case "colorArray":
      colors(value, path)
    case "variableAnchorOffsetCollection":
      anchorOffsets(value, path)
    case "projectionDefinition":
      projectionDefinition(value, path)
    case "filter":
      filter(value, path)
    case "transition":
      transition(value, path)
    case "light":
      rootObject(value, path) { name, member, at in
        if name.hasSuffix(Self.transitionSuffix),
          let base = StyleReference.light[String(name.dropLast(Self.transitionSuffix.count))], base.transition
        {
          self.transition(member, at)
        } else if let spec = StyleReference.light[name] {
          self.value(member, spec, at)
        } else {
          self.report(.unknownMember(name, candidates: StyleReference.light.names), at)
        }
      }
    case "sky":
      rootObject(value, path) { self.specMember($0, $1, $2, StyleReference.sky) }
    case "projection":
      rootObject(value, path) { self.specMember($0, $1, $2, StyleReference.projection) }
    case "terrain":
      rootObject(value, path) { name, member, at in
        if let spec = StyleReference.terrain[name] {
          self.value(member, spec.spec, at)
        } else {
          self.report(.unknownMember(name, candidates: StyleReference.terrain.names), at)
        }
      }
    case "state":
      expect("object", value, path)
    case "sprite":
      sprite(value, path)
    case "fontFaces":
      fontFaces(value, path)
    case "promoteId":
      promoteId(value, path)
    default:
      return
    }
  }

  /// Reports `value` unless it is of the JSON type `type`.
  func expect(_ type: String, _ value: JSONValue, _ path: JSONPath) {
    if value.typeName != type { report(.typeMismatch(expected: type, found: value.typeName), path) }
  }

  func number(_ value: JSONValue, _ spec: PropertySpec, _ path: JSONPath) {
    guard case .number(let x) = value else {
      report(.typeMismatch(expected: "number", found: value.typeName), path)
      return
    }
    if let minimum = spec.minimum, x < minimum {
      report(.belowMinimum(x, minimum: minimum), path)
    } else if let maximum = spec.maximum, x > maximum {
      report(.aboveMaximum(x, maximum: maximum), path)
    }
  }

  func color(_ value: JSONValue, _ path: JSONPath) {
    guard case .string(let text) = value else {
      report(.typeMismatch(expected: "color", found: value.typeName), path)
      return
    }
    if !expressions.isColor(text) { report(.notAColor(text), path) }
  }

  /// Only a string names an enum value.
  func choice(_ value: JSONValue, _ values: [String], _ path: JSONPath) {
    if case .string(let s) = value, values.contains(s) { return }
    report(.notOneOf(values, found: value), path)
  }

  /// An array of the spec's length, each element checked as the spec's
  /// `value` type (enum elements against its `values`) or as `element`.
  func array(_ value: JSONValue, _ spec: PropertySpec, _ path: JSONPath, element: PropertySpec? = nil) {
    guard case .array(let items) = value else {
      report(.typeMismatch(expected: "array", found: value.typeName), path)
      return
    }
    if let length = spec.length, items.count != length {
      report(.arrayLength(expected: length, found: items.count), path)
      return
    }
    var itemSpec = element ?? PropertySpec(type: spec.value ?? "*")
    if element == nil { itemSpec.values = spec.values }
    for (i, item) in items.enumerated() { self.value(item, itemSpec, path.index(i)) }
  }

  /// A number, or an array of numbers whose count is in `counts`.
  private func numbers(_ value: JSONValue, _ path: JSONPath, counts: ClosedRange<Int>, badCount: (Int) -> Void) {
    guard case .array(let items) = value else {
      expect("number", value, path)
      return
    }
    guard counts.contains(items.count) else {
      badCount(items.count)
      return
    }
    for (i, item) in items.enumerated() { expect("number", item, path.index(i)) }
  }

  /// A colour, or a non-empty array of colours.
  private func colors(_ value: JSONValue, _ path: JSONPath) {
    guard case .array(let items) = value else {
      color(value, path)
      return
    }
    if items.isEmpty { report(.arrayTooShort(minimum: 1, found: 0), path) }
    for (i, item) in items.enumerated() { color(item, path.index(i)) }
  }

  /// Pairs of an anchor (`text-anchor`'s values) and an `[x, y]` offset.
  private func anchorOffsets(_ value: JSONValue, _ path: JSONPath) {
    guard case .array(let items) = value, !items.isEmpty, items.count % 2 == 0 else {
      report(.anchorOffsetCollection, path)
      return
    }
    let offset = PropertySpec.array(of: "number", length: 2, nil)
    for i in stride(from: 0, to: items.count, by: 2) {
      choice(items[i], StyleReference.anchors, path.index(i))
      array(items[i + 1], offset, path.index(i + 1))
    }
  }

  /// A projection name, a `[from, to, transition]` triple, or an
  /// `interpolate`, `step` or `literal` expression.
  private func projectionDefinition(_ value: JSONValue, _ path: JSONPath) {
    switch value {
    case .string:
      return
    case .array(let items):
      if items.count == 3, case .string = items[0], case .string = items[1], case .number = items[2] { return }
      if case .string(let head)? = items.first, ["interpolate", "step", "literal"].contains(head) { return }
      report(.projectionInvalid(found: value), path)
    default:
      report(.projectionInvalid(found: value), path)
    }
  }

  /// A transition object: `duration` and `delay`, milliseconds.
  func transition(_ value: JSONValue, _ path: JSONPath) {
    guard case .object(let object) = value else {
      report(.typeMismatch(expected: "object", found: value.typeName), path)
      return
    }
    for (name, member) in object.pairs {
      if let spec = StyleReference.transition[name] {
        self.value(member, spec, path.key(name))
      } else {
        report(.unknownMember(name, candidates: StyleReference.transition.names), path)
      }
    }
  }

  private func specMember(_ name: String, _ value: JSONValue, _ path: JSONPath, _ table: SpecTable<PropertySpec>) {
    if let spec = table[name] {
      self.value(value, spec, path)
    } else {
      report(.unknownMember(name, candidates: table.names), path)
    }
  }

  /// An object at the root (`light`, `sky`, `terrain`, `projection`), each
  /// member given to `member`.
  private func rootObject(_ value: JSONValue, _ path: JSONPath, member: (String, JSONValue, JSONPath) -> Void) {
    guard case .object(let object) = value else {
      report(.typeMismatch(expected: "object", found: value.typeName), path)
      return
    }
    for (name, item) in object.pairs { member(name, item, path.key(name)) }
  }

  /// A URL, or an array of `{id, url}` with unique ids and URLs.
  private func sprite(_ value: JSONValue, _ path: JSONPath) {
    guard case .array(let sprites) = value else {
      expect("string", value, path)
      return
    }
    let pair = SpecTable<MemberSpec>([
      "id": MemberSpec(.string(), required: true), "url": MemberSpec(.string(), required: true),
    ])
    var seen: [String: [JSONValue]] = [:]
    for (i, sprite) in sprites.enumerated() {
      for member in ["id", "url"] {
        guard let v = sprite[member], Self.truthy(v) else { continue }
        if seen[member, default: []].contains(v) { report(.spriteDuplicate(member: member, value: v), path) }
        seen[member, default: []].append(v)
      }
      guard case .object(let object) = sprite else {
        report(.typeMismatch(expected: "object", found: sprite.typeName), path.index(i))
        continue
      }
      members(of: object, pair, path.index(i), othersAllowed: false)
    }
  }

  /// An object whose members are font URLs or arrays of `{url,
  /// unicode-range}` faces.
  private func fontFaces(_ value: JSONValue, _ path: JSONPath) {
    guard case .object(let fonts) = value else {
      report(.typeMismatch(expected: "object", found: value.typeName), path)
      return
    }
    let face = SpecTable<MemberSpec>([
      "url": MemberSpec(.string(), required: true), "unicode-range": MemberSpec(.array(of: "string", nil)),
    ])
    for (name, font) in fonts.pairs {
      let at = path.key(name)
      switch font {
      case .string:
        continue
      case .array(let faces):
        for (i, item) in faces.enumerated() {
          guard case .object(let object) = item else {
            report(.typeMismatch(expected: "object", found: item.typeName), at.index(i))
            continue
          }
          members(of: object, face, at.index(i), othersAllowed: false)
        }
      default:
        report(.typeMismatch(expected: "string or array", found: font.typeName), at)
      }
    }
  }

  /// A property name, or an object of source layer → property name.
  private func promoteId(_ value: JSONValue, _ path: JSONPath) {
    guard case .object(let object) = value else {
      expect("string", value, path)
      return
    }
    for (layer, name) in object.pairs { expect("string", name, path.key(layer)) }
  }
}
