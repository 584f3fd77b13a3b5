import XCTest
import _MapSnapJSON

@testable import _MapSnapStyle

/// The validator's severity rule (a style that cannot be drawn is an error,
/// anything else a warning), its paths, hints and its seam to the
/// expression compiler.
final class StyleValidatorTests: XCTestCase {
  /// A style with one layer over a vector source, `layer` merged into it.
  private func style(layer: JSONObject, sources: JSONValue? = nil, root: [(String, JSONValue)] = []) -> JSONValue {
    var base: JSONObject = [
      "id": "roads", "type": "line", "source": "tiles", "source-layer": "transportation",
    ]
    for (key, value) in layer.pairs { base[key] = value }
    var object: JSONObject = [
      "version": 8,
      "sources": sources ?? ["tiles": ["type": "vector", "tiles": ["tiles/{z}/{x}/{y}.pbf"]]],
      "layers": .array([.object(base)]),
    ]
    for (key, value) in root { object[key] = value }
    return .object(object)
  }

  private func findings(_ style: JSONValue, _ checker: any ExpressionChecking = UncheckedExpressions()) -> [StyleFinding] {
    StyleValidator(expressions: checker).validate(style, file: "style.json")
  }

  func testAValidStyleHasNoFindings() {
    let layer: JSONObject = [
      "paint": ["line-color": "#f00", "line-width": ["interpolate", ["linear"], ["zoom"], 5, 1, 10, 4]],
      "layout": ["line-cap": "round", "visibility": "visible"],
      "filter": ["==", "class", "motorway"],
    ]
    XCTAssertEqual(findings(style(layer: layer)), [])
  }

  func testStylesThatCannotBeDrawnAreErrors() {
    let noVersion: JSONValue = ["sources": [:], "layers": []]
    XCTAssertEqual(findings(noVersion).map(\.severity), [.error])
    XCTAssertEqual(findings(["version": 7, "sources": [:], "layers": []]).first?.path, "version")
    XCTAssertEqual(findings(["version": 8, "sources": [], "layers": [:]]).map(\.severity), [.error, .error])
    XCTAssertEqual(findings("a string").map(\.severity), [.error])

    let cases: [(JSONObject, String)] = [
      (["type": nil], "either \"type\" or \"ref\" is required"),
      (["type": "lines"], "layer type expected"),
      (["source": "nowhere"], "source \"nowhere\" not found"),
      (["source": nil], "missing required property \"source\""),
      (["type": "raster"], "requires a raster source"),
      (["source-layer": nil], "must give a \"source-layer\""),
    ]
    for (layer, message) in cases {
      let found = findings(style(layer: layer))
      XCTAssertTrue(found.contains { $0.severity == .error && $0.message.contains(message) }, "\(layer): \(found)")
    }
    let twice: JSONValue = [
      "version": 8, "sources": [:],
      "layers": [["id": "a", "type": "background"], ["id": "a", "type": "background"], ["type": "background"]],
    ]
    XCTAssertEqual(
      findings(twice).map { "\($0.severity) \($0.path) \($0.message)" },
      ["error layers[1] duplicate layer id \"a\", first used by layers[0]",
       "error layers[2] missing required property \"id\""])
    let ref: JSONValue = [
      "version": 8, "sources": [:], "layers": [["id": "a", "type": "background"], ["id": "b", "ref": "a"]],
    ]
    XCTAssertEqual(findings(ref), [])
    let refWithType: JSONValue = [
      "version": 8, "sources": [:], "layers": [["id": "a", "type": "background"], ["id": "b", "ref": "c", "type": "fill"]],
    ]
    XCTAssertEqual(findings(refWithType).map(\.severity), [.error, .error])
  }

  func testEverythingElseIsAWarning() {
    let layer: JSONObject = [
      "paint": [
        "line-colour": "red", "line-opacity": 2, "line-width": "wide", "line-translate": [1, 2, 3],
        "line-opacity-transition": ["duration": -1],
      ],
      "layout": ["line-cap": "rounded", "visibility": true],
      "filter": ["==", "$type", "Pointe"],
      "minzoom": 30,
    ]
    let found = findings(style(layer: layer, root: [("constants", ["@a": 1]), ("glyphs", "fonts/{fontstack}.pbf")]))
    XCTAssertEqual(Set(found.map(\.severity)), [.warning])
    XCTAssertEqual(
      found.map(\.path),
      [
        #"layers[0].paint["line-colour"]"#, #"layers[0].paint["line-opacity"]"#, #"layers[0].paint["line-width"]"#,
        #"layers[0].paint["line-translate"]"#, #"layers[0].paint["line-opacity-transition"].duration"#,
        #"layers[0].layout["line-cap"]"#, "layers[0].layout.visibility", "layers[0].filter[2]", "layers[0].minzoom",
        "glyphs", "constants",
      ])
  }

