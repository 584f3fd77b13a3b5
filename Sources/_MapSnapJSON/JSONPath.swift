/// A JSON path being built while decoding, rendered as `layers[2].style.fill`.
/// Steps are linked, not concatenated, so building paths for values that turn
/// out fine costs no string work.
///
/// A key that is not a plain identifier (ASCII letters, digits and `_`, not
/// starting with a digit, at most `keyLimit` characters) is written in
/// brackets and quotes, escaped and cut as ``Echo`` writes input:
/// `layers[0]["style.fill"]`, so a path always reads one way and no key of
/// the input is echoed whole, however long.
package struct JSONPath: Sendable, CustomStringConvertible {
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

  package init() { last = nil }

  private init(_ step: Step) { last = step }

  package func key(_ k: String) -> JSONPath { JSONPath(Step(parent: last, key: k, index: 0)) }

  package func index(_ i: Int) -> JSONPath { JSONPath(Step(parent: last, key: nil, index: i)) }

  package var description: String {
    var steps: [Step] = []
    var s = last
    while let step = s {
      steps.append(step)
      s = step.parent
    }
    steps.reverse()
    // A path deeper than `stepLimit` shows its first and last steps.
    if steps.count > Self.stepLimit {
      let tail = Self.stepLimit / 2
      steps = Array(steps.prefix(Self.stepLimit - tail)) + [Step(parent: nil, key: nil, index: -1)] + Array(steps.suffix(tail))
    }
    var text = ""
    for step in steps {
      if let k = step.key {
        if Self.isPlain(k) {
          text += text.isEmpty ? k : ".\(k)"
        } else {
          text += "[" + Echo.quoted(k, limit: Self.keyLimit) + "]"
        }
      } else if step.index < 0 {
        text += "…"
      } else {
        text += "[\(step.index)]"
      }
    }
    return text
  }

  /// The steps a path shows at most: a deeper one (nesting goes to
  /// `JSONParser.maxDepth`) shows its first and last steps around `…`.
  package static let stepLimit = 32

  /// The characters of a key a path shows: longer keys are cut (`…`).
  package static let keyLimit = 64

  /// True for keys written bare: `[A-Za-z_][A-Za-z0-9_]*`, at most
  /// `keyLimit` characters.
  package static func isPlain(_ key: String) -> Bool {
    guard let first = key.utf8.first, !(first >= 0x30 && first <= 0x39), key.utf8.count <= keyLimit else { return false }
    return key.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F }
  }
}
