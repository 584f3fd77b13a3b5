package import _MapSnapJSON

extension StyleValue {
  /// A JSON value as the expression language sees it: objects keep their
  /// member order; nothing becomes a colour or any other rich kind.
  package init(json: JSONValue) {
    switch json {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let n): self = .number(n)
    case .string(let s): self = .string(s)
    case .array(let items): self = .array(items.map(StyleValue.init(json:)))
    case .object(let o): self = .object(o.pairs.map { ($0.key, StyleValue(json: $0.value)) })
    }
  }

  /// This value as JSON: colours as CSS `rgba(...)` strings, the rich kinds
  /// as the objects the specification's implementations serialise them to.
  package var json: JSONValue {
    switch self {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .number(let n): return .number(n)
    case .string(let s): return .string(s)
    case .color(let c): return .string(c.cssString)
    case .array(let items): return .array(items.map(\.json))
    case .object(let members): return .object(JSONObject(members.map { ($0.0, $0.1.json) }))
    case .collator(let c):
      return .object(JSONObject([
        ("caseSensitive", .bool(c.caseSensitive)), ("diacriticSensitive", .bool(c.diacriticSensitive)),
        ("locale", c.locale.map { .string($0) } ?? .null),
      ]))
    case .formatted(let f): return .object(JSONObject([("sections", .array(f.sections.map(\.json)))]))
    case .image(let i): return .object(JSONObject([("name", .string(i.name)), ("available", .bool(i.available))]))
    case .padding(let v), .numberArray(let v): return .array(v.map { .number($0) })
    case .colorArray(let v): return .array(v.map { .string($0.cssString) })
    case .projection(let p): return [.string(p.from), .string(p.to), .number(p.transition)]
    case .anchorOffsets(let pairs):
      return .array(pairs.flatMap { [JSONValue.string($0.0), .array($0.1.map { .number($0) })] })
    }
  }

  /// The text `to-string` and `concat` make of this value: "" for null,
  /// numbers as JavaScript prints them, colours as `rgba(r,g,b,a)`, rich
  /// text as its plain text, an image as its name, other values as JSON.
  package var displayString: String {
    switch self {
    case .null: return ""
    case .string(let s): return s
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return StyleValue.javaScriptString(n)
    case .color(let c): return c.cssString
    case .formatted(let f): return f.sections.map(\.text).joined()
    case .image(let i): return i.name
    default: return compactJSON
    }
  }

  /// JSON without spaces, numbers as JavaScript prints them (JSON.stringify).
  package var compactJSON: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return n.isFinite ? StyleValue.javaScriptString(n) : "null"
    case .string(let s): return StyleValue.quoted(s)
    case .color(let c):
      return "{\"r\":\(StyleValue.javaScriptString(c.r * c.a)),\"g\":\(StyleValue.javaScriptString(c.g * c.a)),\"b\":\(StyleValue.javaScriptString(c.b * c.a)),\"a\":\(StyleValue.javaScriptString(c.a))}"
    case .array(let items): return "[" + items.map(\.compactJSON).joined(separator: ",") + "]"
    case .object(let members): return "{" + members.map { StyleValue.quoted($0.0) + ":" + $0.1.compactJSON }.joined(separator: ",") + "}"
    case .padding(let v), .numberArray(let v):
      return "[" + v.map { StyleValue.javaScriptString($0) }.joined(separator: ",") + "]"
    default: return StyleValue(jsonForm: json).compactJSON
    }
  }

  private init(jsonForm: JSONValue) { self.init(json: jsonForm) }

  /// A string as a JSON literal.
  package static func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// A number as JavaScript's `String(n)` prints it: integers without a
  /// fraction, the shortest digits that read back, exponents from 1e21 and
  /// below 1e-6 written `1e+21` / `1e-7`.
  package static func javaScriptString(_ n: Double) -> String {
    if n.isNaN { return "NaN" }
    if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
    if n == 0 { return "0" }
    if n == n.rounded(), abs(n) < 1e21 {
      if abs(n) < 9.007e15 { return String(Int64(n)) }
    }
    // Swift's shortest round-trip digits, laid out as JavaScript lays them out.
    var text = "\(n)"
    let negative = text.hasPrefix("-")
    if negative { text.removeFirst() }
    var digits: String
    var exponent: Int
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      let mantissa = String(text[..<e])
      exponent = Int(text[text.index(after: e)...]) ?? 0
      let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
      digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
      exponent += parts[0].count
    } else {
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      let intPart = String(parts[0]), frac = parts.count > 1 ? String(parts[1]) : ""
      digits = intPart + frac
      exponent = intPart.count
    }
    // digits d1d2... with value 0.d1d2... × 10^exponent; strip leading zeros.
    while digits.hasPrefix("0"), digits.count > 1 {
      digits.removeFirst()
      exponent -= 1
    }
    while digits.hasSuffix("0"), digits.count > 1 { digits.removeLast() }
    let k = digits.count
    var out: String
    if k <= exponent, exponent <= 21 {
      out = digits + String(repeating: "0", count: exponent - k)
    } else if 0 < exponent, exponent <= 21 {
      let i = digits.index(digits.startIndex, offsetBy: exponent)
      out = digits[..<i] + "." + digits[i...]
    } else if -6 < exponent, exponent <= 0 {
      out = "0." + String(repeating: "0", count: -exponent) + digits
    } else {
      let e = exponent - 1
      let sign = e < 0 ? "-" : "+"
      let head = String(digits.prefix(1))
      let tail = String(digits.dropFirst())
      out = head + (tail.isEmpty ? "" : "." + tail) + "e" + sign + String(abs(e))
    }
    return negative ? "-" + out : out
  }
}

extension StyleFormattedSection {
  var json: JSONValue {
    .object(JSONObject([
      ("text", .string(text)),
      ("image", image.map { StyleValue.image($0).json } ?? .null),
      ("scale", scale.map { .number($0) } ?? .null),
      ("fontStack", fontStack.map { .string($0) } ?? .null),
      ("textColor", textColor.map { .string($0.cssString) } ?? .null),
      ("verticalAlign", verticalAlign.map { .string($0) } ?? .null),
    ]))
  }
}
