package import _MapSnapJSON

/// Where an expression stands in a style, for the rules that depend on it.
/// Only `property` expressions follow the property rules (data and zoom
/// dependence as the spec allows, zoom only as the input of a top-level
/// `step` or `interpolate`); the others compile as plain expressions of the
/// spec's type.
package enum ExpressionContext: Sendable, Equatable {
  /// The value of a paint or layout property named `name`. Layout
  /// properties may not read feature state; `text-font`'s outputs must be
  /// literals.
  case property(name: String, isLayout: Bool)
  /// A layer's or GeoJSON source's `filter` (expression syntax): boolean,
  /// no feature state.
  case filter
  /// The map expression of a cluster property: no `zoom`, no feature state.
  case clusterMap
  /// The reduce expression of a cluster property: no `zoom`, no feature state.
  case clusterReduce
  /// Any other value that takes expressions: a member of `light`, `sky` or
  /// `projection`, a legacy function's stop output or default.
  case value
}

/// The validator's seam to the expression language: what it asks of
/// expressions and colours. The expression compiler implements it (compiling
/// with `StyleExpression.compile(json, spec:)` and `StyleFilter.compile`, and
/// applying the context's rules); until then `UncheckedExpressions` checks
/// only the shape.
package protocol ExpressionChecking: Sendable {
  /// Whether `json` is written in expression syntax: a non-empty array whose
  /// first element names an operator.
  func isExpression(_ json: JSONValue) -> Bool

  /// The problems of `json` as an expression for a value of `spec`, used in
  /// `context`, at `path`: compile errors (their paths extend `path` to the
  /// offending element, `layers[0].filter[2]`) and the context's rules.
  /// Called for every value the validator reads through the expression
  /// language: expressions, and for `formatted` and `resolvedImage`
  /// properties any value that is not a string.
  func check(_ json: JSONValue, spec: PropertySpec, context: ExpressionContext, path: JSONPath) -> [StyleIssue]

  /// Whether `text` is a colour the style language reads: CSS named colours,
  /// `transparent`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`,
  /// `rgba()`, `hsl()`, `hsla()`.
  func isColor(_ text: String) -> Bool
}

/// The checker the validator uses when no expression compiler is given: an
/// expression is any array whose head is one of the specification's operators
/// (`StyleReference.expressionOperators`) and is otherwise not checked; a value
/// that is no expression where one is needed is reported as of the wrong
/// type; every string passes as a colour.
package struct UncheckedExpressions: ExpressionChecking {
  package init() {}

  package func isExpression(_ json: JSONValue) -> Bool {
    guard case .array(let items) = json, case .string(let head)? = items.first else { return false }
    return StyleReference.expressionOperators.contains(head)
  }

  package func check(_ json: JSONValue, spec: PropertySpec, context: ExpressionContext, path: JSONPath) -> [StyleIssue] {
    if isExpression(json) || spec.type == "*" { return [] }
    return [StyleIssue(.typeMismatch(expected: spec.type, found: json.typeName), at: path)]
  }

  package func isColor(_ text: String) -> Bool { true }
}

extension JSONPath {
  /// This path extended by array indices: where an expression compiler's
  /// error points inside the expression (`[2][1]` → `layers[0].filter[2][1]`).
  package func appending(indices: some Sequence<Int>) -> JSONPath {
    var path = self
    for i in indices { path = path.index(i) }
    return path
  }

  /// This path extended by an expression compiler's error key, `[2][1]`;
  /// text that is not a bracketed index is skipped.
  package func appending(expressionKey key: String) -> JSONPath {
    appending(indices: key.split(separator: "[").compactMap { Int($0.dropLast(1)) })
  }
}
