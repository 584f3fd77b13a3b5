/// Conversions of plain values to the specification's rich kinds: padding,
/// number and colour arrays, variable anchor offsets.
enum RichValues {
  /// The anchors `variableAnchorOffsetCollection` names.
  static let anchors: Set<String> = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]

  static func convert(_ v: StyleValue, to type: ExpressionType) -> StyleValue? {
    switch type {
    case .padding:
      if case .padding = v { return v }
      guard let n = numbers(v), (1...4).contains(n.count) else { return nil }
      // CSS's shorthand: [all], [vertical, horizontal], [top, horizontal, bottom], [top, right, bottom, left].
      switch n.count {
      case 1: return .padding([n[0], n[0], n[0], n[0]])
      case 2: return .padding([n[0], n[1], n[0], n[1]])
      case 3: return .padding([n[0], n[1], n[2], n[1]])
      default: return .padding(n)
      }
    case .numberArray:
      if case .numberArray = v { return v }
      guard let n = numbers(v) else { return nil }
      return .numberArray(n)
    case .colorArray:
      switch v {
      case .colorArray: return v
      case .color(let c): return .colorArray([c])
      case .string(let s): return StyleColor(css: s).map { .colorArray([$0]) }
      case .array(let items):
        var colors: [StyleColor] = []
        for item in items {
          switch item {
          case .color(let c): colors.append(c)
          case .string(let s):
            guard let c = StyleColor(css: s) else { return nil }
            colors.append(c)
          default: return nil
          }
        }
        return .colorArray(colors)
      default: return nil
      }
    case .variableAnchorOffsetCollection:
      if case .anchorOffsets = v { return v }
      guard case .array(let items) = v, items.count % 2 == 0 else { return nil }
      var pairs: [(String, [Double])] = []
      var i = 0
      while i < items.count {
        guard case .string(let anchor) = items[i], anchors.contains(anchor), case .array(let offset) = items[i + 1], offset.count == 2,
          let xy = numbers(items[i + 1])
        else { return nil }
        pairs.append((anchor, xy))
        i += 2
      }
      return .anchorOffsets(pairs)
    default: return nil
    }
  }

  /// A number as a one-element list, or an array of numbers.
  private static func numbers(_ v: StyleValue) -> [Double]? {
    switch v {
    case .number(let n): return [n]
    case .array(let items):
      var out: [Double] = []
      for item in items {
        guard case .number(let n) = item else { return nil }
        out.append(n)
      }
      return out
    default: return nil
    }
  }
}
