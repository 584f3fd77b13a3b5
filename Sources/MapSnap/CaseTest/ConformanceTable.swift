/// The style cases of a `mapsnap test` run by group and by kind (`mapsnap
/// test --groups`): per group the tests, how many passed by the suite's
/// criterion, how many came within 1 % of the pixels and how many were
/// unsupported; then the totals of the flat, symbol and fill-extrusion
/// tests (`StyleCase.Kind`), the rates of the render suite.
public struct ConformanceTable: Sendable {
  /// The tallies of a group or a kind.
  public struct Tally: Sendable, Equatable {
    public var tests = 0
    public var passed = 0
    public var withinOnePercent = 0
    public var unsupported = 0
    public init() {}

    mutating func add(_ v: StyleVerdict) {
      tests += 1
      if v.passed { passed += 1 }
      if v.withinOnePercent { withinOnePercent += 1 }
      if v.unsupported != nil { unsupported += 1 }
    }
  }

  /// Groups in name order with their tallies.
  public var groups: [(name: String, tally: Tally)]
  /// The tallies of each kind.
  public var kinds: [StyleCase.Kind: Tally]

  /// The table of the style cases among `outcomes` (scene cases are left out).
  public init(outcomes: [CaseOutcome]) {
    var byGroup: [String: Tally] = [:]
    var kinds: [StyleCase.Kind: Tally] = [:]
    for case let v? in outcomes.map(\.verdict) {
      byGroup[v.group, default: Tally()].add(v)
      kinds[v.kind, default: Tally()].add(v)
    }
    groups = byGroup.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    self.kinds = kinds
  }

  /// Whether the run had any style case.
  public var isEmpty: Bool { groups.isEmpty }

  /// The counts a commit records (`ConformanceCounts`).
  public var counts: ConformanceCounts {
    var c = ConformanceCounts()
    for k in StyleCase.Kind.allCases { c.kinds[k] = kinds[k] ?? Tally() }
    return c
  }

  static let headers = ["group", "tests", "passed", "within 1 %", "unsupported"]

  /// The table as aligned text: one line per group, then one per kind with percentages.
  public var text: String {
    var rows = groups.map { [$0.name, String($0.tally.tests), String($0.tally.passed), String($0.tally.withinOnePercent), String($0.tally.unsupported)] }
    let width = max(Self.headers[0].count, rows.map { $0[0].count }.max() ?? 0, 28)
    func line(_ cells: [String]) -> String {
      cells[0] + String(repeating: " ", count: max(0, width - cells[0].count))
        + cells.dropFirst().enumerated().map { i, c in String(repeating: " ", count: max(0, Self.headers[i + 1].count + 2 - c.count)) + c }.joined()
    }
    rows.insert(Self.headers, at: 0)
    var out = rows.map(line).joined(separator: "\n") + "\n\n"
    for k in StyleCase.Kind.allCases {
      out += Self.summary(k, kinds[k] ?? Tally()) + "\n"
    }
    return out
  }

  /// `flat: 190 tests, 150 passed (78.9 %), 170 within 1 % (89.5 %), 3 unsupported`.
  static func summary(_ kind: StyleCase.Kind, _ t: Tally) -> String {
    "\(kind.rawValue): \(t.tests) tests, \(t.passed) passed (\(rate(t.passed, t.tests)) %), "
      + "\(t.withinOnePercent) within 1 % (\(rate(t.withinOnePercent, t.tests)) %), \(t.unsupported) unsupported"
  }

  /// `part` of `whole` as a percentage with one decimal (0 of none is 0).
  static func rate(_ part: Int, _ whole: Int) -> String {
    guard whole > 0 else { return "0.0" }
    let tenths = (Double(part) * 1000 / Double(whole)).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
  }

  /// The table as HTML, for `mapsnap test`'s report.
  public var html: String {
    var h = "<h2>Style cases by group</h2><table><tr>" + Self.headers.map { "<th>\(CaseReport.xml($0))</th>" }.joined() + "</tr>\n"
    for (name, t) in groups {
      h += "<tr><td>\(CaseReport.xml(name))</td><td>\(t.tests)</td><td>\(t.passed)</td><td>\(t.withinOnePercent)</td><td>\(t.unsupported)</td></tr>\n"
    }
    h += "</table>\n<ul>\n"
    for k in StyleCase.Kind.allCases { h += "<li>\(CaseReport.xml(Self.summary(k, kinds[k] ?? Tally())))</li>\n" }
    return h + "</ul>\n"
  }
}
