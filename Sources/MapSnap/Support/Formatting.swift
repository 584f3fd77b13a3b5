// How values are written in messages, reports and file names.

/// A number as people write it: integral values without a fraction ("2",
/// not "2.0"), others in Swift's shortest round-trip form. Used for
/// messages, floors, labels and file names.
func format(_ n: Double) -> String {
  n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
}

/// A short description of a JSON value for messages (the `found` of an
/// error): `string "6px"`, `number -3`, `an array of 2 values`.
func describe(_ v: JSONValue) -> String {
  switch v {
  case .null: return "null"
  case .bool(let b): return "boolean \(b)"
  case .number(let n):
    return "number \(format(n))"
  case .string(let s):
    return "string " + Echo.quoted(s, limit: 40)
  case .array(let a):
    return a.isEmpty ? "an empty array" : "an array of \(a.count) value\(a.count == 1 ? "" : "s")"
  case .object: return "an object"
  }
}

/// A number for people: integers without a fraction, others to `digits` places.
func number(_ x: Double, digits: Int = 0) -> String {
  if x == x.rounded() && abs(x) < 1e15 { return format(x) }
  var p = 1.0
  for _ in 0..<max(digits, 2) { p *= 10 }
  let r = (x * p).rounded() / p
  return String(r)
}

/// `U+4E2D` style name of a code point.
func codePointName(_ s: Unicode.Scalar) -> String {
  let hex = String(s.value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}

extension Int {
  /// `x` as an integer, never trapping: NaN is 0, and values beyond ±2^62
  /// are held there (so a sum or difference of two still fits). For values
  /// derived from already-checked input, as a last guard: every number a
  /// scene, manifest or command line gives is range-checked where decoded.
  init(saturating x: Double) {
    let limit = 4.611_686_018_427_387_904e18  // 2^62
    if x.isNaN { self = 0 } else if x >= limit { self = 1 << 62 } else if x <= -limit { self = -(1 << 62) } else { self = Int(x) }
  }
}

extension String {
  /// The UTF-8 text a C library wrote into `buffer`, up to its first NUL
  /// (all of it when there is none); invalid bytes become U+FFFD.
  init(nulTerminated buffer: [CChar]) {
    self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
