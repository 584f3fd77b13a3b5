package import _MapSnapJSON

/// Checks a whole style against the specification (`StyleReference`) as the
/// reference validator (`validateStyleMin` of maplibre-style-spec) does, and
/// returns what it finds as data, in document order. Expressions, filters in
/// expression syntax and colours are checked through `expressions`.
///
/// What is checked, as the reference checks it: the root's members (`version`
/// 8, `sources`, `layers`, camera numbers, `glyphs` tokens, `sprite`,
/// `light`, `sky`, `terrain`, `projection`, `transition`, `state`,
/// `font-faces`); each source's members by its type; each layer's members,
/// its source (present, of a kind the layer draws from, a `source-layer` for
/// vector sources), duplicate ids and `ref`; every paint and layout property
/// by its spec (type, enum values, limits, array lengths, transitions,
/// legacy functions and filters). Members the specification leaves open are
/// not reported: unknown keys at the root and in a layer, `metadata`, other
/// keys of tiled sources. Severity follows `StyleFinding`'s rule.
package struct StyleValidator: Sendable {
  package var expressions: any ExpressionChecking

  package init(expressions: any ExpressionChecking = UncheckedExpressions()) {
    self.expressions = expressions
  }

  /// The findings for `style`, read from `file` (named in each finding).
  package func validate(_ style: JSONValue, file: String) -> [StyleFinding] {
    let run = ValidationRun(style: style, expressions: expressions)
    run.root()
    return run.issues.map { StyleFinding($0, file: file) }
  }
}

/// One validation: the style, the checker and the issues found so far.
final class ValidationRun {
  let style: JSONValue
  let expressions: any ExpressionChecking
  var issues: [StyleIssue] = []

  init(style: JSONValue, expressions: any ExpressionChecking) {
    self.style = style
    self.expressions = expressions
  }

  func report(_ problem: StyleProblem, _ path: JSONPath) {
    issues.append(StyleIssue(problem, at: path))
  }

  // MARK: - Root

  func root() {
    let path = JSONPath()
    guard case .object(let object) = style else {
      report(.styleNotAnObject(found: style.typeName), path)
      return
    }
    for (key, value) in object.pairs {
      let at = path.key(key)
      switch key {
      case "version":
        if value != .number(8) { report(.versionNot8(found: value), at) }
      case "glyphs":
        glyphs(value, at)
      case "sources":
        sources(value, at)
      case "layers":
        layers(value, at)
      default:
        // Keys the specification does not name are the style's own.
        if let member = StyleReference.root[key] { self.value(value, member.spec, at) }
      }
    }
    if object["version"] == nil { report(.versionMissing, path) }
    for name in ["sources", "layers"] where object[name] == nil { report(.rootMemberMissing(name), path) }
    if Self.truthy(object["constants"]) { report(.constantsDeprecated, path.key("constants")) }
  }

  private func glyphs(_ value: JSONValue, _ path: JSONPath) {
    guard case .string(let url) = value else {
      report(.typeMismatch(expected: "string", found: value.typeName), path)
      return
    }
    for token in ["{fontstack}", "{range}"] where !url.contains(token) { report(.glyphsTokenMissing(token), path) }
  }

  // MARK: - Sources

  private func sources(_ value: JSONValue, _ path: JSONPath) {
    guard case .object(let sources) = value else {
      report(.rootMemberType(expected: "object", found: value.typeName), path)
      return
    }
    for (name, source) in sources.pairs { self.source(source, path.key(name)) }
  }

  private func source(_ value: JSONValue, _ path: JSONPath) {
    guard case .object(let object) = value, let typeValue = object["type"], Self.truthy(typeValue) else {
      report(.sourceTypeMissing, path)
      return
    }
    guard case .string(let type) = typeValue, let table = StyleReference.sourceMembers(type: type) else {
      if typeValue == "canvas" {
        report(.canvasSource, path)
      } else {
        report(.notOneOf(StyleReference.sourceTypes, found: typeValue), path.key("type"))
      }
      return
    }
    if type == "raster-dem" {
      demSource(object, table, path)
      return
    }
    members(
      of: object, table, path, othersAllowed: StyleReference.sourceAcceptsOtherMembers(type: type)
    ) { key, member, at in
      if key == "filter" {
        self.filter(member, at)
        return true
      }
      return false
    }
    if type == "geojson", Self.truthy(object["cluster"]), case .object(let properties)? = object["clusterProperties"] {
      clusterProperties(properties, path.key("clusterProperties"))
    }
  }

  /// A raster-dem source: every member must be one of the specification's
  /// (its validator does not take other keys), and the channel factors only
  /// go with the `custom` encoding.
  private func demSource(_ object: JSONObject, _ table: SpecTable<MemberSpec>, _ path: JSONPath) {
    let encoding = object["encoding"]
    for (key, value) in object.pairs {
      let at = path.key(key)
      if StyleReference.customEncodingMembers.contains(key) && encoding != "custom" {
        report(.customEncodingOnly(member: key, encoding: encoding), at)
      } else if let member = table[key] {
        self.value(value, member.spec, at)
      } else {
        report(.unknownMember(key, candidates: table.names), at)
      }
    }
  }

  /// Each cluster property is `[operator or reduce expression, map
  /// expression]`; a bare operator reduces as `[operator, ["accumulated"],
  /// ["get", name]]`.
  private func clusterProperties(_ properties: JSONObject, _ path: JSONPath) {
    let anyValue = PropertySpec.any
    for (name, value) in properties.pairs {
      guard case .array(let parts) = value, parts.count >= 2 else { continue }
      let at = path.key(name)
      let reduce: JSONValue
      if case .string(let op) = parts[0] {
        reduce = .array([.string(op), ["accumulated"], ["get", .string(name)]])
      } else {
        reduce = parts[0]
      }
      issues += expressions.check(parts[1], spec: anyValue, context: .clusterMap, path: at.index(1))
      issues += expressions.check(reduce, spec: anyValue, context: .clusterReduce, path: at.index(0))
    }
  }

  // MARK: - Members of objects

  /// Checks `object`'s members against `table`: each named member by its
  /// spec (or by `handle`, which returns true when it took the member), an
  /// unnamed one reported (at the object's path, as the reference reports
  /// it) unless `othersAllowed`, then the required members
  /// without a default that are missing (`handled` names skip this check).
  func members(
    of object: JSONObject, _ table: SpecTable<MemberSpec>, _ path: JSONPath, othersAllowed: Bool,
    handled: Set<String> = [], handle: (String, JSONValue, JSONPath) -> Bool = { _, _, _ in false }
  ) {
    for (key, value) in object.pairs {
      let at = path.key(key)
      if handle(key, value, at) { continue }
      if let member = table[key] {
        if let element = member.element, case .array = value {
          array(value, member.spec, at, element: element)
        } else {
          self.value(value, member.spec, at)
        }
      } else if !othersAllowed {
        report(.unknownMember(key, candidates: table.names), path)
      }
    }
    for (name, member) in table.entries
    where member.required && member.spec.defaultValue == nil && object[name] == nil && !handled.contains(name) {
      report(.memberMissing(name), path)
    }
  }
}

extension ValidationRun {
  /// JavaScript's truthiness, which the reference validator's presence
  /// checks use: a missing value, null, false, 0 and "" are false.
  static func truthy(_ value: JSONValue?) -> Bool { value?.isTruthy ?? false }
}
