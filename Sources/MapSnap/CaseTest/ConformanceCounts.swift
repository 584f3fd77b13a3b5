/// The render suite's counts a commit records (`mapsnap test --counts FILE`;
/// the project's are `Tests/Fixtures/conformance/render-suite-counts.json`),
/// so that CI fails when a change passes fewer tests than before:
///
/// ```json
/// {
///   "flat": {"tests": 190, "passed": 0, "withinOnePercent": 0, "unsupported": 1},
///   "symbol": {"tests": 151, "passed": 0, "withinOnePercent": 0, "unsupported": 4},
///   "fill-extrusion": {"tests": 16, "passed": 0, "withinOnePercent": 0, "unsupported": 0}
/// }
/// ```
///
/// A run falls short when its flat or symbol tests pass fewer, or come
/// within 1 % fewer, than recorded (`checkedKinds`); fill-extrusion, left out
/// of the suite's rates, is recorded for information. Written only on request
/// (`--record-counts`).
public struct ConformanceCounts: Sendable, Equatable {
  public var kinds: [StyleCase.Kind: ConformanceTable.Tally] = [:]

  /// The kinds whose counts may not fall.
  public static let checkedKinds: [StyleCase.Kind] = [.flat, .symbol]

  static let fields = ["tests", "passed", "withinOnePercent", "unsupported"]

  public init() {}

  /// Reads a counts file's JSON.
  /// - Throws: `SceneError` for a file not of the form above.
  public init(json: JSONValue, file: String) throws(SceneError) {
    guard case .object(let o) = json else { throw SceneError(file: file, kind: .invalidValue, expected: "an object of counts by kind", found: describe(json)) }
    for k in StyleCase.Kind.allCases {
      let at = JSONPath().key(k.rawValue)
      guard let entry = o[k.rawValue] else { throw SceneError(file: file, at: at, kind: .missingKey, expected: "the counts of the \(k.rawValue) tests") }
      var t = ConformanceTable.Tally()
      for f in Self.fields {
        guard case .number(let n)? = entry[f], n >= 0, n == n.rounded(), n < 1e9 else {
          throw SceneError(file: file, at: at.key(f), kind: .invalidValue, expected: "a whole number >= 0", found: entry[f].map(describe) ?? "nothing")
        }
        switch f {
        case "tests": t.tests = Int(n)
        case "passed": t.passed = Int(n)
        case "withinOnePercent": t.withinOnePercent = Int(n)
        default: t.unsupported = Int(n)
        }
      }
      kinds[k] = t
    }
  }

  /// The file's text: one line per kind, in the order of `StyleCase.Kind`.
  public var text: String {
    let lines = StyleCase.Kind.allCases.map { k in
      let t = kinds[k] ?? ConformanceTable.Tally()
      return "  \"\(k.rawValue)\": {\"tests\": \(t.tests), \"passed\": \(t.passed), \"withinOnePercent\": \(t.withinOnePercent), \"unsupported\": \(t.unsupported)}"
    }
    return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
  }

  /// Where this run's counts fall below `recorded`'s (empty when none does):
  /// `flat: 120 passed, 130 recorded`.
  public func shortfalls(against recorded: ConformanceCounts) -> [String] {
    var out: [String] = []
    for k in Self.checkedKinds {
      let now = kinds[k] ?? ConformanceTable.Tally()
      let then = recorded.kinds[k] ?? ConformanceTable.Tally()
      if now.passed < then.passed { out.append("\(k.rawValue): \(now.passed) passed, \(then.passed) recorded") }
      if now.withinOnePercent < then.withinOnePercent {
        out.append("\(k.rawValue): \(now.withinOnePercent) within 1 %, \(then.withinOnePercent) recorded")
      }
    }
    return out
  }

  /// Kinds whose number of tests differs from the recorded one (another
  /// suite, or a changed one): `symbol: 151 tests, 150 recorded`.
  public func differentTotals(from recorded: ConformanceCounts) -> [String] {
    StyleCase.Kind.allCases.compactMap { k in
      let now = kinds[k]?.tests ?? 0
      let then = recorded.kinds[k]?.tests ?? 0
      return now == then ? nil : "\(k.rawValue): \(now) tests, \(then) recorded"
    }
  }
}
