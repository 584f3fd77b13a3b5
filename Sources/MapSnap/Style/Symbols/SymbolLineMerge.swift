internal import _MapSnapRaster

/// MapLibre's `mergeLines`: before a tile's line labels are laid out
/// (`symbol-placement: line`), lines with the same text whose ends meet
/// (the last point of one is the first of the other) are joined into one,
/// so that a street cut into pieces is labelled along its whole length, not
/// once per piece. Only each feature's first line takes part; features are
/// taken in order, each joined to a line already met that ends where it
/// starts or starts where it ends (both at once joins three).
enum SymbolLineMerge {
  /// For each item (its text and lines), in the merged order: the index
  /// of the item whose feature stands for the merged line, and its lines
  /// (the first merged, the rest as they were).
  static func merge(_ items: [(text: String, lines: [[Point]])]) -> [(item: Int, lines: [[Point]])] {
    var merged: [(item: Int, lines: [[Point]])?] = []
    var leftIndex: [String: Int] = [:], rightIndex: [String: Int] = [:]
    func key(_ text: String, _ line: [Point], right: Bool) -> String {
      let p = right ? line[line.count - 1] : line[0]
      return "\(text):\(p.x):\(p.y)"
    }
    func mergeFromRight(_ leftKey: String, _ rightKey: String, _ line: [Point]) -> Int {
      let i = rightIndex.removeValue(forKey: leftKey)!
      rightIndex[rightKey] = i
      merged[i]!.lines[0].removeLast()
      merged[i]!.lines[0] += line
      return i
    }
    func mergeFromLeft(_ leftKey: String, _ rightKey: String, _ line: [Point]) -> Int {
      let i = leftIndex.removeValue(forKey: rightKey)!
      leftIndex[leftKey] = i
      merged[i]!.lines[0].removeFirst()
      merged[i]!.lines[0] = line + merged[i]!.lines[0]
      return i
    }
    for (k, item) in items.enumerated() {
      guard !item.text.isEmpty, let line = item.lines.first, !line.isEmpty else {
        merged.append((k, item.lines))
        continue
      }
      let leftKey = key(item.text, line, right: false), rightKey = key(item.text, line, right: true)
      if let r = rightIndex[leftKey], let l = leftIndex[rightKey], r != l {
        // Lines of the same text meet both its ends: the three become one.
        let j = mergeFromLeft(leftKey, rightKey, line)
        let i = mergeFromRight(leftKey, rightKey, merged[j]!.lines[0])
        leftIndex.removeValue(forKey: leftKey)
        rightIndex.removeValue(forKey: rightKey)
        rightIndex[key(item.text, merged[i]!.lines[0], right: true)] = i
        merged[j] = nil
      } else if rightIndex[leftKey] != nil {
        _ = mergeFromRight(leftKey, rightKey, line)
      } else if leftIndex[rightKey] != nil {
        _ = mergeFromLeft(leftKey, rightKey, line)
      } else {
        merged.append((k, item.lines))
        leftIndex[leftKey] = merged.count - 1
        rightIndex[rightKey] = merged.count - 1
      }
    }
    return merged.compactMap { $0 }
  }
}
