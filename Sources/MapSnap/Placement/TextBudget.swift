/// The frame's text budget (`FrameBudget.textCharacters`) as one ledger:
/// every text laid out spends its characters (Unicode scalars) here, in
/// placement order, annotation texts first, then labels, then view
/// annotations. A text that would overspend what is left is refused and not
/// laid out; shorter ones after it may still fit. The ledger counts, per
/// layer, the labels and annotation texts it refused: each such layer gets
/// one `budget(textCharacters)` problem in the frame record.
package struct TextBudget: Sendable {
  /// Characters the frame may lay out in all.
  package let limit: Int
  /// Characters not yet spent.
  package private(set) var left: Int
  /// Per layer index: labels and annotation texts refused.
  package private(set) var refused: [Int: Int] = [:]

  package init(limit: Int) {
    self.limit = limit
    left = limit
  }

  /// Spends `text`'s characters; false, spending nothing, when they do not
  /// fit.
  package mutating func spend(_ text: String) -> Bool {
    var n = 0
    for _ in text.unicodeScalars {
      n += 1
      if n > left { return false }
    }
    left -= n
    return true
  }

  /// Spends `count` characters already known to fit (`count <= left`).
  package mutating func spend(count: Int) {
    precondition(count <= left, "spent past the text budget")
    left -= count
  }

  /// Records that a text of layer `layer` was refused.
  package mutating func refuse(layer: Int) {
    refused[layer, default: 0] += 1
  }
}
