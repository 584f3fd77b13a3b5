/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Rules beyond the RFC's grammar, all reported as `JSONSyntaxError`:
/// - the input must be valid UTF-8 (a leading byte-order mark is skipped);
/// - an object must not repeat a key;
/// - a number that overflows a `Double` to infinity is rejected (one that
///   underflows becomes 0 or a subnormal, correctly rounded);
/// - containers may nest at most `maxDepth` deep;
/// - no comments, trailing commas, single quotes, `NaN` or leading `+`.
///
/// Numbers are correctly rounded: a fast exact path handles up to 19
/// significant digits with a mantissa ≤ 2^53 and a decimal exponent within
/// ±22, and anything else goes through the C library's correctly rounded
/// `strtod` (in the C locale, via `Double(_:)`).
package enum JSONParser {
  /// The deepest nesting of arrays and objects accepted. `[[1]]` has depth 2.
  public static let maxDepth = 512

  /// Parses one JSON value that must make up the whole of `bytes` (apart
  /// from surrounding whitespace and a leading UTF-8 byte-order mark).
  public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
    // Binding to UInt8 is always valid for raw bytes (and a no-op for the
    // storage of a [UInt8]).
    let typed = bytes.bindMemory(to: UInt8.self)
    guard let base = typed.baseAddress, typed.count > 0 else {
      throw JSONSyntaxError(line: 1, column: 1, message: "unexpected end of input")
    }
    var parser = _JSONByteParser(base: base, count: typed.count)
    return try parser.parseDocument()
  }

  /// Parses one JSON value that must make up the whole of `bytes`.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    // `withUnsafeBytes` is `rethrows`, which would erase the error type.
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(JSONSyntaxError) in try parse(raw) }
    }
    return try result.get()
  }

  /// Parses one JSON value that must make up the whole of `text`.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(text.utf8))
  }
}

// MARK: - Implementation

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let openBrace = UInt8(ascii: "{")
private let closeBrace = UInt8(ascii: "}")
private let openBracket = UInt8(ascii: "[")
private let closeBracket = UInt8(ascii: "]")
private let comma = UInt8(ascii: ",")
private let colon = UInt8(ascii: ":")
private let minus = UInt8(ascii: "-")
private let plus = UInt8(ascii: "+")
private let dot = UInt8(ascii: ".")
private let zero = UInt8(ascii: "0")
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let newline = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")

/// Exact powers of ten: every 10^k for 0 ≤ k ≤ 22 is representable.
private let exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

@inline(__always)
private func isDigit(_ c: UInt8) -> Bool { c &- zero < 10 }

@inline(__always)
private func isWordByte(_ c: UInt8) -> Bool {
  isDigit(c) || (c | 0x20) &- UInt8(ascii: "a") < 26 || c == UInt8(ascii: "_")
}

private func hexValue(_ c: UInt8) -> UInt32? {
  switch c {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
  default: return nil
  }
}

private func hex4(_ v: UInt32) -> String {
  let s = String(v, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - s.count)) + s
}

