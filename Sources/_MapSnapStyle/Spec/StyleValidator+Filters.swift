package import _MapSnapJSON

/// Which syntax a filter (or part of one) is written in. The two syntaxes
/// share operators, so a part can be `neutral`: valid and alike in both
/// (`["has", "name"]`, a boolean). A filter is read as an expression unless
/// it is `legacy`.
package enum FilterSyntax: Sendable {
  case legacy
  case neutral
  case expression

  /// The reference's classification, by operator and operand shapes: an
  /// `all` or `any` is an expression when one part is, legacy when a part is
  /// and none is an expression; `none`, `!in`, `!has` and comparisons of a
  /// name with a plain value are legacy; unknown operators are expressions.
  package static func of(_ filter: JSONValue) -> FilterSyntax {
    if case .bool = filter { return .neutral }
    guard case .array(let items) = filter, let first = items.first else { return .legacy }
    guard case .string(let op) = first else { return .expression }
    switch op {
    case "has":
      if items.count < 2 || items[1] == "$id" || items[1] == "$type" { return .legacy }
      return items.count == 2 ? .neutral : .expression
    case "in":
      if items.count >= 3, items[1].stringValue == nil || items[2].isArray { return .expression }
      return .legacy
    case "!in", "!has", "none":
      return .legacy
    case "==", "!=", ">", ">=", "<", "<=":
      return items.count != 3 || items[1].isArray || items[2].isArray ? .expression : .legacy
    case "any", "all":
      var sawLegacy = false
      for item in items.dropFirst() {
        switch of(item) {
        case .expression: return .expression
        case .legacy: sawLegacy = true
        case .neutral: break
        }
      }
      return sawLegacy ? .legacy : .neutral
    default:
      return .expression
    }
  }

  /// Whether `filter` is read as an expression (it is not wholly legacy).
  package static func isExpression(_ filter: JSONValue) -> Bool { of(filter) != .legacy }
}

extension ValidationRun {
  /// A layer's or source's `filter`. In expression syntax (anything not
  /// wholly legacy) it goes to the checker as a boolean expression, after a
  /// warning for the first legacy part mixed into it; otherwise it is
  /// checked as a legacy filter.
  func filter(_ value: JSONValue, _ path: JSONPath) {
    guard FilterSyntax.isExpression(value) else {
      legacyFilter(value, path)
      return
    }
    if let (steps, legacy) = Self.mixedLegacyPart(of: value) {
      report(Self.mixedFilterProblem(legacy), path.appending(indices: steps))
    }
    issues += expressions.check(value, spec: StyleReference.filter, context: .filter, path: path)
  }

  /// The first legacy filter inside an expression filter, through `all`,
  /// `any`, `none`, `!` and the conditions of `case`: its index steps and
  /// the part.
  static func mixedLegacyPart(of filter: JSONValue) -> ([Int], JSONValue)? {
    guard case .array(let items) = filter, case .string(let op)? = items.first else { return nil }
    let children: [Int]
    switch op {
    case "all", "any", "none": children = Array(items.indices.dropFirst())
    case "!": children = items.count > 1 ? [1] : []
    case "case": children = Array(stride(from: 1, to: items.count - 1, by: 2))
    default: children = []
    }
    for i in children {
      guard items[i].isArray else { continue }
      if !FilterSyntax.isExpression(items[i]) { return ([i], items[i]) }
      if let (steps, part) = mixedLegacyPart(of: items[i]) { return ([i] + steps, part) }
    }
    return nil
  }

  /// The problem of a legacy part inside an expression filter, with the
  /// expression that replaces it when there is one.
  static func mixedFilterProblem(_ legacy: JSONValue) -> StyleProblem {
    guard case .array(let items) = legacy, case .string(let op)? = items.first else {
      return .mixedFilter(legacy, replacement: nil)
    }
    if ["<", "<=", ">", ">="].contains(op), items.count > 1, items[1] == "$type" {
      return .filterTypeComparison(operator: op)
    }
    return .mixedFilter(legacy, replacement: expressionForLegacyFilter(items, op))
  }

  /// The expression a legacy comparison, `in` or `has` filter means, or nil.
  private static func expressionForLegacyFilter(_ items: [JSONValue], _ op: String) -> JSONValue? {
    guard items.count >= 2, case .string(let name) = items[1] else { return nil }
    let property: JSONValue = name == "$type" ? ["geometry-type"] : name == "$id" ? ["id"] : ["get", .string(name)]
    switch op {
    case "==", "!=", "<", "<=", ">", ">=":
      return items.count == 3 ? .array([.string(op), property, items[2]]) : nil
    case "in", "!in":
      let test: JSONValue = ["in", property, ["literal", .array(Array(items.dropFirst(2)))]]
      return op == "in" ? test : ["!", test]
    case "has", "!has":
      guard items.count == 2, name != "$type", name != "$id" else { return nil }
      let test: JSONValue = ["has", .string(name)]
      return op == "has" ? test : ["!", test]
    default:
      return nil
    }
  }

  func legacyFilter(_ value: JSONValue, _ path: JSONPath) {
    guard case .array(let items) = value else {
      report(.typeMismatch(expected: "array", found: value.typeName), path)
      return
    }
    guard let first = items.first else { return report(.filterEmpty, path) }
    choice(first, StyleReference.filterOperators, path.index(0))
    guard case .string(let op) = first else { return }
    switch op {
    case "<", "<=", ">", ">=", "==", "!=", "in", "!in":
      if ["<", "<=", ">", ">="].contains(op), items.count >= 2, items[1] == "$type" {
        report(.filterTypeComparison(operator: op), path)
      }
      if !["in", "!in"].contains(op), items.count != 3 { report(.filterOperandCount(operator: op, expected: 3), path) }
      if items.count >= 2 { expect("string", items[1], path.index(1)) }
      for i in items.indices.dropFirst(2) {
        if items[1] == "$type" {
          choice(items[i], StyleReference.geometryTypes, path.index(i))
        } else if !["string", "number", "boolean"].contains(items[i].typeName) {
          report(.filterOperandType(found: items[i].typeName), path.index(i))
        }
      }
    case "any", "all", "none":
      for i in items.indices.dropFirst() { legacyFilter(items[i], path.index(i)) }
    case "has", "!has":
      if items.count != 2 {
        report(.filterOperandCount(operator: op, expected: 2), path)
      } else {
        expect("string", items[1], path.index(1))
      }
    default:
      return
    }
  }
}
