/// A `where` clause: every property named must equal the value given, or one
/// of the values of an array. Numbers compare as numbers (`1` equals `1.0`);
/// a string never equals a number.
public struct Filter: Sendable {
  /// Each property and the values it may equal; none: every feature matches.
  public var clauses: [(property: String, values: [JSONValue])] = []

  /// A `where` of these clauses (none by default: it matches everything).
  public init(clauses: [(property: String, values: [JSONValue])] = []) {
    self.clauses = clauses
  }

  /// True when every clause holds for `properties`. A missing property
  /// matches only `null`.
  public func matches(_ properties: JSONObject) -> Bool {
    for clause in clauses {
      let value = properties[clause.property] ?? .null
      if !clause.values.contains(where: { Filter.equal($0, value) }) { return false }
    }
    return true
  }

  static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    case (.null, .null): return true
    default: return false
    }
  }

}
