/// A JSON path being built while decoding, rendered as `layers[2].style.fill`.
/// Steps are linked, not concatenated, so building paths for values that turn
/// out fine costs no string work.
///
/// A key that is not a plain identifier (ASCII letters, digits and `_`, not
/// starting with a digit) is written in brackets and quotes, escaped and cut
/// as ``Echo`` writes input: `layers[0]["style.fill"]`, so a path always
/// reads one way.
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
        if Self.isPlain(k) {
          text += text.isEmpty ? k : ".\(k)"
        } else {
          text += "[" + Echo.quoted(k, limit: 64) + "]"
        }
      } else {
        text += "[\(step.index)]"
      }
    }
    return text
  }

  /// True for keys written bare: `[A-Za-z_][A-Za-z0-9_]*`.
  static func isPlain(_ key: String) -> Bool {
    guard let first = key.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
    return key.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F }
  }
}
