import Testing
import _MapSnapTestSupport

@testable import MapSnap

@Suite struct JSONWriterTests {
  @Test func integersHaveNoFractionAndOthersAreShortest() {
    let cases: [(Double, String)] = [
      (0, "0"), (-0.0, "-0"), (3, "3"), (-42, "-42"), (1e15, "1000000000000000"),
      (9_007_199_254_740_991, "9007199254740991"), (0.1, "0.1"), (-0.25, "-0.25"), (24.95, "24.95"),
      (123.456, "123.456"), (0.0001, "0.0001"), (0.000015, "0.000015"), (-2.5e-5, "-0.000025"),
      (1e-6, "0.000001"), (1.5e-7, "1.5e-7"), (1e-7, "1e-7"), (.leastNonzeroMagnitude, "5e-324"), (1e16, "1e16"),
      (1.7976931348623157e308, "1.7976931348623157e308"), (2_251_799_813_685_248.5, "2251799813685248.5"),
      (.infinity, "null"), (-.infinity, "null"), (.nan, "null"), (60.179113, "60.179113"),
    ]
    for (x, text) in cases {
      #expect(JSONWriter.numberText(x) == text, "\(x)")
    }
    // At and above 2^53 integral values keep a shortest round-trip form.
    let big = JSONWriter.numberText(9_007_199_254_740_992)
    #expect(Double(big) == 9_007_199_254_740_992)
  }

  @Test func prettyLayout() {
    let value: JSONValue = [
      "type": "Feature",
      "bbox": [24.9, 60.1, 24.95, 60.2],
      "properties": ["n": 3, "empty": [:], "list": [], "mixed": [1, "a", true, nil]],
      "nested": [[1, 2], [3, 4]],
    ]
    let expected = """
      {
        "type": "Feature",
        "bbox": [24.9, 60.1, 24.95, 60.2],
        "properties": {
          "n": 3,
          "empty": {},
          "list": [],
          "mixed": [1, "a", true, null]
        },
        "nested": [
          [1, 2],
          [3, 4]
        ]
      }
      """
    #expect(JSONWriter().write(value) == expected)
  }

  @Test func compactLayout() {
    let value: JSONValue = ["a": [1, 2.5, [3]], "b": ["c": nil], "d": [], "e": [:]]
    #expect(JSONWriter(compact: true).write(value) == #"{"a":[1,2.5,[3]],"b":{"c":null},"d":[],"e":{}}"#)
    #expect(JSONWriter(compact: true).writeBytes(value) == Array(JSONWriter(compact: true).write(value).utf8))
  }

  @Test func scalarsAtTheTop() {
    #expect(JSONWriter().write(nil) == "null")
    #expect(JSONWriter().write(true) == "true")
    #expect(JSONWriter().write(2) == "2")
    #expect(JSONWriter().write("x") == "\"x\"")
  }

  @Test func stringEscaping() {
    let value = JSONValue.string("a\"b\\c/\n\t\r\u{08}\u{0C}\u{01}\u{1F}\u{7F} é 😀")
    #expect(JSONWriter().write(value) == #""a\"b\\c/\n\t\r\b\f\u0001\u001f"# + "\u{7F} é 😀\"")
    #expect(JSONWriter().write(["k\"ey": 1]) == "{\n  \"k\\\"ey\": 1\n}")
  }

  @Test func roundTrip() throws {
    var rng = SplitMix64(seed: 99)
    var randomNumbers: [JSONValue] = []
    while randomNumbers.count < 2_000 {
      let x = Double(bitPattern: rng.next())
      if x.isFinite { randomNumbers.append(.number(x)) }
    }
    let values: [JSONValue] = [
      nil, true, false, 0, -0.0, 1, -1, 0.1, 1e-7, 1e300, .number(-.leastNonzeroMagnitude), 9_007_199_254_740_993, 1e16,
      "", "plain", "quote \" backslash \\ slash / controls \u{0}\u{1}\n\t", "é 日本 😀 \u{10FFFF}",
      [], [:], [[[]]], [1, [2, [3, [4]]]], ["a": ["b": ["c": []]]],
      ["type": "FeatureCollection", "features": [["type": "Feature", "geometry": nil]]],
      .array(randomNumbers),
      .object(JSONObject((0..<50).map { ("key \($0)", JSONValue.number(Double($0) / 7)) })),
    ]
    for value in values {
      for writer in [JSONWriter(), JSONWriter(compact: true)] {
        let text = writer.write(value)
        let back = try JSONParser.parse(text)
        #expect(back == value, "\(text.prefix(200))")
      }
    }
    // Bit-exact numbers, including the sign of zero.
    for case .number(let x) in randomNumbers + [.number(-0.0)] {
      guard case .number(let y) = try JSONParser.parse(JSONWriter.numberText(x)) else { continue }
      #expect(y.bitPattern == x.bitPattern)
    }
  }
}
