/// Reads one JSON object of a scene: rejects keys it does not define (with a
/// "did you mean" hint) and converts values with errors that name the JSON path
/// and what was expected.
struct ObjectReader {
  let object: JSONObject
  let path: JSONPath
  let file: String

  /// - Throws: when `value` is not an object or holds a key not in `allowed`.
  init(_ value: JSONValue, at path: JSONPath, file: String, what: String, allowed: [String]) throws(SceneError) {
    guard case .object(let obj) = value else {
      throw SceneError(file: file, at: path, kind: .invalidValue, expected: "\(what) (a JSON object)", found: describe(value))
    }
    for key in obj.keys where !allowed.contains(key) {
      let hint = closestMatch(to: key, in: allowed).map { "did you mean \(Echo.quoted($0))?" }
      throw SceneError(
        file: file, at: path.key(key), kind: .unknownKey, expected: what, found: "\(Echo.quoted(key))",
        hint: hint ?? "allowed: \(allowed.joined(separator: ", "))")
    }
    self.object = obj
    self.path = path
    self.file = file
  }

  func has(_ key: String) -> Bool { object[key] != nil }

  /// An error at `key` of this object.
  func error(
    _ key: String, _ kind: SceneError.Kind = .invalidValue, expected: String? = nil, found: String? = nil, hint: String? = nil
  ) -> SceneError {
    SceneError(file: file, at: path.key(key), kind: kind, expected: expected, found: found, hint: hint)
  }

  /// `key` holds `value`, which is not what the format wants there.
  func invalid(_ key: String, expected: String, found value: JSONValue, hint: String? = nil) -> SceneError {
    error(key, expected: expected, found: describe(value), hint: hint)
  }

  /// The required `key` is absent.
  func missing(_ key: String, _ expected: String) -> SceneError {
    error(key, .missingKey, expected: expected)
  }

  /// `first` and `second` exclude each other and both are given; the error
  /// is at `second`.
  func conflict(_ first: String, _ second: String) -> SceneError {
    error(second, .conflictingKeys, expected: "either \"\(first)\" or \"\(second)\"", found: "both")
  }

  func require(_ key: String, _ expected: String) throws(SceneError) -> JSONValue {
    guard let v = object[key] else { throw missing(key, expected) }
    return v
  }

  func number(_ key: String, _ expected: String = "a number", where ok: (Double) -> Bool = { _ in true }) throws(SceneError) -> Double? {
    guard let v = object[key] else { return nil }
    guard case .number(let n) = v, ok(n) else {
      throw invalid(key, expected: expected, found: v)
    }
    return n
  }

  func bool(_ key: String) throws(SceneError) -> Bool? {
    guard let v = object[key] else { return nil }
    guard case .bool(let b) = v else { throw invalid(key, expected: "true or false", found: v) }
    return b
  }

  func string(_ key: String, nonEmpty: Bool = false) throws(SceneError) -> String? {
    guard let v = object[key] else { return nil }
    guard case .string(let s) = v, !(nonEmpty && s.isEmpty) else {
      throw invalid(key, expected: nonEmpty ? "a non-empty string" : "a string", found: v)
    }
    return s
  }

  func color(_ key: String) throws(SceneError) -> Color? {
    guard let v = object[key] else { return nil }
    guard case .string(let s) = v else {
      throw invalid(key, expected: ColorParser.expectedDescription, found: v)
    }
    guard let c = ColorParser.parse(s) else {
      throw invalid(
        key, expected: ColorParser.expectedDescription, found: v,
        hint: ColorParser.suggestion(for: s).map { "did you mean \(Echo.quoted($0))?" })
    }
    return c
  }

  /// A string that must be one of `choices`.
  func choice(_ key: String, _ choices: [String]) throws(SceneError) -> String? {
    guard let v = object[key] else { return nil }
    let list = choices.map { "\"\($0)\"" }.joined(separator: ", ")
    guard case .string(let s) = v else { throw invalid(key, expected: "one of \(list)", found: v) }
    guard choices.contains(s) else {
      throw invalid(key, expected: "one of \(list)", found: v, hint: closestMatch(to: s, in: choices).map { "did you mean \(Echo.quoted($0))?" })
    }
    return s
  }

  /// An array of numbers accepted by `ok`, or nil when the key is absent:
  /// exactly `count` of them (then `expected` describes the whole array), or
  /// any number when `count` is nil (then `expected` describes one element
  /// and the array is "an array of `expected`").
  func numbers(_ key: String, count: Int? = nil, _ expected: String, where ok: (Double) -> Bool = { $0.isFinite }) throws(SceneError) -> [Double]? {
    guard let v = object[key] else { return nil }
    guard case .array(let a) = v, count == nil || a.count == count else {
      throw invalid(key, expected: count == nil ? "an array of \(expected)" : expected, found: v)
    }
    var out: [Double] = []
    for (i, e) in a.enumerated() {
      guard case .number(let n) = e, ok(n) else {
        throw SceneError(file: file, at: path.key(key).index(i), kind: .invalidValue, expected: expected, found: describe(e))
      }
      out.append(n)
    }
    return out
  }

  /// `[lon, lat]` in degrees at `key` (a centre), nil when absent; the
  /// one check of a centre for scenes and manifest lines: an error names
  /// the element out of range and its value (`center[0]: expected a
  /// longitude within -180…180, found number 200`).
  func lonLat(_ key: String) throws(SceneError) -> (lon: Double, lat: Double)? {
    guard let c = try numbers(key, count: 2, "[lon, lat] in degrees", where: { $0.isFinite }) else { return nil }
    for (i, limit, what) in [(0, 180.0, "longitude"), (1, 90.0, "latitude")] where abs(c[i]) > limit {
      throw SceneError(
        file: file, at: path.key(key).index(i), kind: .invalidValue, expected: "a \(what) within -\(Int(limit))…\(Int(limit))",
        found: describe(.number(c[i])))
    }
    return (c[0], c[1])
  }

  /// `minScale` and `maxScale` (section 2), checked for order.
  func scaleRange() throws(SceneError) -> ScaleRange {
    let minS = try number("minScale", "a scale denominator >= 0 (0 = no limit)") { $0 >= 0 && $0.isFinite } ?? 0
    let maxS = try number("maxScale", "a scale denominator >= 0 (0 = no limit)") { $0 >= 0 && $0.isFinite } ?? 0
    if minS != 0 && maxS != 0 && minS < maxS {
      throw error(
        "minScale", .invertedScaleRange(minScale: minS, maxScale: maxS),
        hint: "swap them: \"minScale\": \(format(maxS)), \"maxScale\": \(format(minS))")
    }
    return ScaleRange(minScale: minS, maxScale: maxS)
  }
}
