import MapSnap
import Testing
import _MapSnapTestSupport

/// The project's goldens are `mapsnap test` cases (`GoldenHarness`): every
/// folder reads as one, and every image compares exactly unless its case
/// says why not (`CaseLoader` refuses a tolerance without a reason).
@Suite struct GoldenCaseTests {
  @Test func everyGoldenFolderReadsAsACase() {
    #expect(!GoldenHarness.images.isEmpty)
    for problem in GoldenHarness.loaded.problems { Issue.record(Comment(rawValue: problem.description)) }
  }

  @Test func everyGoldenIsExactOrSaysWhyNot() {
    for c in GoldenHarness.images {
      #expect(c.comparison.isExact || c.comparison.reason != nil, "\(c.id)")
    }
  }
}
