import MapSnap
import Testing
import _MapSnapTestSupport

/// How `golden.json` sets the comparison: exact unless a tolerance comes with
/// a reason.
@Suite struct GoldenCaseTests {
  @Test func goldensCompareExactlyByDefault() {
    let cases = GoldenCase.cases(named: "x", meta: ["scales": [2000]])
    #expect(cases.count == 1)
    #expect(cases.allSatisfy { $0.channelTolerance == 0 && $0.allowedPixels == 0 && $0.problem == nil })
  }

  @Test func aToleranceNeedsAReason() {
    let without = GoldenCase.cases(named: "x", meta: ["scales": [2000], "channelTolerance": 2])
    #expect(without.first?.channelTolerance == 0)
    #expect(without.first?.problem?.contains("toleranceReason") == true)
    let allowed = GoldenCase.cases(named: "x", meta: ["scales": [2000], "allowedPixels": 5, "toleranceReason": ""])
    #expect(allowed.first?.allowedPixels == 0)
    #expect(allowed.first?.problem != nil)
    let with = GoldenCase.cases(
      named: "x", meta: ["scales": [2000], "channelTolerance": 2, "toleranceReason": "FreeType hinting differs by version"])
    #expect(with.first?.channelTolerance == 2)
    #expect(with.first?.toleranceReason == "FreeType hinting differs by version")
    #expect(with.first?.problem == nil)
  }

  @Test func everyGoldenIsExactOrSaysWhyNot() {
    for c in GoldenCase.all() {
      #expect(c.problem == nil, "\(c): \(c.problem ?? "")")
      #expect((c.channelTolerance == 0 && c.allowedPixels == 0) || c.toleranceReason != nil, "\(c)")
    }
  }
}
