extension LayerResolver {
  /// The `where` filters of a features layer's rules, each under its key.
  static func whereClauses(_ styling: Styling) -> [(key: String, filter: Filter)] {
    guard case .rules(let rules) = styling else { return [] }
    return rules.enumerated().map { ("rules[\($0)].where", $1.filter) }
  }

  /// Warns about each `where` value that no feature of the layer's whole
  /// source holds, as `checkProperties` warns about names. Rule: a value
  /// (a string, number or boolean; `null` matches a missing property and
  /// is never warned about) is unmatched when the source has features, the
  /// property is one of its names (else the name is the problem), and no
  /// feature holds the value, compared as `where` compares (`"open"` is not
  /// `"Open"`, `1` is `1.0`). The hint is the closest value the source holds
  /// with the same text in another kind (`7` for `"7"`, `"7"` for `7`,
  /// `"true"` for `true`), else for a string the closest string, one equal
  /// but for case first, else within a case-insensitive edit distance of 2.
  /// A value used by several keys
  /// is one problem naming every key. The source's values are an aggregate
  /// of its index, gathered once per property (`SourceIndex.heldValues`).
  /// An `ogr` source is checked only when every feature of its layer lies
  /// within what this frame asked to read (all of them, or their bounds
  /// meet the frame grown by the read's reach): a read of part of it is
  /// not the whole source, and a larger read kept from another frame (in a
  /// batch) must not decide for this one.
  mutating func checkValues(_ clauses: [(key: String, filter: Filter)], of index: SourceIndex) {
    let collection = index.collection
    guard !collection.features.isEmpty || !collection.withoutGeometry.isEmpty else { return }
    if let o = state.ogr {
      guard let total = o.featuresInLayer, let reach = ogrRequestReach else { return }
      let asked = reach.isNaN ? collection.features.count + collection.withoutGeometry.count
        : index.features(near: viewport.extent, reach: reach * viewport.unitsPerPixel).count
      guard asked == total else { return }
    }
    let names = index.propertyNames().set
    var unmatched: [(property: String, value: JSONValue, keys: [String])] = []
    for (key, filter) in clauses {
      for clause in filter.clauses where names.contains(clause.property) {
        let held = index.heldValues(clause.property)
        for value in clause.values where !held.holds(value) {
          if let k = unmatched.firstIndex(where: { $0.property == clause.property && Filter.equal($0.value, value) }) {
            if !unmatched[k].keys.contains(key) { unmatched[k].keys.append(key) }
          } else {
            unmatched.append((clause.property, value, [key]))
          }
        }
      }
    }
    for u in unmatched {
      let held = index.heldValues(u.property)
      state.add(
        .unmatchedValue(key: u.keys.joined(separator: ", "), property: u.property, value: u.value, suggestion: Self.closest(to: u.value, in: held)))
    }
  }

  /// The value `held` holds closest to `value` (see `checkValues`), or nil.
  static func closest(to value: JSONValue, in held: SourceIndex.HeldValues) -> JSONValue? {
    switch value {
    case .string(let s):
      if let n = Double(s), held.set.contains(.number(n == 0 ? 0 : n)) { return .number(n) }
      return closestMatch(to: s, in: held.strings, maxDistance: 2).map(JSONValue.string)
    case .number(let n):
      let text = MapResolver.text(.number(n)) ?? ""
      return held.set.contains(.string(text)) ? .string(text) : nil
    case .bool(let b):
      return held.set.contains(.string(b ? "true" : "false")) ? .string(b ? "true" : "false") : nil
    default:
      return nil
    }
  }
}
