/// Why a batch manifest is invalid (exit status 2, nothing drawn): the file
/// cannot be read, or some lines are invalid. Every invalid line is listed
/// (up to `ManifestReader.maximumListedProblems`), each with its 1-based
/// number.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The manifest file cannot be read: `reason` is the system's.
    case unreadable(reason: String)
    /// Lines are invalid; see `problems`.
    case invalidLines
  }

  /// One invalid line.
  public struct Problem: Sendable, Equatable {
    /// 1-based line number.
    public var line: Int
    /// What is wrong, as a scene error whose path is the key in the line.
    public var error: SceneError
  }

  public var file: String
  public var kind: Kind
  public var problems: [Problem] = []
  /// Invalid lines beyond those listed.
  public var unlisted = 0

  /// `jobs.jsonl:12: center: expected …` per invalid line, one per line.
  public var description: String {
    switch kind {
    case .unreadable(let reason):
      return "\(file): cannot read the manifest: \(reason)"
    case .invalidLines:
      var lines = problems.map { p -> String in
        var s = "\(file):\(p.line)"
        if case .syntax(_, let column) = p.error.kind { s += ":\(column)" }
        if !p.error.path.isEmpty { s += ": \(p.error.path)" }
        s += ": \(p.error.message)"
        if let hint = p.error.hint { s += " (\(hint))" }
        return s
      }
      if unlisted > 0 { lines.append("\(file): … and \(unlisted) more invalid line\(unlisted == 1 ? "" : "s")") }
      lines.append("\(file): the manifest is invalid; no frame was drawn")
      return lines.joined(separator: "\n")
    }
  }
}
