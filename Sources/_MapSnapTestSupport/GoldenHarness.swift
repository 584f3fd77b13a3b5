import MapSnap

/// The project's own goldens (`Golden/`) run through the `mapsnap test`
/// machinery the product ships: `CaseLoader` reads the cases (each folder's
/// `golden.json`), `CaseRunner` renders each image, compares it with its
/// expected image (exactly, unless the case gives a tolerance and its
/// reason) and its expected report, and records as `RecordMode.current`
/// asks. Artifacts of a failing image go to `.build/golden-artifacts/`.
public enum GoldenHarness {
  /// The folder of the project's golden cases.
  public static var root: String { Repository.root + "/Golden" }

  /// Every image of every golden case, and the cases that cannot be read.
  public static let loaded = CaseLoader(root: root).load()

  /// Every image of every golden case, in name order.
  public static var images: [ImageCase] { loaded.cases }

  /// One runner for every image, so that the images share the session's caches.
  private static let runner: CaseRunner = {
    var o = CaseRunner.Options()
    o.record = RecordMode.current
    o.jobs = 1
    o.artifacts = Repository.root + "/.build/golden-artifacts"
    return CaseRunner(options: o)
  }()

  /// Checks one image as `mapsnap test` does; nil when it passed, else
  /// what failed (a recorded image fails: re-run to check it) with the
  /// artifacts to look at.
  public static func check(_ c: ImageCase) -> String? {
    let outcome = runner.run([c])[0]
    let message: String
    switch outcome.status {
    case .passed: return nil
    case .failed(let m), .recorded(let m), .error(let m): message = m
    }
    let artifacts = [outcome.actualPath, outcome.diffPath, outcome.expectedPath, outcome.actualReportPath].compactMap { $0 }
    let changes = outcome.reportChanges.map { "\n  " + $0 }.joined()
    return "\(c.id): \(message)\(changes)\(artifacts.isEmpty ? "" : "\n  artifacts: " + artifacts.joined(separator: ", "))"
  }
}
