package import _MapSnapJSON

/// One of a clustered source's `clusterProperties`: `name: [reduce, map]`.
/// Each point's properties are first mapped (`map`, evaluated on the point);
/// a cluster starts from its first member's mapped value and folds in each
/// other member's with `reduce`, which reads the running value as
/// `["accumulated"]` and the member's mapped value as `["get", name]`. A
/// bare operator `op` as the reduce part means `[op, ["accumulated"],
/// ["get", name]]`. Both are evaluated at zoom 0.
package struct ClusterProperty: Sendable {
  package let name: String
  package let map: StyleExpression
  package let reduce: StyleExpression

  /// Compiles `value` (`[operator or reduce expression, map expression]`),
  /// or says why it cannot be.
  package static func parse(name: String, _ value: JSONValue) -> Result<ClusterProperty, ClusterPropertyError> {
    guard case .array(let parts) = value, parts.count == 2 else {
      return .failure(ClusterPropertyError(message: "not a two-element array"))
    }
    let reduceJSON: JSONValue
    if case .string(let op) = parts[0] {
      reduceJSON = .array([.string(op), ["accumulated"], ["get", .string(name)]])
    } else {
      reduceJSON = parts[0]
    }
    let map: StyleExpression
    switch StyleExpression.compile(parts[1], spec: nil, propertyRules: false) {
    case .success(let e): map = e
    case .failure(let e): return .failure(ClusterPropertyError(message: "map expression: " + Self.describe(e)))
    }
    switch StyleExpression.compile(reduceJSON, spec: nil, propertyRules: false) {
    case .success(let reduce): return .success(ClusterProperty(name: name, map: map, reduce: reduce))
    case .failure(let e): return .failure(ClusterPropertyError(message: "reduce expression: " + Self.describe(e)))
    }
  }

  private static func describe(_ e: ExpressionErrors) -> String {
    e.errors.map { ($0.key.isEmpty ? "" : $0.key + ": ") + $0.message }.joined(separator: "; ")
  }

  /// A point's mapped values: each property's `map` over the point's properties.
  static func mapped(_ properties: [String: StyleValue], by list: [ClusterProperty]) -> [String: StyleValue] {
    let feature = EvaluationFeature(kind: .point, properties: properties)
    var out: [String: StyleValue] = [:]
    for p in list { out[p.name] = p.map.evaluate(EvaluationContext(zoom: 0), feature) }
    return out
  }

  /// Folds a member's mapped values `other` into the running values `accumulated`.
  static func reduce(_ accumulated: inout [String: StyleValue], _ other: [String: StyleValue], by list: [ClusterProperty]) {
    let feature = EvaluationFeature(kind: .point, properties: other)
    for p in list {
      let context = EvaluationContext(zoom: 0, accumulated: accumulated[p.name] ?? .null)
      accumulated[p.name] = p.reduce.evaluate(context, feature)
    }
  }
}

/// Why a `clusterProperties` entry cannot be compiled.
package struct ClusterPropertyError: Error, Sendable, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}