  func testHintsNameTheClosestName() {
    let layer: JSONObject = ["type": "lin", "source": "tile", "paint": ["line-colour": "red"]]
    let found = findings(style(layer: layer))
    XCTAssertEqual(found.compactMap(\.hint), ["tiles", "line"])
    let paint = findings(style(layer: ["paint": ["line-colour": "red"], "layout": ["line-cap": "rond"]]))
    XCTAssertEqual(paint.compactMap(\.hint), ["line-color", "round"])
    XCTAssertEqual(
      paint.first?.description,
      #"style.json: layers[0].paint["line-colour"]: unknown property "line-colour" (did you mean "line-color"?)"#)
    XCTAssertNil(findings(style(layer: ["paint": ["zzzz": 1]])).first?.hint)
  }

  func testLegacyFunctions() {
    let good: JSONObject = ["paint": ["line-width": ["base": 1.5, "stops": [[5, 1], [10, 4]]]]]
    XCTAssertEqual(findings(style(layer: good)), [])
    let bad: JSONObject = ["paint": ["line-width": ["stops": [[10, 1], [5, "x"]]], "line-color": ["property": "k", "stops": [["a", "red"]]]]]
    XCTAssertEqual(
      findings(style(layer: bad)).map { "\($0.path): \($0.message)" },
      [
        #"layers[0].paint["line-width"].stops[1][0]: stop domain values must appear in ascending order"#,
        #"layers[0].paint["line-width"].stops[1][1]: number expected, string found"#,
        #"layers[0].paint["line-color"].stops[0][0]: number expected, string found"#
          + #" (for a categorical function give "type": "categorical")"#,
      ])
  }

  /// A checker that records what the validator asks of it.
  private final class RecordingChecker: ExpressionChecking, @unchecked Sendable {
    var contexts: [ExpressionContext] = []
    func isExpression(_ json: JSONValue) -> Bool { UncheckedExpressions().isExpression(json) }
    func check(_ json: JSONValue, spec: PropertySpec, context: ExpressionContext, path: JSONPath) -> [StyleIssue] {
      contexts.append(context)
      return [StyleIssue(.expression("Expected \(spec.type) but found number instead."), at: path.index(1))]
    }
    func isColor(_ text: String) -> Bool { text != "blurple" }
  }

  func testExpressionsFiltersAndColoursGoThroughTheSeam() {
    let checker = RecordingChecker()
    let layer: JSONObject = [
      "paint": ["line-color": "blurple", "line-width": ["get", "w"]],
      "layout": ["line-join": ["get", "j"]],
      "filter": ["all", ["==", ["get", "a"], 1]],
    ]
    let found = findings(style(layer: layer), checker)
    XCTAssertEqual(
      checker.contexts,
      [.property(name: "line-width", isLayout: false), .property(name: "line-join", isLayout: true), .filter])
    XCTAssertEqual(
      found.map(\.path),
      [#"layers[0].paint["line-color"]"#, #"layers[0].paint["line-width"][1]"#, #"layers[0].layout["line-join"][1]"#,
       "layers[0].filter[1]"])
    XCTAssertEqual(Set(found.map(\.severity)), [.warning])
    XCTAssertEqual(found[0].message, "color expected, \"blurple\" found")
  }

  func testLegacyFilterRule() {
    XCTAssertFalse(FilterSyntax.isExpression(["==", "class", "park"]))
    XCTAssertFalse(FilterSyntax.isExpression(["in", "class", "a", "b"]))
    XCTAssertFalse(FilterSyntax.isExpression(["has", "$type"]))
    XCTAssertFalse(FilterSyntax.isExpression(["all", ["==", "a", 1], true]))
    XCTAssertTrue(FilterSyntax.isExpression(["==", ["get", "class"], "park"]))
    XCTAssertTrue(FilterSyntax.isExpression(["in", ["get", "class"], ["literal", ["a"]]]))
    XCTAssertTrue(FilterSyntax.isExpression(["has", "name"]))
    XCTAssertTrue(FilterSyntax.isExpression(true))
    XCTAssertTrue(FilterSyntax.isExpression(["all", ["has", "name"], false]))
    XCTAssertTrue(FilterSyntax.isExpression(["all", ["==", "a", 1], ["==", ["get", "b"], 2]]))
    XCTAssertEqual(FilterSyntax.of(["all", ["has", "name"], true]), .neutral)
    XCTAssertEqual(FilterSyntax.of(["has", "name", "extra"]), .expression)
    XCTAssertEqual(FilterSyntax.of([:]), .legacy)
  }

  func testCompilerKeysExtendPaths() {
    XCTAssertEqual(JSONPath().key("filter").appending(expressionKey: "[2][10]").description, "filter[2][10]")
    XCTAssertEqual(JSONPath().key("filter").appending(expressionKey: "").description, "filter")
  }

  func testLegacyPartsOfExpressionFiltersAreWarnedWithTheirReplacement() {
    let found = findings(style(layer: ["filter": ["all", ["==", ["get", "a"], 1], ["!", ["in", "name", "x", "y"]]]]))
    XCTAssertEqual(found.map(\.path), ["layers[0].filter[2][1]"])
    XCTAssertEqual(found.first?.severity, .warning)
    XCTAssertEqual(
      found.first?.message,
      #"legacy filter syntax mixed into an expression filter is not supported: replace ["in","name","x","y"] with "#
        + #"["in",["get","name"],["literal",["x","y"]]]"#)
  }
}
