import Foundation
import XCTest
import _MapSnapJSON

@testable import _MapSnapStyle

/// The reference validator's conformance cases
/// (`../shared/conformance/style-spec/style-spec/*.input.json` with the
/// findings `*.output.json` gives), checked by the validator mapsnap runs
/// (its expression checks through the compiler): a case passes when it reports
/// one finding at each path the reference reports, and no other. The number
/// of passing cases may not fall below `validation-pass-count.txt`.
final class StyleValidatorConformanceTests: XCTestCase {
  func testConformanceCases() throws {
    let folder = Self.conformanceFolder()
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      XCTFail("conformance data not found at \(folder.path) (expected ../shared/conformance beside the repository)")
      return
    }
    let cases = names.filter { $0.hasSuffix(".input.json") }.map { String($0.dropLast(".input.json".count)) }.sorted()
    XCTAssertEqual(cases.count, 38, "the reference validator's suite has 38 cases")
    var passed: [String] = []
    var failed: [String] = []
    for name in cases {
      let style = try JSONParser.parse(Array(Data(contentsOf: folder.appendingPathComponent(name + ".input.json"))))
      let output = try JSONParser.parse(Array(Data(contentsOf: folder.appendingPathComponent(name + ".output.json"))))
      guard case .array(let expected) = output else { throw CocoaError(.fileReadCorruptFile) }
      let expectedPaths = expected.compactMap { $0["message"]?.stringValue }.map(Self.referencePath)
      let found = StyleValidator(expressions: CompiledExpressionChecks()).validate(style, file: name + ".input.json")
      if Self.matches(expected: expectedPaths, found: found.map(\.path)) {
        passed.append(name)
      } else {
        failed.append(name)
        let (missing, extra) = Self.difference(expected: expectedPaths, found: found)
        print("validation case \(name): not found: \(missing); not expected:\n  "
          + extra.map(\.description).joined(separator: "\n  "))
      }
    }
    print("validation conformance: \(passed.count) of \(cases.count) pass; failing: \(failed.joined(separator: ", "))")
    let recorded = try Self.recordedPassCount()
    XCTAssertGreaterThanOrEqual(passed.count, recorded, "pass count fell below validation-pass-count.txt")
    for name in failed { XCTFail("case \(name) fails") }
  }

  /// The render suite's styles draw, so none of them may give an error
  /// (warnings are allowed: one of them tests a GeoJSON source without data).
  func testRenderSuiteStylesHaveNoErrors() throws {
    let root = Self.conformanceFolder().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("render-suite/render-tests")
    guard let walker = FileManager.default.enumerator(atPath: root.path) else {
      XCTFail("render suite not found at \(root.path)")
      return
    }
    var styles = 0
    while let file = walker.nextObject() as? String {
      guard file.hasSuffix("style.json") else { continue }
      let style = try JSONParser.parse(Array(Data(contentsOf: root.appendingPathComponent(file))))
      styles += 1
      for finding in StyleValidator().validate(style, file: file) where finding.severity == .error {
        XCTFail(finding.description)
      }
    }
    XCTAssertGreaterThan(styles, 300)
  }

  /// True when every expected path has a finding of its own and there are no
  /// others. The reference names members of `light`, `sky`, `terrain`,
  /// `projection` and raster-dem sources without their parents' path
  /// (`anchor` for `light.anchor`), so an expected path also matches a
  /// found path that ends with it after a dot.
  static func matches(expected: [String], found: [String]) -> Bool {
    guard expected.count == found.count else { return false }
    var unused = found
    for path in expected {
      guard let i = unused.firstIndex(where: { $0 == path || $0.hasSuffix("." + path) }) else { return false }
      unused.remove(at: i)
    }
    return true
  }

  /// The expected paths no finding matched, and the findings no expected
  /// path matched.
  static func difference(expected: [String], found: [StyleFinding]) -> ([String], [StyleFinding]) {
    var unused = found
    var missing: [String] = []
    for path in expected {
      if let i = unused.firstIndex(where: { $0.path == path || $0.path.hasSuffix("." + path) }) {
        unused.remove(at: i)
      } else {
        missing.append(path)
      }
    }
    return (missing, unused)
  }

  /// The path of a reference message (`layers[0].paint.fill-color: ...`)
  /// written as `JSONPath` writes it (`layers[0].paint["fill-color"]`); empty
  /// for a message about the root. The reference's cluster-property paths
  /// (`sources.S.P.map`, `.reduce`) become the members they name:
  /// `sources.S.clusterProperties.P[1]` (the map expression) and `[0]`.
  static func referencePath(_ message: String) -> String {
    guard let colon = message.range(of: ": ") else { return "" }
    let text = String(message[..<colon.lowerBound])
    guard !text.contains(" ") else { return "" }
    var steps: [Either] = []
    var name = ""
    var index = ""
    var inIndex = false
    for ch in text {
      switch ch {
      case "." where !inIndex:
        if !name.isEmpty { steps.append(.key(name)) }
        name = ""
      case "[":
        if !name.isEmpty { steps.append(.key(name)) }
        name = ""
        inIndex = true
      case "]":
        steps.append(.index(Int(index) ?? 0))
        index = ""
        inIndex = false
      default:
        if inIndex { index.append(ch) } else { name.append(ch) }
      }
    }
    if !name.isEmpty { steps.append(.key(name)) }
    if steps.count == 4, case .key("sources") = steps[0], case .key(let last) = steps[3], last == "map" || last == "reduce" {
      steps = [steps[0], steps[1], .key("clusterProperties"), steps[2], .index(last == "map" ? 1 : 0)]
    }
    var path = JSONPath()
    for step in steps {
      switch step {
      case .key(let k): path = path.key(k)
      case .index(let i): path = path.index(i)
      }
    }
    return path.description
  }

  enum Either {
    case key(String)
    case index(Int)
  }

  static func conformanceFolder() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("shared/conformance/style-spec/style-spec")
  }

  static func recordedPassCount() throws -> Int {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("validation-pass-count.txt")
    let text = try String(contentsOf: file, encoding: .utf8)
    guard let count = Int(text.split(separator: "\n").first { !$0.hasPrefix("#") }?.trimmingCharacters(in: .whitespaces) ?? "")
    else { throw CocoaError(.fileReadCorruptFile) }
    return count
  }
}
