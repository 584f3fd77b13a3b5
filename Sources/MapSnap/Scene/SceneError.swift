/// Why a scene cannot be drawn: the scene file, where in it, what the format
/// expected and what the file had. Every scene error stops before drawing
/// (exit status 2 in the CLI) and leaves no output file.
///
/// The error carries data; ``description`` builds the one line shown to
/// people, always in the same shape: `file[:line:column]: path: message (hint)`,
/// for example `scene.json: layers[2].style.strokeWidth: expected a width >= 0
/// in logical pixels, found number -1`. Callers that need to tell errors
/// apart match ``kind``, never the text.
public struct SceneError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is; how ``expected`` and ``found`` read for
  /// each kind is given with the case.
  public enum Kind: Sendable, Equatable {
    /// The scene file does not exist.
    case fileNotFound
    /// The scene file exists but could not be read; `reason` is the system's.
    case unreadable(reason: String)
    /// The file is not valid JSON; `line` and `column` are 1-based. `found`
    /// is the parser's account of what it met.
    case syntax(line: Int, column: Int)
    /// A value has the wrong type or is out of range: `expected` is what the
    /// format wants there, `found` what the file has.
    case invalidValue
    /// A key the format does not define for this object: `found` is the key
    /// as written (quoted), `expected` names the object (`a style`).
    case unknownKey
    /// A required key is absent: `expected` is what the format wants (the
    /// path names the key; for "one of" requirements the path is the object
    /// and `expected` names the keys).
    case missingKey
    /// Keys that exclude each other are both given: `expected` names them.
    case conflictingKeys
    /// An id is used twice: `found` is the id, `expected` what must be
    /// unique; `firstPath` is the JSON path of the item that has it first.
    case duplicateID(firstPath: String)
    /// `minScale` is more zoomed in (smaller) than `maxScale`, both non-zero
    /// (format section 2).
    case invertedScaleRange(minScale: Double, maxScale: Double)
    /// A style names a font that is not available: `found` is the name,
    /// `expected` lists the available faces.
    case unknownFont
    /// The scene has text but no font could be loaded.
    case fontsUnavailable(TextError)
    /// Neither the scene nor the overrides give a scale or zoom: `expected`
    /// says where one can be given.
    case noScale
    /// The output image (size × pixel ratio, after overrides) would be
    /// `width`×`height` device pixels, more than mapsnap draws.
    case imageTooLarge(width: Int, height: Int)
    /// A MapLibre style that cannot be drawn (`StyleScene`): the message.
    case undrawableStyle(String)
  }

  /// The scene file as the user named it.
  public var file: String
  /// JSON path of the offending value, such as `layers[2].rules[0].style.strokeWidth`;
  /// empty for the document itself.
  public var path: String
  /// What kind of problem it is: what callers match on.
  public var kind: Kind
  /// What the format wants there, such as `a number > 0`.
  public var expected: String?
  /// What the file has there, such as `string "abc"`.
  public var found: String?
  /// A suggestion such as `did you mean "fill"?`.
  public var hint: String?

  /// An error at `path` of `file`; the message is built from the data when shown.
  public init(
    file: String, path: String = "", kind: Kind, expected: String? = nil, found: String? = nil, hint: String? = nil
  ) {
    self.file = file
    self.path = path
    self.kind = kind
    self.expected = expected
    self.found = found
    self.hint = hint
  }

  /// An error at a decoding path.
  init(file: String, at path: JSONPath, kind: Kind, expected: String? = nil, found: String? = nil, hint: String? = nil) {
    self.init(file: file, path: path.description, kind: kind, expected: expected, found: found, hint: hint)
  }

  /// The error for invalid GeoJSON inside the scene (inline data, a graphic's geometry).
  init(file: String, issue: GeoJSONIssue) {
    self.init(file: file, at: issue.path, kind: .invalidValue, expected: issue.expected, found: issue.found, hint: issue.hint)
  }

  /// What went wrong, without the file, path and hint: built from ``kind``,
  /// ``expected`` and ``found``.
  public var message: String {
    /// `expected E, found F`, the shape of most messages.
    var expectation: String {
      var s = "expected \(expected ?? "a valid value")"
      if let found { s += ", found \(found)" }
      return s
    }
    switch kind {
    case .fileNotFound:
      return "no such file"
    case .unreadable(let reason):
      return "cannot read: \(reason)"
    case .syntax:
      return "invalid JSON: \(found ?? "")"
    case .unknownKey:
      return "unknown key \(found ?? "") in \(expected ?? "an object")"
    case .missingKey:
      return "missing required key: expected \(expected ?? "a value")"
    case .duplicateID(let firstPath):
      return "duplicate id \(found ?? ""): \(firstPath) already has it; expected \(expected ?? "a unique id")"
    case .invertedScaleRange(let minScale, let maxScale):
      return "minScale \(format(minScale)) is more zoomed in than maxScale \(format(maxScale)): "
        + "minScale is the most zoomed-out scale (the larger denominator)"
    case .unknownFont:
      return "no font named \(found ?? ""): expected \(expected ?? "an available font")"
    case .fontsUnavailable(let error):
      return "the scene has text but no fonts: \(error)"
    case .noScale:
      return "no scale: expected \(expected ?? "a scale or zoom")"
    case .undrawableStyle(let message):
      return message
    case .invalidValue, .conflictingKeys, .imageTooLarge:
      return expectation
    }
  }

  /// The one line shown to people. The file name is escaped and cut as
  /// ``Echo`` writes input; values quoted in the message were already; the
  /// line as a whole has no control character left.
  public var description: String {
    var s = Echo.escaped(file)
    if case .syntax(let line, let column) = kind { s += ":\(line):\(column)" }
    if !path.isEmpty { s += ": \(path)" }
    s += ": \(message)"
    if let hint { s += " (\(hint))" }
    return Echo.terminalSafe(s)
  }
}
