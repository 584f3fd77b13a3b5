#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Testing
import _MapSnapTestSupport

@testable import MapSnap

// MARK: - Helpers

private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
  try JSONParser.parse(Array(text.utf8))
}

private func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
  do {
    _ = try JSONParser.parse(bytes)
    return nil
  } catch {
    return error
  }
}

private func syntaxError(_ text: String) -> JSONSyntaxError? {
  syntaxError(Array(text.utf8))
}

private func number(_ text: String) throws -> Double {
  guard case .number(let x) = try parse(text) else {
    Issue.record("\(text) did not parse as a number")
    return .nan
  }
  return x
}

/// The C library's correctly rounded conversion, as the reference.
private func strtodReference(_ text: String) -> Double {
  text.withCString { strtod($0, nil) }
}

// MARK: - Values and objects

@Suite struct JSONValueTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try parse(#"{"n": null, "t": true, "f": false, "x": -1.5, "s": "hi", "a": [1, "2", [], {}]}"#)
    let expected: JSONValue = [
      "n": nil, "t": true, "f": false, "x": -1.5, "s": "hi", "a": [1, "2", [], [:]],
    ]
    #expect(value == expected)
  }

  @Test func booleansAndNumbersAreDistinct() throws {
    #expect(try parse("true") == .bool(true))
    #expect(try parse("1") == .number(1))
    #expect(try parse("true") != .number(1))
    #expect(try parse("0") != .bool(false))
  }

  @Test func keyOrderIsPreserved() throws {
    let keys = ["zeta", "alpha", "mid", "beta", "omega", "a", "z", "k", "c", "b", "y", "x"]
    let text = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
    guard case .object(let object) = try parse(text) else {
      Issue.record("not an object")
      return
    }
    #expect(object.keys == keys)
    #expect(object.pairs.map(\.key) == keys)
    #expect(object.count == keys.count)
    for (i, key) in keys.enumerated() {
      #expect(object[key] == .number(Double(i)))
    }
    #expect(object["missing"] == nil)
  }

  @Test func typeNames() {
    let values: [JSONValue] = [nil, true, 1, "s", [], [:]]
    #expect(values.map(\.typeName) == ["null", "boolean", "number", "string", "array", "object"])
  }

  @Test func objectInitKeepsLastValueAndRecordsDuplicates() {
    let small = JSONObject([("id", 1), ("name", "a"), ("id", 2)])
    #expect(small.keys == ["id", "name"])
    #expect(small["id"] == 2)
    #expect(small.duplicateKeys == ["id"])

    var pairs: [(String, JSONValue)] = (0..<20).map { ("k\($0)", JSONValue.number(Double($0))) }
    pairs.append(("k3", "last"))
    pairs.append(("k3", "really last"))
    let large = JSONObject(pairs)
    #expect(large.count == 20)
    #expect(large["k3"] == "really last")
    #expect(large.keys[3] == "k3")
    #expect(large.duplicateKeys == ["k3", "k3"])

    #expect(JSONObject([("a", 1)]).duplicateKeys.isEmpty)
  }

  @Test func objectEqualityIsOrderSensitive() {
    let ab = JSONObject([("a", 1), ("b", 2)])
    let ba = JSONObject([("b", 2), ("a", 1)])
    #expect(ab != ba)
    #expect(ab == JSONObject([("a", 1), ("b", 2)]))
  }

  @Test func objectSubscriptSetterAcrossTheLinearLimit() {
    var object = JSONObject()
    for i in 0..<30 { object["key\(i)"] = .number(Double(i)) }
    #expect(object.count == 30)
    #expect(object["key17"] == 17)
    object["key17"] = "changed"
    #expect(object.keys[17] == "key17")
    #expect(object["key17"] == "changed")
    for i in 0..<25 { object["key\(i)"] = nil }
    #expect(object.keys == ["key25", "key26", "key27", "key28", "key29"])
    #expect(object["key28"] == 28)
    #expect(object["key3"] == nil)
    object["new"] = true
    #expect(object.keys.last == "new")
    #expect(object.index(forKey: "new") == 5)
  }

  @Test func largeParsedObjectsLookUpEveryKey() throws {
    let n = 200
    let text = "{" + (0..<n).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
    guard case .object(let object) = try parse(text) else {
      Issue.record("not an object")
      return
    }
    #expect(object.count == n)
    for i in 0..<n { #expect(object["k\(i)"] == .number(Double(i))) }
  }
}

// MARK: - Syntax errors

