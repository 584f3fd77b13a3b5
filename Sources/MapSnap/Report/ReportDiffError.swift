/// Why two documents cannot be compared as reports (`ReportDiff.compare`):
/// one of them is not a mapsnap report of schemaVersion 2 — another
/// version, a key the comparison reads is missing, or a value has the wrong
/// type. Which report (A or B), where in it (a JSON path such as
/// `layers[2].labels.entries[0].outcome`), what was expected and what was
/// found.
///
/// The error carries data; ``message`` builds the text from it and
/// ``description`` the one line shown to people:
/// `report B: layers[1].status: expected an array of status flags, found number 3`.
/// Callers that need to tell errors apart match ``kind``, never the text; a
/// command line that knows the files' names writes `FILE: PATH: MESSAGE`
/// from ``path`` and ``message``.
public struct ReportDiffError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The first or the second report given to `ReportDiff.compare`.
  public enum Report: String, Sendable, Equatable {
    case a = "A"
    case b = "B"
  }

  public enum Kind: Sendable, Equatable {
    /// `schemaVersion` is not 1 (another version, or not a number):
    /// ``found`` is its value.
    case unsupportedVersion
    /// A key the comparison reads is absent: the path names it, ``expected``
    /// says what it should hold.
    case missingKey
    /// A value has the wrong type (or the document is not an object):
    /// ``expected`` is what a report holds there, ``found`` what this one has.
    case invalidValue
  }

  /// Which of the two reports.
  public var report: Report
  /// JSON path of the offending value, such as `viewAnnotations[0].visible`;
  /// empty for the document itself.
  public var path: String
  public var kind: Kind
  /// What a report of schemaVersion 2 holds there, such as `a string`.
  public var expected: String
  /// What this document holds there, such as `number 3`; nil for a missing key.
  public var found: String?

  public init(report: Report, path: String, kind: Kind, expected: String, found: String? = nil) {
    self.report = report
    self.path = path
    self.kind = kind
    self.expected = expected
    self.found = found
  }

  /// What is wrong, without the report and path: built from ``kind``,
  /// ``expected`` and ``found``.
  public var message: String {
    switch kind {
    case .unsupportedVersion:
      return "not a report of schemaVersion \(ReportBuilder.schemaVersion): expected \(expected), found \(found ?? "nothing")"
    case .missingKey:
      return "missing required key: expected \(expected)"
    case .invalidValue:
      return "expected \(expected), found \(found ?? "nothing")"
    }
  }

  /// `report A: path: message`, or `report A: message` for the document.
  public var description: String {
    "report \(report.rawValue)" + (path.isEmpty ? "" : ": \(path)") + ": \(message)"
  }
}
