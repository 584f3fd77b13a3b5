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
