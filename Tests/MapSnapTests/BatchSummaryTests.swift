import Testing

@testable import MapSnap

/// `mapsnap batch --summary`: what it lists does not depend on the order in
/// which workers finish frames.
@Suite struct BatchSummaryTests {
  @Test func failuresAreListedInLineOrderWhateverOrderTheyFinishedIn() {
    var tally = BatchTally()
    for line in [7, 3, 12, 2] {
      tally.record(FrameOutcome(line: line, output: "out/\(line).png", status: .failed("line \(line)"), seconds: 0.01))
    }
    tally.record(FrameOutcome(line: 1, output: "out/1.png", status: .rendered, seconds: 0.01))
    let summary = BatchSummary(manifest: "jobs.jsonl", options: BatchOptions(), frames: 5, outcomes: tally, seconds: 1)
    guard case .object(let json) = summary.json, case .array(let failures)? = json["failures"] else {
      Issue.record("no failures array: \(summary.json)")
      return
    }
    let lines = failures.compactMap { f -> Int? in
      guard case .object(let o) = f, case .number(let n)? = o["line"] else { return nil }
      return Int(n)
    }
    #expect(lines == [2, 3, 7, 12])
  }
}