@Suite struct JSONSyntaxErrorTests {
  /// (input, line, column, message)
  static let cases: [(String, Int, Int, String)] = [
    // Structure.
    (#"{"a": 1,}"#, 1, 8, "trailing comma before '}'"),
    ("[1, 2,]", 1, 6, "trailing comma before ']'"),
    ("[1, 2, ]", 1, 6, "trailing comma before ']'"),
    (#"{"a" 1}"#, 1, 6, "expected ':' after object key, found '1'"),
    (#"{"a": 1 "b": 2}"#, 1, 9, "expected ',' or '}' after object member, found '\"'"),
    (#"{"a": 1 x}"#, 1, 9, "expected ',' or '}' after object member, found 'x'"),
    ("[1 2]", 1, 4, "expected ',' or ']' after array element, found '2'"),
    ("[1;2]", 1, 3, "expected ',' or ']' after array element, found ';'"),
    ("{a: 1}", 1, 2, "expected a string key (keys must be in double quotes), found 'a'"),
    ("{,}", 1, 2, "expected a string key, found ','"),
    ("{1: 2}", 1, 2, "expected a string key (keys must be in double quotes), found '1'"),
    ("[,1]", 1, 2, "expected a value, found ','"),
    (#"{"a": }"#, 1, 7, "expected a value, found '}'"),
    ("{'a': 1}", 1, 2, "strings must use double quotes"),
    ("['a']", 1, 2, "strings must use double quotes"),
    (#"{"id": 1, "id": 2}"#, 1, 11, #"duplicate key "id""#),
    (#"{"a": {"x": 1, "y": 2, "x": 3}}"#, 1, 24, #"duplicate key "x""#),
    ("", 1, 1, "unexpected end of input"),
    ("   ", 1, 4, "unexpected end of input"),
    ("[1, 2", 1, 6, "unexpected end of input: the array opened at line 1, column 1 is not closed"),
    ("[1, 2,", 1, 7, "unexpected end of input: the array opened at line 1, column 1 is not closed"),
    (#"{"a": "#, 1, 7, "unexpected end of input: the object opened at line 1, column 1 is not closed"),
    ("{\n  \"a\": [1,\n", 3, 1, "unexpected end of input: the array opened at line 2, column 8 is not closed"),
    (#"{"a""#, 1, 5, "unexpected end of input: the object opened at line 1, column 1 is not closed"),
    ("[1] x", 1, 5, "trailing characters after the JSON value"),
    ("{} {}", 1, 4, "trailing characters after the JSON value"),
    ("1 2", 1, 3, "trailing characters after the JSON value"),
    ("// comment\n1", 1, 1, "comments are not allowed in JSON"),
    ("[1, /* two */ 2]", 1, 5, "comments are not allowed in JSON"),
    ("1 // one", 1, 3, "comments are not allowed in JSON"),
    // Literals.
    ("tru", 1, 1, "expected a value, found 'tru'"),
    ("[nul]", 1, 2, "expected a value, found 'nul'"),
    ("nulls", 1, 1, "expected a value, found 'nulls'"),
    ("True", 1, 1, "expected a value, found 'True' (JSON literals are lowercase: true)"),
    ("[NULL]", 1, 2, "expected a value, found 'NULL' (JSON literals are lowercase: null)"),
    ("NaN", 1, 1, "expected a value, found 'NaN'"),
    ("undefined", 1, 1, "expected a value, found 'undefined'"),
    // Numbers.
    ("01", 1, 1, "numbers must not have leading zeros"),
    ("-01", 1, 1, "numbers must not have leading zeros"),
    ("[1, 00]", 1, 5, "numbers must not have leading zeros"),
    ("1.", 1, 3, "expected a digit after the decimal point, found end of input"),
    ("[1.e5]", 1, 4, "expected a digit after the decimal point, found 'e5'"),
    ("1e", 1, 3, "expected a digit in the exponent, found end of input"),
    ("1e+", 1, 4, "expected a digit in the exponent, found end of input"),
    ("[1E-x]", 1, 5, "expected a digit in the exponent, found 'x'"),
    ("-", 1, 2, "expected a digit after '-', found end of input"),
    ("-Infinity", 1, 2, "expected a digit after '-', found 'Infinity'"),
    (".5", 1, 1, "numbers must have a digit before the decimal point"),
    ("-.5", 1, 2, "numbers must have a digit before the decimal point"),
    ("+1", 1, 1, "numbers must not start with '+'"),
    ("1e400", 1, 1, "number 1e400 is out of range (it would overflow to infinity)"),
    ("[0, -1.5e309]", 1, 5, "number -1.5e309 is out of range (it would overflow to infinity)"),
    // Strings.
    (#""abc"#, 1, 1, "unterminated string"),
    (#"["a", "b\"]"#, 1, 7, "unterminated string"),
    (#""a\qb""#, 1, 3, #"invalid escape \q"#),
    (#""\x41""#, 1, 2, #"invalid escape \x"#),
    (#""\'""#, 1, 2, #"invalid escape \'"#),
    (#""\u12G4""#, 1, 2, #"invalid escape: \u must be followed by 4 hex digits"#),
    (#""\u12""#, 1, 2, #"invalid escape: \u must be followed by 4 hex digits"#),
    (
      #""\uD83D""#, 1, 2,
      #"unpaired surrogate \uD83D (a high surrogate must be followed by a low surrogate escape \uDC00...\uDFFF)"#
    ),
    (
      #""x\uD83Dy""#, 1, 3,
      #"unpaired surrogate \uD83D (a high surrogate must be followed by a low surrogate escape \uDC00...\uDFFF)"#
    ),
    (
      #""\uD83D\u0041""#, 1, 2,
      #"unpaired surrogate \uD83D (a high surrogate must be followed by a low surrogate escape \uDC00...\uDFFF)"#
    ),
    (#""\uDE00""#, 1, 2, #"unpaired surrogate \uDE00 (a low surrogate must follow a high surrogate)"#),
    ("\"a\tb\"", 1, 3, #"unescaped tab in string (write it as \t)"#),
    ("\"ab\ncd\"", 1, 4, "unescaped line break in string (missing closing quote?)"),
    ("\"a\u{01}\"", 1, 3, #"unescaped control character U+0001 in string (write it as \u0001)"#),
    ("\"a\\n\u{1F}\"", 1, 5, #"unescaped control character U+001F in string (write it as \u001F)"#),
    // Positions: multi-line documents, CRLF, lone CR, non-ASCII columns.
    ("{\n  \"name\": \"x\",\n  \"opacity\": 01\n}", 3, 14, "numbers must not have leading zeros"),
    ("{\n  \"a\": 1,\n}", 2, 9, "trailing comma before '}'"),
    ("{\r\n\r\n  x}", 3, 3, "expected a string key (keys must be in double quotes), found 'x'"),
    ("[\r1\r,]", 3, 1, "trailing comma before ']'"),
    (#"["héllo", x]"#, 1, 11, "expected a value, found 'x'"),
    (#"["日本語😀", x]"#, 1, 10, "expected a value, found 'x'"),
    ("\t[\t1\t2]", 1, 6, "expected ',' or ']' after array element, found '2'"),
    ("[é]", 1, 2, "expected a value, found 'é' (U+00E9)"),
  ]

  @Test(arguments: cases.indices)
  func syntaxErrorMessageAndPosition(_ i: Int) {
    let (input, line, column, message) = Self.cases[i]
    let error = syntaxError(input)
    #expect(error == JSONSyntaxError(line: line, column: column, message: message), "input: \(input.debugDescription)")
  }

  @Test func duplicateKeyInALargeObject() {
    // Past `JSONObject.linearSearchLimit` members the parser checks with a
    // hash table; both a key from before and one from after the switch count.
    let keys = (0..<12).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
    let early = "{" + keys + ", \"k2\": 0}"
    #expect(
      syntaxError(early)
        == JSONSyntaxError(line: 1, column: early.count - 7, message: #"duplicate key "k2""#))
    let late = "{" + keys + ", \"k11\": 0}"
    #expect(syntaxError(late)?.message == #"duplicate key "k11""#)
    let exactlyAtLimit = "{" + (0..<8).map { "\"k\($0)\": 0" }.joined(separator: ", ") + ", \"k0\": 1}"
    #expect(syntaxError(exactlyAtLimit)?.message == #"duplicate key "k0""#)
  }

  @Test func descriptionNamesLineAndColumn() {
    let error = syntaxError("{\n  \"a\": 1,\n}")
    #expect(error?.description == "line 2, column 9: trailing comma before '}'")
  }

  @Test func invalidUTF8IsReportedWithItsPosition() {
    let quote = UInt8(ascii: "\"")
    // A lone 0xFF inside a string.
    #expect(
      syntaxError([quote, 0x61, 0xFF, 0x62, quote])
        == JSONSyntaxError(line: 1, column: 3, message: "invalid UTF-8 sequence starting with byte 0xFF"))
    // A lead byte followed by ASCII, after a two-byte "é" (one column).
    #expect(
      syntaxError([quote, 0xC3, 0xA9, 0xC3, 0x28, quote])
        == JSONSyntaxError(line: 1, column: 3, message: "invalid UTF-8 sequence starting with byte 0xC3"))
    // Overlong encoding of "/" and an encoded surrogate.
    #expect(syntaxError([quote, 0xC0, 0xAF, quote])?.message == "invalid UTF-8 sequence starting with byte 0xC0")
    #expect(syntaxError([quote, 0xED, 0xA0, 0x80, quote])?.message == "invalid UTF-8 sequence starting with byte 0xED")
    // Beyond U+10FFFF.
    #expect(syntaxError([quote, 0xF4, 0x90, 0x80, 0x80, quote])?.message == "invalid UTF-8 sequence starting with byte 0xF4")
    // Cut short by the end of the input.
    #expect(
      syntaxError([quote, 0x61, 0xE2, 0x82])
        == JSONSyntaxError(line: 1, column: 3, message: "invalid UTF-8: sequence cut short by the end of input"))
    // Invalid UTF-8 in a string with escapes takes the slow path.
    #expect(syntaxError([quote, 0x5C, 0x6E, 0x80, quote])?.message == "invalid UTF-8 sequence starting with byte 0x80")
    // Outside a string.
    #expect(
      syntaxError([UInt8(ascii: "["), 0xFF, UInt8(ascii: "]")])
        == JSONSyntaxError(line: 1, column: 2, message: "expected a value, found byte 0xFF"))
  }

  @Test func byteOrderMarkIsSkippedAndNotCounted() throws {
    #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    #expect(
      syntaxError([0xEF, 0xBB, 0xBF] + Array("[x]".utf8))
        == JSONSyntaxError(line: 1, column: 2, message: "expected a value, found 'x'"))
    #expect(syntaxError([0xEF, 0xBB, 0xBF])?.message == "unexpected end of input")
  }

  @Test func nestingDepthIsLimited() throws {
    let limit = JSONParser.maxDepth
    let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
    var value = try parse(deepest)
    var depth = 0
    while case .array(let elements) = value {
      depth += 1
      value = elements.first ?? .null
    }
    #expect(depth == limit)

    let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
    #expect(
      syntaxError(tooDeep)
        == JSONSyntaxError(
          line: 1, column: limit + 1, message: "nesting too deep (more than 512 levels of arrays and objects)"))
    let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
    #expect(syntaxError(objects)?.message == "nesting too deep (more than 512 levels of arrays and objects)")
    // A huge depth is an error, not a stack overflow.
    #expect(syntaxError(String(repeating: "[", count: 1_000_000))?.column == limit + 1)
  }

  @Test func emptyBufferIsAnError() {
    #expect(syntaxError([UInt8]())?.message == "unexpected end of input")
    #expect(throws: JSONSyntaxError(line: 1, column: 1, message: "unexpected end of input")) {
      try JSONParser.parse(UnsafeRawBufferPointer(start: nil, count: 0))
    }
  }
}

// MARK: - Strings

@Suite struct JSONStringTests {
  @Test func escapes() throws {
    #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti"))
    #expect(try parse(#""\u0041\u00e9\u4E2D\u0000""#) == .string("Aé中\u{0}"))
  }

  @Test func surrogatePairs() throws {
    #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
    #expect(try parse(#""x\ud83d\ude00y""#) == .string("x😀y"))
    #expect(try parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
    #expect(try parse(#""\uD800\uDC00""#) == .string("\u{10000}"))
  }

  @Test func nonASCIIIsKeptAsIs() throws {
    #expect(try parse(#""Helsingfors – Hélsinki 日本 😀""#) == .string("Helsingfors – Hélsinki 日本 😀"))
    #expect(try parse(#""ä\n😀""#) == .string("ä\n😀"))
    #expect(try parse(#"{"Zürich": 1}"#) == ["Zürich": 1])
  }

  @Test func longStrings() throws {
    let long = String(repeating: "abcdefghij", count: 10_000)
    #expect(try parse("\"\(long)\"") == .string(long))
    #expect(try parse("\"\(long)\\n\(long)\"") == .string(long + "\n" + long))
  }
}

// MARK: - Numbers

@Suite struct JSONNumberTests {
  @Test func integersNegativesExponentsAndFractions() throws {
    let cases: [(String, Double)] = [
      ("0", 0), ("-0", -0.0), ("1", 1), ("-1", -1), ("42", 42), ("1234567890", 1_234_567_890),
      ("9007199254740992", 9_007_199_254_740_992), ("9007199254740993", 9_007_199_254_740_992),
      ("-9223372036854775808", -9_223_372_036_854_775_808), ("18446744073709551616", 18_446_744_073_709_551_616),
      ("0.1", 0.1), ("0.5", 0.5), ("-0.25", -0.25), ("3.14159", 3.14159), ("24.9", 24.9), ("60.1791130", 60.179113),
      ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("1e-3", 0.001), ("-2.5e-3", -0.0025), ("1.5E+10", 1.5e10),
      ("0e0", 0), ("0.000001", 1e-6), ("1e22", 1e22), ("1e23", 1e23), ("1e-22", 1e-22), ("1e-23", 1e-23),
      ("123456789012345678901234567890", 1.2345678901234568e29), ("1.7976931348623157e308", .greatestFiniteMagnitude),
      ("4.9406564584124654e-324", .leastNonzeroMagnitude), ("2.2250738585072014e-308", .leastNormalMagnitude),
      ("1e-400", 0), ("-1e-400", -0.0), ("0.00000000000000000000000000001", 1e-29),
      ("1.00000000000000000000000000000", 1), ("100000000000000000000000e-23", 1),
    ]
    for (text, expected) in cases {
      let x = try number(text)
      #expect(x.bitPattern == expected.bitPattern, "\(text) → \(x), expected \(expected)")
    }
  }

  @Test func overflowToInfinityIsAnError() {
    for text in ["1e400", "-1e400", "1.8e308", "123456789e301", "1e999999999999999999"] {
      let error = syntaxError(text)
      #expect(error?.message.hasSuffix("is out of range (it would overflow to infinity)") == true, "\(text)")
    }
    // The largest finite double still parses.
    #expect(syntaxError("1.7976931348623157e308") == nil)
    #expect(syntaxError("1.7976931348623158e308") == nil)  // rounds down to the maximum
  }

  @Test func hardCasesMatchStrtod() throws {
    let cases = [
      "2.2250738585072011e-308", "2.2250738585072012e-308", "9007199254740993", "9007199254740995",
      "0.1000000000000000055511151231257827021181583404541015625",
      "1.00000000000000011102230246251565404236316680908203125",
      "1.00000000000000011102230246251565404236316680908203124",
      "1.00000000000000011102230246251565404236316680908203126",
      "7.038531e-26", "8.988465674311580536566680e307", "4.3e-324", "2.4703282292062327e-324",
      "2.4703282292062328e-324", "1.448997445238699", "17976931348623157e292", "3.0540412e5",
      "123456789012345678", "1234567890123456789", "12345678901234567890", "0.30000000000000004",
      "72057594037927928", "72057594037927936", "9223372036854775807", "5e-324", "1e-320",
      "6.02214076e23", "6.62607015e-34",
    ]
    for text in cases {
      let x = try number(text)
      #expect(x.bitPattern == strtodReference(text).bitPattern, "\(text)")
    }
  }

  @Test func randomNumbersMatchStrtod() throws {
    var rng = SplitMix64(seed: 20_240_601)
    for i in 0..<20_000 {
      // Mantissas of 1...25 digits with a decimal point somewhere and an
      // exponent that keeps the value finite: exercises the fast path (up to
      // 19 digits, |exponent| ≤ 22) and the strtod fallback.
      let digitCount = Int.random(in: 1...25, using: &rng)
      var digits = String(Int.random(in: 1...9, using: &rng))
      for _ in 1..<digitCount { digits.append(String(Int.random(in: 0...9, using: &rng))) }
      let point = Int.random(in: 0...digitCount, using: &rng)
      var text = point == digitCount ? digits : (point == 0 ? "0." + digits : {
        let k = digits.index(digits.startIndex, offsetBy: point)
        return String(digits[..<k]) + "." + String(digits[k...])
      }())
      if i % 3 != 0 { text += "e\(Int.random(in: -40...40, using: &rng))" }
      if i % 2 == 0 { text = "-" + text }
      let x = try number(text)
      let reference = strtodReference(text)
      if x.bitPattern != reference.bitPattern {
        Issue.record("\(text): parsed \(x), strtod \(reference)")
      }
    }
  }

  @Test func shortestDoubleTextRoundTrips() throws {
    var rng = SplitMix64(seed: 7)
    for _ in 0..<20_000 {
      let x = Double(bitPattern: rng.next())
      guard x.isFinite else { continue }
      let parsed = try number(x.description)
      #expect(parsed.bitPattern == x.bitPattern, "\(x)")
    }
  }
}
