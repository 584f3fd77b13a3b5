/// Why a scene cannot be drawn: the scene file, where in it, and what was
/// expected. Every scene error stops before drawing (exit status 2 in the CLI)
/// and leaves no output file.
public struct SceneError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The scene file could not be read.
    case unreadable
    /// The file is not valid JSON; `line` and `column` are 1-based.
    case syntax(line: Int, column: Int)
    /// A value has the wrong type or is out of range.
    case invalidValue
    /// A key the format does not define.
    case unknownKey
    /// A required key is absent.
    case missingKey
  }

  /// The scene file as the user named it.
  public var file: String
  /// JSON path of the offending value, such as `layers[2].rules[0].style.strokeWidth`;
  /// empty for the document itself.
  public var path: String
  public var kind: Kind
  /// What went wrong, phrased as what was expected and what was found.
  public var message: String
  /// A suggestion such as `did you mean "fill"?`.
  public var hint: String?

  public init(file: String, path: String, kind: Kind, message: String, hint: String? = nil) {
    self.file = file
    self.path = path
    self.kind = kind
    self.message = message
    self.hint = hint
  }

  public var description: String {
    var s = file
    if case .syntax(let line, let column) = kind { s += ":\(line):\(column)" }
    if !path.isEmpty { s += ": \(path)" }
    s += ": \(message)"
    if let hint { s += " (\(hint))" }
    return s
  }
}

/// A JSON path being built while decoding, rendered as `layers[2].style.fill`.
/// Steps are linked, not concatenated, so building paths for values that turn
/// out fine costs no string work.
struct JSONPath: Sendable, CustomStringConvertible {
  private final class Step: Sendable {
    let parent: Step?
    let key: String?
    let index: Int

    init(parent: Step?, key: String?, index: Int) {
      self.parent = parent
      self.key = key
      self.index = index
    }
  }

  private let last: Step?

  init() { last = nil }

  private init(_ step: Step) { last = step }

  func key(_ k: String) -> JSONPath { JSONPath(Step(parent: last, key: k, index: 0)) }

  func index(_ i: Int) -> JSONPath { JSONPath(Step(parent: last, key: nil, index: i)) }

  var description: String {
    var steps: [Step] = []
    var s = last
    while let step = s {
      steps.append(step)
      s = step.parent
    }
    var text = ""
    for step in steps.reversed() {
      if let k = step.key {
        text += text.isEmpty ? k : ".\(k)"
      } else {
        text += "[\(step.index)]"
      }
    }
    return text
  }
}
