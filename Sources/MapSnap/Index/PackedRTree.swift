internal import _MapSnapRaster

/// A static R-tree over boxes in map units, packed once by Sort-Tile-Recursive
/// (STR, Leutenegger et al. 1997) and never changed: it answers "which boxes,
/// grown by a distance, meet this rectangle" by visiting only the nodes near
/// the rectangle, so the work grows with what is near, not with what exists.
///
/// Why a packed R-tree and not a uniform grid: a source's features are spread
/// very unevenly (a city's dense centre, then a copy of it a thousand
/// kilometres away, then nothing), and a grid's cell size suits one density
/// only; the tree adapts to the data without a parameter. It also holds a
/// long line or a large polygon once (a grid lists it in every cell it
/// crosses), and being packed bottom-up it is nearly full: about n / 15
/// internal nodes besides the n entries.
///
/// Layout: every node, entries first (global indices `0..<count`), then each
/// level's internal nodes up to the root (the last). An internal node's
/// children are the contiguous range `firstChild[k]..<endChild[k]` of the
/// level below. Each level is STR-sorted before its parents are formed (the
/// children's ranges are fixed by then), so siblings are close together at
/// every level, not only at the leaves.
final class PackedRTree: Sendable {
  /// Children per node. 16 keeps the tree shallow (four levels hold 65 536
  /// entries) while a visited node tests few boxes it does not need.
  static let nodeCapacity = 16

  /// The box of every node (entries first).
  private let boxes: [Rect]
  /// The caller's number for each entry (`boxes[0..<count]`).
  private let items: [Int32]
  /// For internal node `count + k`: its children's global indices.
  private let firstChild: [Int32]
  private let endChild: [Int32]
  /// The number of entries.
  let count: Int

  /// A tree over `entries`: each box with the caller's number for it
  /// (returned by `query`). A box may be empty (`Rect.empty`) or infinite;
  /// queries treat it exactly as `Rect.insetBy` and `Rect.intersects` do.
  init(_ entries: [(box: Rect, item: Int32)]) {
    let n = entries.count
    count = n
    let m = Self.nodeCapacity
    var boxes: [Rect] = []
    var items: [Int32] = []
    boxes.reserveCapacity(n + n / (m - 1) + 2)
    items.reserveCapacity(n)
    for i in Self.strOrder(entries.map(\.box)) {
      boxes.append(entries[i].box)
      items.append(entries[i].item)
    }
    var firstChild: [Int32] = []
    var endChild: [Int32] = []
    // The level being grouped into parents: global indices levelStart..<boxes.count.
    var levelStart = 0
    while n > 0 {
      let levelEnd = boxes.count
      let levelCount = levelEnd - levelStart
      if levelStart > 0 {
        // An internal level: STR-sort its nodes (with their child ranges)
        // before grouping them, as the entries were.
        let order = Self.strOrder(Array(boxes[levelStart..<levelEnd]))
        let (b, f, e) = (boxes, firstChild, endChild)
        for (k, j) in order.enumerated() {
          boxes[levelStart + k] = b[levelStart + j]
          firstChild[levelStart - n + k] = f[levelStart - n + j]
          endChild[levelStart - n + k] = e[levelStart - n + j]
        }
      }
      if levelCount <= 1 && levelStart > 0 { break }  // the root
      var start = levelStart
      while start < levelEnd {
        let end = min(start + m, levelEnd)
        var box = Rect.empty
        for c in start..<end { box = Self.union(box, boxes[c]) }
        boxes.append(box)
        firstChild.append(Int32(start))
        endChild.append(Int32(end))
        start = end
      }
      levelStart = levelEnd
    }
    self.boxes = boxes
    self.items = items
    self.firstChild = firstChild
    self.endChild = endChild
  }

  /// Appends to `out`, in no particular order, the item of every entry whose
  /// box grown by `reach` on every side meets `frame` (boundaries included):
  /// exactly the entries for which `box.insetBy(-reach).intersects(frame)`.
  ///
  /// Why no entry is missed: a node's box holds its children's, and `x - reach`
  /// and `x + reach` round monotonically in `x`, so a node's grown box meets
  /// `frame` whenever a descendant's does; the test is the same expression
  /// at every level, with no tolerance to choose.
  func query(_ frame: Rect, reach: Double, into out: inout [Int32]) {
    guard count > 0 else { return }
    let d = -reach
    var stack: [Int32] = [Int32(boxes.count - 1)]
    while let node = stack.popLast() {
      let k = Int(node) - count
      for c in Int(firstChild[k])..<Int(endChild[k]) {
        let b = boxes[c]
        // `b.insetBy(d).intersects(frame)`, spelled out.
        guard b.minX + d <= frame.maxX, frame.minX <= b.maxX - d, b.minY + d <= frame.maxY, frame.minY <= b.maxY - d else { continue }
        if c < count {
          out.append(items[c])
        } else {
          stack.append(Int32(c))
        }
      }
    }
  }

  /// Bytes held, roughly: the boxes, items and child ranges.
  var approximateBytes: Int {
    boxes.count * MemoryLayout<Rect>.stride + items.count * 4 + firstChild.count * 8
  }

  /// The smallest box holding both (an empty box adds nothing).
  private static func union(_ a: Rect, _ b: Rect) -> Rect {
    Rect(minX: min(a.minX, b.minX), minY: min(a.minY, b.minY), maxX: max(a.maxX, b.maxX), maxY: max(a.maxY, b.maxY))
  }

  /// The STR order of `boxes`: sorted by centre x, cut into about √(n / M)
  /// vertical slices of whole nodes, each slice sorted by centre y; runs of
  /// `nodeCapacity` in this order become the nodes of the next level. Ties
  /// keep the given order, so the tree is the same on every run.
  private static func strOrder(_ boxes: [Rect]) -> [Int] {
    let n = boxes.count
    // Each centre as an unsigned key in the order of the doubles, with the
    // box's position beside it: the sorts compare two integers in place
    // rather than look up two doubles per comparison (the sort was most of
    // building the tree of helsinki-2000's largest layer).
    var xs = [SortKey](repeating: SortKey(key: 0, index: 0), count: n)
    var ys = [UInt64](repeating: 0, count: n)
    for (i, b) in boxes.enumerated() {
      xs[i] = SortKey(key: Self.key(b.minX / 2 + b.maxX / 2), index: Int32(i))
      ys[i] = Self.key(b.minY / 2 + b.maxY / 2)
    }
    xs.sort(by: <)
    let m = nodeCapacity
    let nodes = (n + m - 1) / m
    var slices = 1
    while slices * slices < nodes { slices += 1 }
    let perSlice = slices * m
    var start = 0
    while start < n {
      let end = min(start + perSlice, n)
      for k in start..<end { xs[k].key = ys[Int(xs[k].index)] }
      xs[start..<end].sort(by: <)
      start = end
    }
    return xs.map { Int($0.index) }
  }

  /// A centre's sort key and the box's position (ties keep the given order).
  private struct SortKey: Comparable {
    var key: UInt64
    var index: Int32
    static func < (a: SortKey, b: SortKey) -> Bool { a.key != b.key ? a.key < b.key : a.index < b.index }
  }

  /// `x` as an unsigned integer in the same order as the doubles (-0 as 0);
  /// NaN (an empty box's centre, or one infinite both ways) as 0's key,
  /// where it does no harm.
  private static func key(_ x: Double) -> UInt64 {
    let v = x.isNaN ? 0 : x + 0  // + 0 turns -0 into 0
    let bits = v.bitPattern
    return bits >> 63 == 0 ? bits | (1 << 63) : ~bits
  }
}
