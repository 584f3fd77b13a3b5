/// How text taken from input (a scene, a manifest, a data file, the command
/// line) is shown in a message: the one rule for every error and warning, so
/// that no input can drive the terminal or grow a message without end.
///
/// - Control characters (C0, DEL, C1) and the Unicode bidirectional controls
///   (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, which can make text read
///   differently from what it is) are written as escapes: `\n`, `\t`, `\r`,
///   `\"`, `\\` inside quotes, otherwise `\u{1B}`.
/// - A value longer than `limit` (``Echo/limit``, 200) Unicode scalars is cut
///   there and ends with "…" (scalars, not characters: one character may
///   hold any number of combining marks).
package enum Echo {
  /// Characters of an echoed value shown at most.
  public static let limit = 200

  /// `text` in double quotes, escaped and cut: `"style.fill"`.
  public static func quoted(_ text: some StringProtocol, limit: Int = Echo.limit) -> String {
    "\"" + escaped(text, limit: limit, inQuotes: true) + "\""
  }

  /// `text` escaped and cut, without quotes (for file paths and free text).
  public static func escaped(_ text: some StringProtocol, limit: Int = Echo.limit, inQuotes: Bool = false) -> String {
    var out = ""
    var count = 0
    for s in text.unicodeScalars {
      if count == limit {
        out += "…"
        break
      }
      count += 1
      if !needsEscape(s) && !(inQuotes && (s == "\"" || s == "\\")) {
        out.unicodeScalars.append(s)
      } else {
        out += escape(s, inQuotes: inQuotes)
      }
    }
    return out
  }

  /// Items shown at most by `list`.
  public static let listLimit = 10

  /// `items` (already quoted or cut) joined by commas, the first `limit`
  /// of them, then `and N more`: a list of input never grows a message
  /// without bound.
  public static func list(_ items: [String], limit: Int = Echo.listLimit) -> String {
    guard items.count > limit else { return items.joined(separator: ", ") }
    return items.prefix(limit).joined(separator: ", ") + " and \(items.count - limit) more"
  }

  /// Every control character of `message` escaped, newlines kept: the last
  /// guard before standard error, for text built from parts already cut.
  public static func terminalSafe(_ message: String) -> String {
    guard message.unicodeScalars.contains(where: { $0 != "\n" && needsEscape($0) }) else { return message }
    var out = ""
    for s in message.unicodeScalars {
      if s == "\n" || !needsEscape(s) { out.unicodeScalars.append(s) } else { out += escape(s, inQuotes: false) }
    }
    return out
  }

  private static func needsEscape(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  private static func escape(_ s: Unicode.Scalar, inQuotes: Bool) -> String {
    switch s {
    case "\n": return "\\n"
    case "\t": return "\\t"
    case "\r": return "\\r"
    case "\"" where inQuotes: return "\\\""
    case "\\" where inQuotes: return "\\\\"
    default:
      if !needsEscape(s) { return String(s) }
      return "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
    }
  }
}
