import Foundation
import Testing
import _MapSnapTestSupport

/// `mapsnap test` over a folder of style cases (the render suite's layout,
/// Tests/Fixtures/conformance/cases): every case runs to a verdict (passed,
/// failed with the renderer's message, or unsupported), the table by group
/// and the totals, the recorded counts compared and rewritten on request.
@Suite("mapsnap test on style cases (built binary)")
struct ConformanceCommandTests {
  static let clean: [String: String?] = ["CI": nil, "MAPSNAP_RECORD": nil, "GITHUB_ACTIONS": nil]
  static let cases = Repository.root + "/Tests/Fixtures/conformance/cases"

  /// Counts that nothing falls below (a run with no pass still meets them).
  static let zeroCounts = """
    {
      "flat": {"tests": 3, "passed": 0, "withinOnePercent": 0, "unsupported": 0},
      "symbol": {"tests": 1, "passed": 0, "withinOnePercent": 0, "unsupported": 0},
      "fill-extrusion": {"tests": 1, "passed": 0, "withinOnePercent": 0, "unsupported": 0}
    }
    """

  @Test("each case ends in a verdict; the table lists the groups and the kinds; zero recorded counts pass")
  func tableAndCounts() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.zeroCounts, to: dir + "/counts.json")
      let r = try CLI.run(["test", Self.cases, "--groups", "--offline", "--counts", "counts.json", "--html", "report.html"], in: dir, environment: Self.clean)
      #expect(r.status == 0, "\(r)")
      #expect(!r.crashed && !r.timedOut)
      #expect(r.stderr.contains("✗ debug/collision: unsupported: metadata.test.collisionDebug"), "\(r.stderr)")
      // Each drawn case passes or fails with a message (the renderer's own when it throws).
      for id in ["background-color/literal", "runtime-styling/paint-property", "text-size/literal", "fill-extrusion-color/literal"] {
        #expect(r.stderr.contains("✓ \(id)") || r.stderr.contains("✗ \(id): "), "\(id): \(r.stderr)")
      }
      #expect(r.stderr.contains("of 5 in"), "\(r.stderr)")
      // Lines in the cases' order, whatever order they finished in.
      let order = ["background-color/literal", "debug/collision", "fill-extrusion-color/literal", "runtime-styling/paint-property", "text-size/literal"]
      let positions = order.compactMap { r.stderr.range(of: " " + $0)?.lowerBound }
      #expect(positions.count == 5 && positions == positions.sorted(), "\(r.stderr)")
      let out = r.stdoutText
      #expect(out.contains("group") && out.contains("within 1 %") && out.contains("unsupported"), "\(out)")
      #expect(out.contains("debug ") && out.contains("runtime-styling ") && out.contains("fill-extrusion-color "), "\(out)")
      #expect(out.contains("flat: 3 tests,") && out.contains("1 unsupported"), "\(out)")
      #expect(out.contains("symbol: 1 tests,") && out.contains("fill-extrusion: 1 tests,"), "\(out)")
      #expect(r.stderr.contains("counts: none below those recorded"), "\(r.stderr)")
      let html = try String(decoding: Files.read(dir + "/report.html"), as: UTF8.self)
      #expect(html.contains("Style cases by group"))
    }
  }

  @Test("a count below the recorded one fails the run (exit 1); --record-counts rewrites the file, refused under CI")
  func shortfallAndRecording() throws {
    try withTemporaryDirectory { dir in
      let high = Self.zeroCounts.replacingOccurrences(of: #""flat": {"tests": 3, "passed": 0"#, with: #""flat": {"tests": 3, "passed": 3"#)
      try Files.write(high, to: dir + "/counts.json")
      let r = try CLI.run(["test", Self.cases, "--quiet", "--counts", "counts.json"], in: dir, environment: Self.clean)
      #expect(r.status == 1, "\(r)")
      #expect(r.stderr.contains("error: below the recorded counts (counts.json): flat:") && r.stderr.contains("3 recorded"), "\(r.stderr)")
      let ci = try CLI.run(["test", Self.cases, "--counts", "counts.json", "--record-counts"], in: dir, environment: ["CI": "true", "MAPSNAP_RECORD": nil])
      #expect(ci.status == 64, "\(ci)")
      let recorded = try CLI.run(["test", Self.cases, "--quiet", "--counts", "counts.json", "--record-counts"], in: dir, environment: Self.clean)
      #expect(recorded.status == 0, "\(recorded)")
      let text = try String(decoding: Files.read(dir + "/counts.json"), as: UTF8.self)
      #expect(text.contains(#""flat": {"tests": 3, "#) && text.contains(#""unsupported": 1}"#), "\(text)")
      #expect(try CLI.run(["test", Self.cases, "--quiet", "--counts", "counts.json"], in: dir, environment: Self.clean).status == 0)
      let filtered = try CLI.run(["test", Self.cases, "--counts", "counts.json", "--filter", "debug"], in: dir, environment: Self.clean)
      #expect(filtered.status == 64, "\(filtered)")
    }
  }
}