/// A stack whose top elements can be moved out into an exactly sized array
/// without retaining and releasing each one.
private final class _MoveStack<Element> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 64) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  @inline(__always)
  func append(_ element: consuming Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  private func grow() {
    let newCapacity = capacity * 2
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Removes the elements from `first` up and returns them in order.
  func popArray(from first: Int) -> [Element] {
    let n = count - first
    // Not `Array(unsafeUninitializedCapacity:)`: on Linux it allocates
    // through an unspecialized stdlib entry point that looks up generic
    // metadata on every call (measured: ~650 instructions per array, a third
    // of the parse). `reserveCapacity` on an empty array is specialized.
    var result: [Element] = []
    result.reserveCapacity(n)
    for i in first..<count { result.append((base + i).move()) }
    count = first
    return result
  }
}

/// The byte-level parser behind `JSONParser`. Internal (not private) so that
/// readers of one known document shape, such as `GeoJSONFastReader`, read
/// strings, numbers and nested values with exactly this code: its methods
/// throw `JSONSyntaxError` at the first byte they do not accept, and leave
/// `pos` after what they read.
package struct _JSONByteParser {
  package let base: UnsafePointer<UInt8>
  package let end: Int
  /// Where the document starts (after a byte-order mark); columns on line 1
  /// count from here.
  package var start = 0
  package var pos = 0
  package var depth = 0
  /// Elements of the arrays being parsed, innermost last; each array is
  /// moved out once complete so it is allocated at its exact size.
  fileprivate let valueStack = _MoveStack<JSONValue>()
  /// Members of the objects being parsed, innermost last.
  fileprivate let pairStack = _MoveStack<(key: String, value: JSONValue)>()
  /// Unescaped bytes of a string that has escapes.
  fileprivate var scratch: [UInt8] = []

  package init(base: UnsafePointer<UInt8>, count: Int) {
    self.base = base
    self.end = count
  }

  @inline(__always)
  package func byte(_ i: Int) -> UInt8 { base[i] }

  // MARK: Errors

  /// The 1-based line and column of byte `offset`.
  package func location(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var i = start
    while i < offset && i < end {
      let c = byte(i)
      if c == newline {
        line += 1
        column = 1
      } else if c == carriageReturn {
        if i + 1 < end && byte(i + 1) == newline {
          // "\r\n": the "\n" ends the line.
        } else {
          line += 1
          column = 1
        }
      } else if c & 0xC0 != 0x80 {
        column += 1
      }
      i += 1
    }
    return (line, column)
  }

  /// `withoutContent`: the message with nothing of the input quoted, for
  /// a message that quotes some (`JSONSyntaxError.messageWithoutContent`).
  package func error(_ message: String, at offset: Int, withoutContent: String? = nil) -> JSONSyntaxError {
    let (line, column) = location(of: offset)
    return JSONSyntaxError(line: line, column: column, message: message, withoutContent: withoutContent)
  }

  /// How the input at `offset` reads in a message: `'x'`, `'é' (U+00E9)`,
  /// `U+0001`, `byte 0xFF` or `end of input`; a run of letters or digits is
  /// quoted whole (up to 24 bytes) when `word` is true.
  package func describe(at offset: Int, word: Bool = false) -> String {
    guard offset < end else { return "end of input" }
    let c = byte(offset)
    if word && isWordByte(c) {
      var j = offset
      while j < end && j - offset < 24 && isWordByte(byte(j)) { j += 1 }
      let text = String(decoding: UnsafeBufferPointer(start: base + offset, count: j - offset), as: UTF8.self)
      return "'\(text)'"
    }
    if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
    if c == newline { return "a newline" }
    if c == space { return "a space" }
    if c < 0x80 { return "U+\(hex4(UInt32(c)))" }
    if let (scalar, _) = decodeScalar(at: offset) {
      return "'\(Character(scalar))' (U+\(hex4(scalar.value)))"
    }
    return "byte 0x\(hex4(UInt32(c)).suffix(2))"
  }

  /// An error for unexpected input at `pos`, with hints for common mistakes.
  package func unexpected(_ expectation: String) -> JSONSyntaxError {
    if pos < end {
      let c = byte(pos)
      if c == UInt8(ascii: "/") && pos + 1 < end
        && (byte(pos + 1) == UInt8(ascii: "/") || byte(pos + 1) == UInt8(ascii: "*"))
      {
        return error("comments are not allowed in JSON", at: pos)
      }
    }
    return error("\(expectation), found \(describe(at: pos, word: true))", at: pos, withoutContent: "\(expectation), found something else")
  }

  package func endOfInput(inContainerOpenedAt open: Int, kind: String) -> JSONSyntaxError {
    let (line, column) = location(of: open)
    return error(
      "unexpected end of input: the \(kind) opened at line \(line), column \(column) is not closed",
      at: end)
  }

  // MARK: Structure

  package mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
    skipByteOrderMark()
    let value = try parseValue()
    try expectEndOfDocument()
    return value
  }

  /// Steps over a leading UTF-8 byte-order mark, where the document starts.
  package mutating func skipByteOrderMark() {
    if end >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF {
      start = 3
      pos = 3
    }
  }

  /// Checks that only whitespace follows the document's value.
  package mutating func expectEndOfDocument() throws(JSONSyntaxError) {
    skipWhitespace()
    if pos < end {
      if byte(pos) == UInt8(ascii: "/") && pos + 1 < end
        && (byte(pos + 1) == UInt8(ascii: "/") || byte(pos + 1) == UInt8(ascii: "*"))
      {
        throw error("comments are not allowed in JSON", at: pos)
      }
      throw error("trailing characters after the JSON value", at: pos)
    }
  }

  @inline(__always)
  package mutating func skipWhitespace() {
    while pos < end {
      let c = byte(pos)
      guard c == space || c == newline || c == carriageReturn || c == tab else { return }
      pos += 1
    }
  }

  package mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    skipWhitespace()
    guard pos < end else { throw error("unexpected end of input", at: pos) }
    let c = byte(pos)
    switch c {
    case quote:
      return .string(try parseString())
    case minus, UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try parseNumber())
    case openBracket:
      return try parseArray()
    case openBrace:
      return try parseObject()
    case UInt8(ascii: "t"):
      try parseLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try parseLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try parseLiteral("null")
      return .null
    case UInt8(ascii: "'"):
      throw error("strings must use double quotes", at: pos)
    case plus:
      throw error("numbers must not start with '+'", at: pos)
    case dot:
      throw error("numbers must have a digit before the decimal point", at: pos)
    default:
      throw unexpectedValue()
    }
  }

  package func unexpectedValue() -> JSONSyntaxError {
    if pos < end && isWordByte(byte(pos)) {
      var j = pos
      while j < end && j - pos < 24 && isWordByte(byte(j)) { j += 1 }
      let word = String(decoding: UnsafeBufferPointer(start: base + pos, count: j - pos), as: UTF8.self)
      let lower = word.lowercased()
      if lower == "true" || lower == "false" || lower == "null" {
        return error(
          "expected a value, found '\(word)' (JSON literals are lowercase: \(lower))", at: pos,
          withoutContent: "expected a value (JSON literals are lowercase)")
      }
    }
    return unexpected("expected a value")
  }

  package mutating func parseLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
    let n = literal.utf8CodeUnitCount
    let ok =
      pos + n <= end
      && literal.withUTF8Buffer { lit in
        for k in 0..<n where lit[k] != byte(pos + k) { return false }
        return true
      }
    if !ok || (pos + n < end && isWordByte(byte(pos + n))) {
      throw unexpectedValue()
    }
    pos += n
  }

  package mutating func enter(at open: Int) throws(JSONSyntaxError) {
    depth += 1
    if depth > JSONParser.maxDepth {
      throw error("nesting too deep (more than \(JSONParser.maxDepth) levels of arrays and objects)", at: open)
    }
  }

  /// The step after an array's element or an object's member (`item`):
  /// true after a ',' (another item follows), false after `close` (the
  /// container ends). A ',' just before `close` is a trailing comma, an error
  /// at the comma; input that ends first is an error at the opening `open`.
  @inline(__always)
  package mutating func afterItem(close: UInt8, open: Int, kind: String, item: String) throws(JSONSyntaxError) -> Bool {
    skipWhitespace()
    guard pos < end else { throw endOfInput(inContainerOpenedAt: open, kind: kind) }
    let c = byte(pos)
    if c == comma {
      let commaAt = pos
      pos += 1
      skipWhitespace()
      if pos < end && byte(pos) == close {
        throw error("trailing comma before '\(Character(Unicode.Scalar(close)))'", at: commaAt)
      }
      return true
    }
    if c == close {
      pos += 1
      return false
    }
    throw unexpected("expected ',' or '\(Character(Unicode.Scalar(close)))' after \(item)")
  }

  package mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    let open = pos
    try enter(at: open)
    pos += 1
    skipWhitespace()
    if pos < end && byte(pos) == closeBracket {
      pos += 1
      depth -= 1
      return .array([])
    }
    let first = valueStack.count
    while true {
      skipWhitespace()
      if pos >= end { throw endOfInput(inContainerOpenedAt: open, kind: "array") }
      let value = try parseValue()
      valueStack.append(value)
      if try !afterItem(close: closeBracket, open: open, kind: "array", item: "array element") { break }
    }
    let elements = valueStack.popArray(from: first)
    depth -= 1
    return .array(elements)
  }

  package mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    let open = pos
    try enter(at: open)
    pos += 1
    skipWhitespace()
    if pos < end && byte(pos) == closeBrace {
      pos += 1
      depth -= 1
      return .object(JSONObject())
    }
    let first = pairStack.count
    var index: [String: Int]? = nil
    while true {
      skipWhitespace()
      guard pos < end else { throw endOfInput(inContainerOpenedAt: open, kind: "object") }
      guard byte(pos) == quote else {
        if byte(pos) == UInt8(ascii: "'") { throw error("strings must use double quotes", at: pos) }
        if isWordByte(byte(pos)) {
          throw unexpected("expected a string key (keys must be in double quotes)")
        }
        throw unexpected("expected a string key")
      }
      let keyAt = pos
      let key = try parseString()
      // Duplicate check: linear while small, then a hash table.
      let memberCount = pairStack.count - first
      if index != nil {
        if index![key] != nil { throw error("duplicate key \(quoted(key))", at: keyAt, withoutContent: "duplicate key") }
        index![key] = memberCount
      } else {
        for i in first..<pairStack.count where pairStack.base[i].key == key {
          throw error("duplicate key \(quoted(key))", at: keyAt, withoutContent: "duplicate key")
        }
        if memberCount + 1 > JSONObject.linearSearchLimit {
          var built: [String: Int] = [:]
          built.reserveCapacity(32)
          for i in first..<pairStack.count { built[pairStack.base[i].key] = i - first }
          built[key] = memberCount
          index = built
        }
      }
      skipWhitespace()
      guard pos < end else { throw endOfInput(inContainerOpenedAt: open, kind: "object") }
      guard byte(pos) == colon else { throw unexpected("expected ':' after object key") }
      pos += 1
      skipWhitespace()
      guard pos < end else { throw endOfInput(inContainerOpenedAt: open, kind: "object") }
      let value = try parseValue()
      pairStack.append((key, value))
      if try !afterItem(close: closeBrace, open: open, kind: "object", item: "object member") { break }
    }
    let members = pairStack.popArray(from: first)
    depth -= 1
    return .object(JSONObject(uniquePairs: members, index: index))
  }

  package func quoted(_ key: String) -> String {
    var out = "\""
    for scalar in key.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20: out += "\\u" + hex4(scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  // MARK: Strings

  /// Decodes one valid UTF-8 scalar at `offset`, or nil.
  package func decodeScalar(at offset: Int) -> (Unicode.Scalar, Int)? {
    let c = byte(offset)
    var value: UInt32
    var length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch c {
    case 0x00...0x7F: return (Unicode.Scalar(c), 1)
    case 0xC2...0xDF: value = UInt32(c & 0x1F); length = 2
    case 0xE0: value = UInt32(c & 0x0F); length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: value = UInt32(c & 0x0F); length = 3
    case 0xED: value = UInt32(c & 0x0F); length = 3; high = 0x9F
    case 0xF0: value = UInt32(c & 0x07); length = 4; low = 0x90
    case 0xF1...0xF3: value = UInt32(c & 0x07); length = 4
    case 0xF4: value = UInt32(c & 0x07); length = 4; high = 0x8F
    default: return nil
    }
    guard offset + length <= end else { return nil }
    for k in 1..<length {
      let b = byte(offset + k)
      if k == 1 {
        guard b >= low && b <= high else { return nil }
      } else {
        guard b & 0xC0 == 0x80 else { return nil }
      }
      value = value << 6 | UInt32(b & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }

  /// Checks the UTF-8 sequence at `pos` (a byte ≥ 0x80) and steps over it.
  @inline(never)
  package mutating func skipMultiByteSequence() throws(JSONSyntaxError) {
    guard let (_, length) = decodeScalar(at: pos) else {
      let c = byte(pos)
      if c >= 0xC2 && c <= 0xF4 {
        var j = pos + 1
        while j < end && j - pos < 4 && byte(j) & 0xC0 == 0x80 { j += 1 }
        if j == end { throw error("invalid UTF-8: sequence cut short by the end of input", at: pos) }
      }
      throw error("invalid UTF-8 sequence starting with byte 0x\(hex4(UInt32(c)).suffix(2))", at: pos)
    }
    pos += length
  }

  package func controlCharacterError(_ c: UInt8, at offset: Int) -> JSONSyntaxError {
    switch c {
    case newline, carriageReturn:
      return error("unescaped line break in string (missing closing quote?)", at: offset)
    case tab:
      return error("unescaped tab in string (write it as \\t)", at: offset)
    default:
      return error("unescaped control character U+\(hex4(UInt32(c))) in string (write it as \\u\(hex4(UInt32(c))))", at: offset)
    }
  }

  /// Parses the string whose opening quote is at `pos`.
  package mutating func parseString() throws(JSONSyntaxError) -> String {
    let open = pos
    pos += 1
    let contentStart = pos
    while pos < end {
      let c = byte(pos)
      if c == quote {
        let s = String(decoding: UnsafeBufferPointer(start: base + contentStart, count: pos - contentStart), as: UTF8.self)
        pos += 1
        return s
      }
      if c == backslash { return try parseEscapedString(open: open, contentStart: contentStart) }
      if c < 0x20 { throw controlCharacterError(c, at: pos) }
      if c >= 0x80 { try skipMultiByteSequence() } else { pos += 1 }
    }
    throw error("unterminated string", at: open)
  }

  /// Continues `parseString` from the first backslash at `pos`.
  @inline(never)
  package mutating func parseEscapedString(open: Int, contentStart: Int) throws(JSONSyntaxError) -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(start: base + contentStart, count: pos - contentStart))
    while pos < end {
      let c = byte(pos)
      if c == quote {
        pos += 1
        return String(decoding: scratch, as: UTF8.self)
      }
      if c == backslash {
        let escapeAt = pos
        guard pos + 1 < end else { break }
        let e = byte(pos + 1)
        pos += 2
        switch e {
        case quote: scratch.append(quote)
        case backslash: scratch.append(backslash)
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(newline)
        case UInt8(ascii: "r"): scratch.append(carriageReturn)
        case UInt8(ascii: "t"): scratch.append(tab)
        case UInt8(ascii: "u"):
          let unit = try hexEscape(at: escapeAt)
          var scalarValue = unit
          if unit >= 0xD800 && unit <= 0xDBFF {
            // A high surrogate must be followed by an escaped low surrogate.
            var low: UInt32 = 0
            if pos + 1 < end && byte(pos) == backslash && byte(pos + 1) == UInt8(ascii: "u") {
              low = try hexEscape(at: pos)
            }
            guard low >= 0xDC00 && low <= 0xDFFF else {
              throw error(
                "unpaired surrogate \\u\(hex4(unit)) (a high surrogate must be followed by a low surrogate escape \\uDC00...\\uDFFF)",
                at: escapeAt)
            }
            pos += 6
            scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          } else if unit >= 0xDC00 && unit <= 0xDFFF {
            throw error("unpaired surrogate \\u\(hex4(unit)) (a low surrogate must follow a high surrogate)", at: escapeAt)
          }
          appendUTF8(Unicode.Scalar(scalarValue)!)
        default:
          let shown: String
          if e >= 0x21 && e < 0x7F {
            shown = "\\" + String(Character(Unicode.Scalar(e)))
          } else {
            shown = "\\ followed by " + describe(at: escapeAt + 1)
          }
          throw error("invalid escape \(shown)", at: escapeAt, withoutContent: "invalid escape")
        }
        continue
      }
      if c < 0x20 { throw controlCharacterError(c, at: pos) }
      if c >= 0x80 {
        let sequenceStart = pos
        try skipMultiByteSequence()
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + sequenceStart, count: pos - sequenceStart))
      } else {
        scratch.append(c)
        pos += 1
      }
    }
    throw error("unterminated string", at: open)
  }

  /// The code unit of the `\uXXXX` escape whose backslash is at `escapeAt`;
  /// leaves `pos` after it when the escape is at `pos - 2`, else unchanged.
  package mutating func hexEscape(at escapeAt: Int) throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for k in 0..<4 {
      let i = escapeAt + 2 + k
      guard i < end, let h = hexValue(byte(i)) else {
        throw error("invalid escape: \\u must be followed by 4 hex digits", at: escapeAt)
      }
      value = value << 4 | h
    }
    if escapeAt + 2 == pos { pos += 4 }
    return value
  }

  package mutating func appendUTF8(_ scalar: Unicode.Scalar) {
    let v = scalar.value
    if v < 0x80 {
      scratch.append(UInt8(v))
    } else if v < 0x800 {
      scratch.append(UInt8(0xC0 | v >> 6))
      scratch.append(UInt8(0x80 | v & 0x3F))
    } else if v < 0x10000 {
      scratch.append(UInt8(0xE0 | v >> 12))
      scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | v & 0x3F))
    } else {
      scratch.append(UInt8(0xF0 | v >> 18))
      scratch.append(UInt8(0x80 | (v >> 12) & 0x3F))
      scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | v & 0x3F))
    }
  }

  // MARK: Numbers

  package mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let numberStart = pos
    var negative = false
    if byte(pos) == minus {
      negative = true
      pos += 1
      guard pos < end && isDigit(byte(pos)) else {
        if pos < end && byte(pos) == dot {
          throw error("numbers must have a digit before the decimal point", at: pos)
        }
        throw unexpected("expected a digit after '-'")
      }
    }
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var exponent = 0
    /// More than 19 significant digits: the mantissa does not fit exactly.
    var inexact = false

    // Integer part.
    if byte(pos) == zero {
      pos += 1
      if pos < end && isDigit(byte(pos)) {
        throw error("numbers must not have leading zeros", at: numberStart)
      }
    } else {
      while pos < end {
        let d = byte(pos) &- zero
        guard d < 10 else { break }
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(d)
          significantDigits += 1
        } else {
          exponent += 1
          if d != 0 { inexact = true }
        }
        pos += 1
      }
    }
    // Fraction.
    if pos < end && byte(pos) == dot {
      pos += 1
      guard pos < end && isDigit(byte(pos)) else {
        throw unexpected("expected a digit after the decimal point")
      }
      while pos < end {
        let d = byte(pos) &- zero
        guard d < 10 else { break }
        if significantDigits < 19 {
          if mantissa != 0 || d != 0 {
            mantissa = mantissa &* 10 &+ UInt64(d)
            significantDigits += 1
          }
          exponent -= 1
        } else if d != 0 {
          inexact = true
        }
        pos += 1
      }
    }
    // Exponent.
    if pos < end && byte(pos) | 0x20 == UInt8(ascii: "e") {
      pos += 1
      var exponentNegative = false
      if pos < end && (byte(pos) == plus || byte(pos) == minus) {
        exponentNegative = byte(pos) == minus
        pos += 1
      }
      guard pos < end && isDigit(byte(pos)) else {
        throw unexpected("expected a digit in the exponent")
      }
      var e = 0
      while pos < end {
        let d = byte(pos) &- zero
        guard d < 10 else { break }
        if e < 1_000_000 { e = e * 10 + Int(d) }
        pos += 1
      }
      exponent += exponentNegative ? -e : e
    }

    if !inexact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      var value = Double(mantissa)
      if exponent < 0 {
        value /= exactPowersOfTen[-exponent]
      } else if exponent > 0 {
        value *= exactPowersOfTen[exponent]
      }
      return negative ? -value : value
    }
    if !inexact && mantissa == 0 { return negative ? -0.0 : 0.0 }
    return try slowNumber(from: numberStart)
  }

  /// Correctly rounded conversion of the number token `numberStart..<pos`.
  @inline(never)
  package func slowNumber(from numberStart: Int) throws(JSONSyntaxError) -> Double {
    let token = String(decoding: UnsafeBufferPointer(start: base + numberStart, count: pos - numberStart), as: UTF8.self)
    guard let value = Double(token), value.isFinite else {
      let shown = token.count > 40 ? String(token.prefix(37)) + "..." : token
      throw error(
        "number \(shown) is out of range (it would overflow to infinity)", at: numberStart,
        withoutContent: "a number out of range (it would overflow to infinity)")
    }
    return value
  }
}
