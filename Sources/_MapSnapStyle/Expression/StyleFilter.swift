package import _MapSnapJSON

/// Layer filters: an expression filter, or a legacy filter (`["==", "$type",
/// "Polygon"]`, `in`, `!in`, `has`, `!has`, `all`, `any`, `none`, `$id`)
/// rewritten as the expression that means the same. They are told apart as
/// the specification's implementations tell them apart.
package enum StyleFilter {
  /// The filter's property spec: a boolean, false when the evaluation fails.
  package static let spec: PropertySpec = {
    var s = PropertySpec(type: "boolean")
    s.defaultValue = .bool(false)
    s.propertyType = "data-driven"
    s.parameters = ["zoom", "feature"]
    return s
  }()

  /// The filter as a boolean expression; a missing filter (null) passes every feature.
  package static func compile(_ json: JSONValue) -> Result<StyleExpression, ExpressionErrors> {
    if json == .null { return StyleExpression.compile(true, spec: spec) }
    let expression = isExpression(json) ? json : convert(json)
    return StyleExpression.compile(expression, spec: spec, propertyRules: false)
  }

  /// Whether `filter` is written in the expression language rather than
  /// the legacy syntax (`FilterSyntax`: a filter both read alike is taken
  /// as an expression).
  package static func isExpression(_ filter: JSONValue) -> Bool { FilterSyntax.isExpression(filter) }

  /// A legacy filter as an expression.
  static func convert(_ filter: JSONValue) -> JSONValue {
    guard case .array(let f) = filter, case .string(let op)? = f.first else { return .bool(true) }
    let key = f.count > 1 ? f[1] : .null
    func lookup(_ key: JSONValue) -> JSONValue {
      switch key {
      case "$type": return ["geometry-type"]
      case "$id": return ["id"]
      default: return ["get", key]
      }
    }
    func equals(_ value: JSONValue) -> JSONValue {
      if key == "$type" { return ["filter-type-==", value] }
      if case .array = value { return false }
      return ["==", lookup(key), value]
    }
    switch op {
    case "all": return .array(["all"] + f.dropFirst().map(convert))
    case "any": return .array(["any"] + f.dropFirst().map(convert))
    case "none": return ["!", .array(["any"] + f.dropFirst().map(convert))]
    case "==": return f.count > 2 ? equals(f[2]) : false
    case "!=": return f.count > 2 ? ["!", equals(f[2])] : false
    case "<", ">", "<=", ">=":
      guard f.count > 2 else { return false }
      let value = f[2]
      let typeName: JSONValue
      switch value {
      case .number: typeName = "number"
      case .string: typeName = "string"
      default: return false
      }
      // Legacy comparisons are false across types, never an error.
      return ["all", ["==", ["typeof", lookup(key)], typeName], [.string(op), lookup(key), value]]
    case "in": return .array(["any"] + f.dropFirst(2).map(equals))
    case "!in": return ["!", .array(["any"] + f.dropFirst(2).map(equals))]
    case "has":
      switch key {
      case "$type": return true
      case "$id": return ["!=", ["id"], .null]
      default: return ["has", key]
      }
    case "!has":
      switch key {
      case "$type": return false
      case "$id": return ["==", ["id"], .null]
      default: return ["!", ["has", key]]
      }
    default: return true
    }
  }
}
