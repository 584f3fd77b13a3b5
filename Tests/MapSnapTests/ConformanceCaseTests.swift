import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Style cases of `mapsnap test`: `metadata.test` read as the render suite
/// means it, the suite's classification, the case folders `CaseLoader`
/// finds, the table by group and the recorded counts.
@Suite struct ConformanceCaseTests {
  static func parse(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

  static func style(_ test: String, layers: String = #"[{"id": "b", "type": "background"}]"#) -> JSONValue {
    parse(#"{"version": 8, "metadata": {"test": \#(test)}, "sources": {}, "layers": \#(layers)}"#)
  }

  @Test func defaults() throws {
    let c = try StyleCase(style: Self.parse(#"{"version": 8, "sources": {}, "layers": []}"#), stylePath: "s.json", group: "empty")
    #expect(c.width == 512 && c.height == 512 && c.pixelRatio == 1)
    #expect(c.allowed == 0.00015)
    #expect(c.operations.isEmpty && c.marks.isEmpty && c.unsupported.isEmpty)
    #expect(c.kind == .flat)
  }

  @Test func parameters() throws {
    let c = try StyleCase(
      style: Self.style(#"{"width": 64, "height": 32, "pixelRatio": 2, "allowed": 0.001, "ignored": {"native": "url"}, "skipped": {"js": "x"}}"#),
      stylePath: "s.json", group: "g")
    #expect(c.width == 64 && c.height == 32 && c.pixelRatio == 2)
    #expect(c.imageWidth == 128 && c.imageHeight == 64)
    #expect(c.allowed == 0.001)
    #expect(c.marks == ["skipped (js)", "ignored (native)"], "recorded, not obeyed: the case still runs")
    #expect(try StyleCase(style: Self.style(#"{"skipped": true, "ignored": false}"#), stylePath: "s", group: "g").marks == ["skipped"])
    #expect(c.unsupported.isEmpty)
    // A numeric diff replaces allowed; a diff per implementation is left aside.
    #expect(try StyleCase(style: Self.style(#"{"allowed": 0.001, "diff": 0.003}"#), stylePath: "s", group: "g").allowed == 0.003)
    #expect(try StyleCase(style: Self.style(#"{"diff": {"js": 0.01}}"#), stylePath: "s", group: "g").allowed == 0.00015)
  }

  @Test func invalidParametersAreProblems() {
    for test in [#"{"width": 0}"#, #"{"height": 1.5}"#, #"{"pixelRatio": -1}"#, #"{"allowed": 2}"#, #"{"operations": {}}"#, #"[]"#] {
      #expect(throws: SceneError.self, "\(test)") { try StyleCase(style: Self.style(test), stylePath: "s.json", group: "g") }
    }
    #expect(throws: SceneError.self) { try StyleCase(style: .array([]), stylePath: "s.json", group: "g") }
  }

  @Test func unsupportedSwitchesAndOperations() throws {
    #expect(try StyleCase(style: Self.style(#"{"collisionDebug": true}"#), stylePath: "s", group: "debug").unsupported.count == 1)
    #expect(try StyleCase(style: Self.style(#"{"debug": true}"#), stylePath: "s", group: "debug").unsupported.count == 1)
    #expect(try StyleCase(style: Self.style(#"{"showOverdrawInspector": true}"#), stylePath: "s", group: "g").unsupported.count == 1)
    #expect(try StyleCase(style: Self.style(#"{"collisionDebug": false}"#), stylePath: "s", group: "g").unsupported.isEmpty)
    #expect(try StyleCase(style: Self.style(#"{"classes": ["night"]}"#), stylePath: "s", group: "classes").unsupported.count == 1)
    let ops = try StyleCase(
      style: Self.style(#"{"operations": [["addClass", "x"], ["setZoom", 2], ["wait"], ["addImage", "m", "local://x.png"]]}"#), stylePath: "s", group: "g")
    #expect(ops.unsupported.count == 2)
    #expect(try StyleCase(style: Self.style(#"{"operations": [["setPaintProperty", "b", "background-color", "red"], ["wait"]]}"#), stylePath: "s", group: "g").unsupported.isEmpty)
  }

  @Test func classification() throws {
    let flat = Self.style("{}")
    #expect(StyleCase.kind(group: "line-width", style: flat, operations: []) == .flat)
    for group in ["text-size", "icon-offset", "symbol-placement", "sprites"] {
      #expect(StyleCase.kind(group: group, style: flat, operations: []) == .symbol, "\(group)")
    }
    #expect(StyleCase.kind(group: "spritesheet", style: flat, operations: []) == .flat)
    let symbolLayer = Self.style("{}", layers: #"[{"id": "s", "type": "symbol", "source": "x"}]"#)
    #expect(StyleCase.kind(group: "regressions", style: symbolLayer, operations: []) == .symbol)
    let added = [Self.parse(#"["addLayer", {"id": "s", "type": "symbol", "source": "x"}]"#)]
    #expect(StyleCase.kind(group: "runtime-styling", style: flat, operations: added) == .symbol)
    // fill-extrusion groups are apart, whatever their layers.
    #expect(StyleCase.kind(group: "fill-extrusion-color", style: symbolLayer, operations: []) == .fillExtrusion)
    #expect(try StyleCase(style: symbolLayer, stylePath: "s", group: "regressions").kind == .symbol)
  }

  @Test("the fixture folder: grouped style cases, each one image named group/case")
  func loader() {
    let root = Repository.root + "/Tests/Fixtures/conformance/cases"
    let (cases, problems) = CaseLoader(root: root).load()
    #expect(problems.isEmpty, "\(problems)")
    #expect(
      cases.map(\.id) == ["background-color/literal", "debug/collision", "fill-extrusion-color/literal", "runtime-styling/paint-property", "text-size/literal"])
    #expect(cases.map { $0.style?.kind } == [.flat, .flat, .fillExtrusion, .flat, .symbol])
    #expect(cases.allSatisfy { $0.expectedImage.hasSuffix("/expected.png") && !$0.compareReports })
    #expect(cases[3].style?.operations.count == 2)
    #expect(CaseLoader(root: root).folderWarnings().isEmpty, "groups of style cases are not warned of")
  }

  @Test("the table by group and the recorded counts: file form, shortfalls, totals")
  func tableAndCounts() throws {
    func outcome(_ group: String, _ kind: StyleCase.Kind, passed: Bool = false, within: Bool = false, unsupported: String? = nil) -> CaseOutcome {
      var o = CaseOutcome(id: group + "/t", caseName: group + "/t", stem: "expected", status: passed ? .passed : .failed("x"), expectedImage: "")
      var v = StyleVerdict(group: group, kind: kind, allowed: 0.00015, marks: [])
      (v.passed, v.withinOnePercent, v.unsupported) = (passed, within, unsupported)
      o.verdict = v
      return o
    }
    let table = ConformanceTable(outcomes: [
      outcome("line-width", .flat, passed: true, within: true), outcome("line-width", .flat, within: true), outcome("debug", .flat, unsupported: "x"),
      outcome("text-size", .symbol), outcome("fill-extrusion-color", .fillExtrusion, passed: true, within: true),
    ])
    #expect(table.groups.map(\.name) == ["debug", "fill-extrusion-color", "line-width", "text-size"])
    #expect(table.kinds[.flat]?.tests == 3 && table.kinds[.flat]?.passed == 1 && table.kinds[.flat]?.withinOnePercent == 2 && table.kinds[.flat]?.unsupported == 1)
    #expect(table.text.contains("flat: 3 tests, 1 passed (33.3 %), 2 within 1 % (66.7 %), 1 unsupported"), "\(table.text)")
    #expect(table.text.contains("symbol: 1 tests, 0 passed (0.0 %)"))
    let counts = table.counts
    let reread = try ConformanceCounts(json: Self.parse(counts.text), file: "counts.json")
    #expect(reread == counts)
    #expect(counts.shortfalls(against: reread).isEmpty)
    var higher = counts
    higher.kinds[.flat]?.passed = 2
    higher.kinds[.symbol]?.withinOnePercent = 1
    higher.kinds[.fillExtrusion]?.passed = 5
    #expect(counts.shortfalls(against: higher) == ["flat: 1 passed, 2 recorded", "symbol: 0 within 1 %, 1 recorded"], "fill-extrusion is recorded, not checked")
    higher.kinds[.symbol]?.tests = 7
    #expect(counts.differentTotals(from: higher) == ["symbol: 1 tests, 7 recorded"])
    #expect(throws: SceneError.self) { try ConformanceCounts(json: Self.parse(#"{"flat": {"tests": 1}}"#), file: "c.json") }
  }

  @Test("the project's recorded counts are readable and cover the suite's 357 tests")
  func recordedCounts() throws {
    let path = Repository.root + "/Tests/Fixtures/conformance/render-suite-counts.json"
    let counts = try ConformanceCounts(json: try JSONParser.parse(try Files.read(path)), file: path)
    #expect(StyleCase.Kind.allCases.map { counts.kinds[$0]?.tests ?? 0 }.reduce(0, +) == 357)
  }
}
