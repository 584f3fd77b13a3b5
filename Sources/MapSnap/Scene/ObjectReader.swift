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
      throw SceneError(file: file, path: path.description, kind: .invalidValue, message: "expected \(what) (a JSON object), found \(describe(value))")
    }
    for key in obj.keys where !allowed.contains(key) {
      let hint = closestMatch(to: key, in: allowed).map { "did you mean \"\($0)\"?" }
      throw SceneError(
        file: file, path: path.key(key).description, kind: .unknownKey,
        message: "unknown key \"\(key)\" in \(what)", hint: hint ?? "allowed: \(allowed.joined(separator: ", "))")
    }
    self.object = obj
    self.path = path
    self.file = file
  }

  func has(_ key: String) -> Bool { object[key] != nil }

  func error(_ key: String, _ message: String, kind: SceneError.Kind = .invalidValue, hint: String? = nil) -> SceneError {
    SceneError(file: file, path: path.key(key).description, kind: kind, message: message, hint: hint)
  }

  func require(_ key: String, _ expected: String) throws(SceneError) -> JSONValue {
    guard let v = object[key] else {
      throw error(key, "missing required key \"\(key)\": expected \(expected)", kind: .missingKey)
    }
    return v
  }

  func number(_ key: String, _ expected: String = "a number", where ok: (Double) -> Bool = { _ in true }) throws(SceneError) -> Double? {
    guard let v = object[key] else { return nil }
    guard case .number(let n) = v, ok(n) else {
      throw error(key, "expected \(expected), found \(describe(v))")
    }
    return n
  }

  func bool(_ key: String) throws(SceneError) -> Bool? {
    guard let v = object[key] else { return nil }
    guard case .bool(let b) = v else { throw error(key, "expected true or false, found \(describe(v))") }
    return b
  }

  func string(_ key: String, nonEmpty: Bool = false) throws(SceneError) -> String? {
    guard let v = object[key] else { return nil }
    guard case .string(let s) = v, !(nonEmpty && s.isEmpty) else {
      throw error(key, "expected \(nonEmpty ? "a non-empty string" : "a string"), found \(describe(v))")
    }
    return s
  }

  func color(_ key: String) throws(SceneError) -> Color? {
    guard let v = object[key] else { return nil }
    guard case .string(let s) = v else {
      throw error(key, "expected \(ColorParser.expectedDescription), found \(describe(v))")
    }
    guard let c = ColorParser.parse(s) else {
      throw error(
        key, "expected \(ColorParser.expectedDescription), found \(describe(v))",
        hint: ColorParser.suggestion(for: s).map { "did you mean \"\($0)\"?" })
    }
    return c
  }

  /// A string that must be one of `choices`.
  func choice(_ key: String, _ choices: [String]) throws(SceneError) -> String? {
    guard let v = object[key] else { return nil }
    let list = choices.map { "\"\($0)\"" }.joined(separator: ", ")
    guard case .string(let s) = v else { throw error(key, "expected one of \(list), found \(describe(v))") }
    guard choices.contains(s) else {
      throw error(key, "expected one of \(list), found \(describe(v))", hint: closestMatch(to: s, in: choices).map { "did you mean \"\($0)\"?" })
    }
    return s
  }

  /// An array of exactly `count` numbers accepted by `ok`.
  func numbers(_ key: String, count: Int, _ expected: String, where ok: (Double) -> Bool = { $0.isFinite }) throws(SceneError) -> [Double]? {
    guard let v = object[key] else { return nil }
    guard case .array(let a) = v, a.count == count else { throw error(key, "expected \(expected), found \(describe(v))") }
    var out: [Double] = []
    for (i, e) in a.enumerated() {
      guard case .number(let n) = e, ok(n) else {
        throw SceneError(file: file, path: path.key(key).index(i).description, kind: .invalidValue, message: "expected \(expected), found \(describe(e))")
      }
      out.append(n)
    }
    return out
  }

  /// `minScale` and `maxScale` (section 2), checked for order.
  func scaleRange() throws(SceneError) -> ScaleRange {
    let minS = try number("minScale", "a scale denominator >= 0 (0 = no limit)") { $0 >= 0 && $0.isFinite } ?? 0
    let maxS = try number("maxScale", "a scale denominator >= 0 (0 = no limit)") { $0 >= 0 && $0.isFinite } ?? 0
    if minS != 0 && maxS != 0 && minS < maxS {
      throw error(
        "minScale",
        "minScale \(format(minS)) is more zoomed in than maxScale \(format(maxS)): minScale is the most zoomed-out scale (the larger denominator)",
        hint: "swap them: \"minScale\": \(format(maxS)), \"maxScale\": \(format(minS))")
    }
    return ScaleRange(minScale: minS, maxScale: maxS)
  }
}

/// A number as people write it: integral values without a fraction ("2",
/// not "2.0"), others in Swift's shortest round-trip form. Used for
/// messages, floors, labels and file names.
func format(_ n: Double) -> String {
  n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
}
