/// Writes a `JSONValue` as UTF-8 JSON text, object members in insertion
/// order.
///
/// Layout (unless `compact`): two-space indentation, one member or element
/// per line, `"key": value` with one space after the colon — except that an
/// array whose elements are all scalars (null, booleans, numbers, strings) is
/// written on one line as `[24.9, 60.1, 24.95, 60.2]`. Empty containers are
/// `[]` and `{}`. No trailing newline is written.
///
/// Numbers: a non-finite number is written as `null`. An integral value
/// with magnitude below 2^53 is written as an integer (`3`, not `3.0`; `-0`
/// keeps its sign). Any other value is written in the shortest form that
/// parses back to the same `Double`, positional for magnitudes from 1e-6
/// upwards (`0.000015`, `123.456`, `9007199254740992.0`) and as `1.5e-7` or
/// `1e16` below and above that.
///
/// Strings: `"` and `\` are escaped, control characters U+0000...U+001F are
/// written as `\b \f \n \r \t` or `\u00XX`, and everything else, including
/// non-ASCII text, is written as UTF-8.
public struct JSONWriter: Sendable {
  /// Write without any whitespace between tokens.
  public var compact: Bool

  /// A writer, compact or not.
  public init(compact: Bool = false) {
    self.compact = compact
  }

  /// The JSON text of `value`.
  public func write(_ value: JSONValue) -> String {
    String(decoding: writeBytes(value), as: UTF8.self)
  }

  /// The JSON text of `value` as UTF-8 bytes.
  public func writeBytes(_ value: JSONValue) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(value, level: 0, into: &out)
    return out
  }

  /// The JSON text of one number, by the rules in the type's documentation.
  public static func numberText(_ x: Double) -> String {
    guard x.isFinite else { return "null" }
    if x.magnitude < 9_007_199_254_740_992 && x.rounded(.towardZero) == x {
      if x == 0 { return x.sign == .minus ? "-0" : "0" }
      return String(Int64(x))
    }
    let text = x.description
    guard text.utf8.contains(UInt8(ascii: "e")), let e = text.firstIndex(of: "e") else { return text }
    // Shortest digits in exponent form: [-]d[.ddd]e[+-]xx.
    var mantissa = text[..<e]
    let exponent = Int(text[text.index(after: e)...])!
    var sign = ""
    if mantissa.first == "-" {
      sign = "-"
      mantissa = mantissa.dropFirst()
    }
    var digits = mantissa.filter { $0 != "." }
    while digits.count > 1 && digits.last == "0" { digits.removeLast() }
    if exponent < 0 && exponent >= -6 {
      return sign + "0." + String(repeating: "0", count: -exponent - 1) + digits
    }
    let head = String(digits.prefix(1))
    let tail = digits.dropFirst()
    return sign + head + (tail.isEmpty ? "" : "." + tail) + "e" + String(exponent)
  }

  // MARK: - Implementation

  private func write(_ value: JSONValue, level: Int, into out: inout [UInt8]) {
    switch value {
    case .null:
      out.append(contentsOf: "null".utf8)
    case .bool(let b):
      out.append(contentsOf: (b ? "true" : "false").utf8)
    case .number(let x):
      out.append(contentsOf: JSONWriter.numberText(x).utf8)
    case .string(let s):
      JSONWriter.writeString(s, into: &out)
    case .array(let elements):
      guard !elements.isEmpty else {
        out.append(contentsOf: "[]".utf8)
        return
      }
      out.append(UInt8(ascii: "["))
      if compact || elements.allSatisfy(\.isScalar) {
        for (i, element) in elements.enumerated() {
          if i > 0 {
            out.append(UInt8(ascii: ","))
            if !compact { out.append(UInt8(ascii: " ")) }
          }
          write(element, level: level + 1, into: &out)
        }
      } else {
        for (i, element) in elements.enumerated() {
          if i > 0 { out.append(UInt8(ascii: ",")) }
          newline(level: level + 1, into: &out)
          write(element, level: level + 1, into: &out)
        }
        newline(level: level, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let object):
      guard !object.isEmpty else {
        out.append(contentsOf: "{}".utf8)
        return
      }
      out.append(UInt8(ascii: "{"))
      for (i, pair) in object.pairs.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        if !compact { newline(level: level + 1, into: &out) }
        JSONWriter.writeString(pair.key, into: &out)
        out.append(UInt8(ascii: ":"))
        if !compact { out.append(UInt8(ascii: " ")) }
        write(pair.value, level: level + 1, into: &out)
      }
      if !compact { newline(level: level, into: &out) }
      out.append(UInt8(ascii: "}"))
    }
  }

  private func newline(level: Int, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\n"))
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  private static func writeString(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for c in string.utf8 {
      switch c {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x00..<0x20:
        out.append(contentsOf: "\\u00".utf8)
        out.append(hexDigits[Int(c >> 4)])
        out.append(hexDigits[Int(c & 0xF)])
      default:
        out.append(c)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

extension JSONValue {
  /// Not an array or object.
  fileprivate var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }
}
