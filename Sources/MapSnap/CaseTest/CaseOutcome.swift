/// What `mapsnap test` found for one image of a case.
public struct CaseOutcome: Sendable {
  public enum Status: Sendable, Equatable {
    case passed
    /// The image (or its report) differs from the expected one, there is no
    /// expected image (or report), a layer has status `error`, or with
    /// `--strict` the frame has a warning.
    case failed(String)
    /// Record mode wrote the expected image (or report): the case fails
    /// until it is run again without recording.
    case recorded(String)
    /// The case could not run: an invalid scene or option, or an expected
    /// image or report that cannot be read.
    case error(String)
  }

  public var id: String
  public var caseName: String
  public var stem: String
  public var status: Status
  /// The pixel comparison, when both images were there and of one size.
  public var counts: PixelMatch.Counts?
  public var width = 0
  public var height = 0
  /// Changes between the expected and the actual report
  /// (`ReportDiff.summary`'s lines after the first), when they fail the image.
  public var reportChanges: [String] = []
  /// The frame's warnings (layer problems, characters no font covers).
  public var warnings: [String] = []
  /// The icon files the frame drew (they are not obsolete expected files).
  public var icons: [String] = []
  /// Artifact files written for a failing image: actual, diff, expected,
  /// and the actual report.
  public var actualPath: String?
  public var actualReportPath: String?
  public var diffPath: String?
  public var expectedPath: String?
  /// The expected image's path in the case folder.
  public var expectedImage: String
  public var seconds = 0.0
  /// A style case's group, kind and verdicts; nil for a scene case.
  public var verdict: StyleVerdict?

  public var passed: Bool { status == .passed }

  /// The image could not run (``Status/error``).
  public var couldNotRun: Bool {
    if case .error = status { return true }
    return false
  }

  /// One line for people: `✓ caps/2000` or `✗ helsinki/8000: 312 px differ (0.08 %)`.
  public var line: String {
    switch status {
    case .passed: return "✓ \(id)"
    case .failed(let m): return "✗ \(id): \(m)"
    case .recorded(let m): return "✗ \(id): \(m)"
    case .error(let m): return "! \(id): \(m)"
    }
  }

  /// The message of a case that did not pass.
  public var message: String? {
    switch status {
    case .passed: return nil
    case .failed(let m), .recorded(let m), .error(let m): return m
    }
  }
}
