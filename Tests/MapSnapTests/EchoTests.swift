import Testing

@testable import MapSnap

/// `Echo`: the one rule for showing input in messages.
@Suite struct EchoTests {
  @Test func controlCharactersAreEscaped() {
    #expect(Echo.quoted("a\u{1B}[31mred\n\t\"q\"\\") == #""a\u{1B}[31mred\n\t\"q\"\\""#)
    #expect(Echo.escaped("C1 \u{9B} DEL \u{7F} bidi \u{202E}x\u{2066}") == #"C1 \u{9B} DEL \u{7F} bidi \u{202E}x\u{2066}"#)
    #expect(Echo.escaped("Töölö 東京 👩‍👩‍👧") == "Töölö 東京 👩‍👩‍👧")
  }

  @Test func longValuesAreCutAt200Characters() {
    let long = String(repeating: "k", count: 1_000_000)
    let shown = Echo.quoted(long)
    #expect(shown == "\"" + String(repeating: "k", count: 200) + "…\"")
    #expect(Echo.quoted(String(repeating: "k", count: 200)).count == 202)
  }

  /// One character may hold any number of combining marks: the cut counts scalars.
  @Test func combiningMarksCountTowardTheCut() {
    let shown = Echo.escaped("e" + String(repeating: "\u{301}", count: 20_000))
    #expect(shown.unicodeScalars.count == 201)
    #expect(JSONPath().key("x" + String(repeating: "\u{301}", count: 20_000)).description.unicodeScalars.count < 80)
  }

  @Test func terminalSafeKeepsNewlinesOnly() {
    #expect(Echo.terminalSafe("line 1\nline\u{7}2\u{1B}") == "line 1\nline\\u{7}2\\u{1B}")
    #expect(Echo.terminalSafe("plain") == "plain")
  }

  @Test func pathsQuoteKeysThatAreNotIdentifiers() {
    let p = JSONPath().key("layers").index(0).key("style.fill")
    #expect(p.description == #"layers[0]["style.fill"]"#)
    #expect(JSONPath().key("a b").key("_ok9").description == #"["a b"]._ok9"#)
    #expect(JSONPath().key("9lives").description == #"["9lives"]"#)
    #expect(JSONPath().key("x\u{1B}").description == #"["x\u{1B}"]"#)
    #expect(JSONPath().key("").description == #"[""]"#)
  }

  /// Issue 37, item 15: a plain key of a megabyte was written bare, whole;
  /// a path as deep as the parser allows shows its ends.
  @Test func longPlainKeysAndDeepPathsAreCut() {
    let long = JSONPath().key(String(repeating: "k", count: 1_000_000)).description
    #expect(long.unicodeScalars.count < JSONPath.keyLimit + 8 && long.hasPrefix(#"["kkk"#) && long.contains("…"))
    #expect(JSONPath().key(String(repeating: "k", count: JSONPath.keyLimit)).description == String(repeating: "k", count: JSONPath.keyLimit))
    var deep = JSONPath().key("layers")
    for i in 0..<JSONParser.maxDepth { deep = deep.index(i).key("a") }
    #expect(deep.description.hasPrefix("layers[0].a[1]"))
    #expect(deep.description.hasSuffix("[\(JSONParser.maxDepth - 1)].a"))
    #expect(deep.description.count < 400, "\(deep.description.count)")
  }

  /// A scene whose unknown key holds an escape sequence, a dot and a
  /// megabyte: the message names it escaped, quoted, cut, in one line.
  @Test func anUnknownHostileKeyGivesASafeShortMessage() throws {
    let key = "style.fill\u{1B}]0;pwned\u{7}" + String(repeating: "x", count: 1 << 20)
    let json = "{\"version\": 1, \"map\": {\"center\": [0, 0], \"scale\": 1000, \"size\": [10, 10], \"\(key.replacingOccurrences(of: "\u{1B}", with: "\\u001b").replacingOccurrences(of: "\u{7}", with: "\\u0007"))\": 1}}"
    do {
      _ = try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: "")
      Issue.record("expected an error")
    } catch {
      let text = error.description
      #expect(text.count < 1200, "\(text.count) characters")
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
      #expect(text.hasPrefix(#"s.json: map["style.fill\u{1B}]0;pwned\u{7}xxx"#), "\(text.prefix(120))")
      #expect(text.contains("unknown key \"style.fill\\u{1B}]0;pwned\\u{7}xxx"))
      #expect(text.contains("…"))
    }
  }

  /// A source's path is echoed once or twice (as named, and where it was
  /// looked for when that differs), each cut: a 6 KB path gives a short line.
  @Test func aLongSourcePathIsCutWhereverItIsEchoed() {
    let name = String(repeating: "d/", count: 3_000) + "x.geojson"
    let errors: [SourceError] = [
      .missing(path: name, resolvedPath: "/srv/" + name),
      .unreadable(path: name, resolvedPath: "/srv/" + name, reason: "not a regular file (a FIFO)"),
      .syntax(path: name, line: 1, column: 1, message: "expected a value"),
      .notGeoJSON(path: name, jsonPath: "", expected: "an object", found: nil, hint: nil),
      .ogr(path: name, message: "m"), .ogrLayer(path: name, layer: "a", layers: ["b"]),
    ]
    for error in errors {
      #expect(error.description.count < 2 * Echo.limit + 120, "\(error.description.count) characters")
    }
    let missing = SourceError.missing(path: name, resolvedPath: "/srv/" + name).description
    #expect(missing == Echo.escaped(name) + " (" + Echo.escaped("/srv/" + name) + "): no such file")
    #expect(SourceError.missing(path: "a\u{1B}.json", resolvedPath: "a\u{1B}.json").description == "a\\u{1B}.json: no such file")
  }
}
