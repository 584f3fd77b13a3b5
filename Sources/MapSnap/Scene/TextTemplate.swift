/// The text of a label or an annotation, composed from a feature's
/// properties: `"{id} {status}"` (a style's or annotation layer's `text`),
/// or one property (`field`, `textField`), which is the template `"{name}"`.
///
/// Rules:
/// - `{name}` is replaced by the property's value: a string as it is, a
///   number as the shortest text that reads back as it (`12`, `0.5`), a
///   boolean as `true`/`false`; a missing or null property, an array or an
///   object as nothing;
/// - `{{` and `}}` are a literal `{` and `}`; any other `{` must open a
///   property name that closes with `}` on the same template, and a lone `}`
///   is an error (so a typo never silently prints braces);
/// - a text that is empty or only white space once composed is no text
///   (the feature gets no label: `noText`), as a field holding only white
///   space always was.
public struct TextTemplate: Sendable, Hashable, CustomStringConvertible {
  enum Part: Sendable, Hashable {
    case literal(String)
    case property(String)
  }

  let parts: [Part]
  /// The template as written (`{name}` for a `field`).
  public let description: String
  /// True when given as one property (`field`, `textField`), not as `text`.
  public let isField: Bool

  /// The template of one property: `{field}`.
  public init(field: String) {
    parts = [.property(field)]
    description = "{\(field)}"
    isField = true
  }

  /// Reads `template`.
  /// - Throws: `TemplateError` naming the first brace that does not fit.
  public init(parsing template: String) throws(TemplateError) {
    var parts: [Part] = []
    var literal = ""
    var chars = Array(template)
    var i = 0
    func flush() {
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = ""
    }
    while i < chars.count {
      let c = chars[i]
      if c == "{" {
        if i + 1 < chars.count && chars[i + 1] == "{" {
          literal.append("{")
          i += 2
          continue
        }
        guard let close = chars[(i + 1)...].firstIndex(of: "}") else { throw .unclosed(at: i) }
        let name = String(chars[(i + 1)..<close])
        if name.isEmpty { throw .emptyName(at: i) }
        if name.contains("{") { throw .unclosed(at: i) }
        flush()
        parts.append(.property(name))
        i = close + 1
      } else if c == "}" {
        guard i + 1 < chars.count && chars[i + 1] == "}" else { throw .loneClose(at: i) }
        literal.append("}")
        i += 2
      } else {
        literal.append(c)
        i += 1
      }
    }
    flush()
    chars.removeAll()
    guard parts.contains(where: { if case .property = $0 { true } else { false } }) else { throw .noProperty }
    self.parts = parts
    description = template
    isField = false
  }

  /// The property names the template reads, in order, each once.
  public var properties: [String] {
    var out: [String] = []
    for case .property(let name) in parts where !out.contains(name) { out.append(name) }
    return out
  }

  /// The composed text for `properties`, or nil when it is empty or only
  /// white space.
  func text(_ properties: JSONObject) -> String? {
    if parts.count == 1, case .property(let name) = parts[0] { return MapResolver.text(properties[name]) }
    var out = ""
    for part in parts {
      switch part {
      case .literal(let s): out += s
      case .property(let name): out += MapResolver.text(properties[name]) ?? ""
      }
    }
    return out.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? nil : out
  }
}

/// Why a `text` template cannot be read. Offsets count characters from 0.
public enum TemplateError: Error, Sendable, Equatable {
  /// A `{` with no `}` after it.
  case unclosed(at: Int)
  /// `{}`.
  case emptyName(at: Int)
  /// A `}` that closes nothing and is not doubled.
  case loneClose(at: Int)
  /// No `{property}` at all: the text would be the same on every feature.
  case noProperty

  /// What was wrong, for a `SceneError`'s `found`, and the hint.
  var explanation: (found: String, hint: String) {
    switch self {
    case .unclosed(let i): return ("a \"{\" at character \(i) with no \"}\" closing it", "write {{ for a literal brace")
    case .emptyName(let i): return ("an empty \"{}\" at character \(i)", "name a property inside the braces: {name}")
    case .loneClose(let i): return ("a \"}\" at character \(i) that closes nothing", "write }} for a literal brace")
    case .noProperty:
      return ("no {property} in it", "name a property in braces, e.g. \"{id} {status}\"; for the same text on every feature use a graphics layer")
    }
  }
}
