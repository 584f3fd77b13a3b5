internal import _TextShims

/// The parts of the Unicode Bidirectional Algorithm (UAX #9) that text
/// layout needs: a paragraph's embedding levels (rules P2–P3, X1–X10,
/// W1–W7, N0–N2, I1–I2 and L1, computed by FriBidi) and the visual order
/// of rule L2, written here.
enum Bidi {
  /// Which way a paragraph runs.
  enum Direction: Int32 {
    /// From the paragraph's first strong character (rules P2 and P3);
    /// left-to-right when it has none.
    case auto = 0
    case leftToRight = 1
    case rightToLeft = 2
  }

  /// The embedding level of each code point of one paragraph, and the
  /// paragraph's own level (0 or 1); nil when FriBidi is not available or
  /// failed.
  static func levels(_ scalars: [UInt32], direction: Direction = .auto) -> (paragraph: Int, levels: [UInt8])? {
    var levels = [UInt8](repeating: 0, count: scalars.count)
    let p = mapsnap_text_bidi_levels(scalars, Int32(scalars.count), direction.rawValue, &levels)
    guard p >= 0 else { return nil }
    return (Int(p), levels)
  }

  /// `scalars` (one paragraph in logical order, with its `levels`) with
  /// Arabic letters in their joined presentation forms (U+FB50–U+FEFC) and
  /// lam-alef ligatures, the ligature's second letter U+FEFF: how
  /// MapLibre's RTL text plugin shapes Arabic for glyph ranges, which hold
  /// code points, not a font's glyphs. Unchanged when FriBidi is not available.
  static func arabicPresentationForms(_ scalars: [UInt32], levels: [UInt8]) -> [UInt32] {
    guard scalars.count == levels.count, scalars.contains(where: { (0x0600...0x06FF).contains($0) }) else { return scalars }
    var out = scalars
    guard mapsnap_text_shape_arabic(&out, Int32(out.count), levels) == 0 else { return scalars }
    return out
  }

  /// Rule L2: the logical indices of `levels` in visual order (left to
  /// right). From the highest level down to the lowest odd level, every
  /// longest stretch of items at that level or higher is reversed.
  static func visualOrder(levels: [UInt8]) -> [Int] {
    var order = Array(levels.indices)
    guard let highest = levels.max(), highest > 0 else { return order }
    // The lowest odd level at or above the line's lowest (present or not).
    let lowestOdd = (levels.min() ?? 0) | 1
    var level = highest
    while level >= lowestOdd {
      var i = 0
      while i < order.count {
        guard levels[order[i]] >= level else {
          i += 1
          continue
        }
        var j = i
        while j < order.count && levels[order[j]] >= level { j += 1 }
        order[i..<j].reverse()
        i = j
      }
      level -= 1
    }
    return order
  }
}
