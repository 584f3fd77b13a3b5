package import _MapSnapRaster

/// A uniform grid of axis-aligned boxes for collision queries (the GridIndex of
/// Mapbox/MapLibre symbol placement), in any pixel space with y down.
///
/// Rules:
/// - Two boxes **overlap** only when their intersection has positive area:
///   boxes that merely touch along an edge or at a corner do not overlap, and a
///   box of zero width or height (or with a NaN coordinate) overlaps nothing.
///   See ``overlaps(_:_:)``.
/// - Boxes may lie partly or wholly outside `frame` (and may have infinite
///   coordinates): cell ranges are clamped to the grid, so such boxes land in
///   the border cells and are still found. Only speed suffers when many boxes
///   are far outside.
/// - Ids are the caller's; the same id may be inserted more than once.
///
/// Storage is flat: one head index per cell and one array of (next, box) list
/// entries, so an insertion appends to two arrays and a query allocates nothing
/// (except ``hits(_:)``, which returns an array).
package struct CollisionGrid: Sendable {
  /// The area the grid covers; boxes outside it are accepted too.
  package let frame: Rect
  /// The side of a cell. It is the `cellSize` given to the initialiser unless
  /// that would make more than ``maxCellsPerSide`` cells along a side, in which
  /// case it grows so that there are at most that many.
  package let cellSize: Double
  /// Number of cell columns (at least 1).
  package let columns: Int
  /// Number of cell rows (at least 1).
  package let rows: Int

  /// The largest number of cells along one side of the grid.
  package static let maxCellsPerSide = 1024

  private struct Entry: Sendable {
    var next: Int32
    var box: Int32
  }

  private let originX: Double
  private let originY: Double
  private let inverseCell: Double
  /// Per cell (row-major), the first entry of its list, or -1.
  private var heads: [Int32]
  /// Linked list entries; each list is newest first.
  private var entries: [Entry] = []
  /// Every inserted box and its id, in insertion order.
  private var boxes: [Rect] = []
  private var ids: [Int] = []
  /// Per box, the first (clamped) column and row it covers, or -1 when the box
  /// is not in the cells (no area). Used to report a box once per query.
  private var firstColumn: [Int32] = []
  private var firstRow: [Int32] = []

  /// An empty grid over `frame`. `cellSize` must be positive and finite. A frame
  /// that is empty or not finite gives a grid of a single cell (still correct,
  /// only slower).
  package init(frame: Rect, cellSize: Double = 32) {
    precondition(cellSize > 0 && cellSize.isFinite, "CollisionGrid: cellSize must be positive and finite")
    self.frame = frame
    let usable =
      frame.minX.isFinite && frame.minY.isFinite && frame.maxX.isFinite && frame.maxY.isFinite
      && frame.minX <= frame.maxX && frame.minY <= frame.maxY
    if usable {
      let side = Double(CollisionGrid.maxCellsPerSide)
      let size = max(cellSize, frame.width / side, frame.height / side)
      self.cellSize = size
      columns = min(CollisionGrid.maxCellsPerSide, max(1, Int((frame.width / size).rounded(.up))))
      rows = min(CollisionGrid.maxCellsPerSide, max(1, Int((frame.height / size).rounded(.up))))
      originX = frame.minX
      originY = frame.minY
    } else {
      self.cellSize = cellSize
      columns = 1
      rows = 1
      originX = 0
      originY = 0
    }
    inverseCell = 1 / self.cellSize
    heads = [Int32](repeating: -1, count: columns * rows)
  }

  /// Number of boxes inserted.
  package var count: Int { boxes.count }

  /// True when `a` and `b` overlap: their intersection has positive area.
  /// Boxes that only touch along an edge or at a corner do not overlap; a box
  /// with zero width or height, or with a NaN coordinate, overlaps nothing.
  @inlinable
  package static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
    hasArea(a) && hasArea(b) && a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
  }

  /// True when the box has positive width and height (false for NaN).
  @inlinable
  static func hasArea(_ r: Rect) -> Bool { r.minX < r.maxX && r.minY < r.maxY }

  /// Interior overlap of two boxes both known to have area.
  @inline(__always)
  private static func overlapsKnownArea(_ a: Rect, _ b: Rect) -> Bool {
    a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
  }

  /// The clamped cell indices of the interval `lo…hi` along one axis.
  @inline(__always)
  private func cellSpan(_ lo: Double, _ hi: Double, origin: Double, count: Int) -> (Int, Int) {
    let top = Double(count - 1)
    var a = ((lo - origin) * inverseCell).rounded(.down)
    var b = ((hi - origin) * inverseCell).rounded(.down)
    // Clamp in floating point so infinities never reach the Int conversion.
    a = a > 0 ? (a < top ? a : top) : 0
    b = b > 0 ? (b < top ? b : top) : 0
    return (Int(a), Int(b))
  }

  /// Adds a box with the caller's `id`. A box with no area (zero width or
  /// height, NaN) is counted but can never be hit.
  package mutating func insert(_ box: Rect, id: Int) {
    let index = boxes.count
    precondition(index < Int(Int32.max), "CollisionGrid: too many boxes")
    boxes.append(box)
    ids.append(id)
    guard CollisionGrid.hasArea(box) else {
      firstColumn.append(-1)
      firstRow.append(-1)
      return
    }
    let (c0, c1) = cellSpan(box.minX, box.maxX, origin: originX, count: columns)
    let (r0, r1) = cellSpan(box.minY, box.maxY, origin: originY, count: rows)
    firstColumn.append(Int32(c0))
    firstRow.append(Int32(r0))
    let boxIndex = Int32(index)
    for r in r0...r1 {
      var cell = r * columns + c0
      for _ in c0...c1 {
        let e = Int32(entries.count)
        entries.append(Entry(next: heads[cell], box: boxIndex))
        heads[cell] = e
        cell += 1
      }
    }
  }

  /// Removes every box; the grid's frame and cells stay.
  package mutating func removeAll(keepingCapacity: Bool = true) {
    for i in heads.indices { heads[i] = -1 }
    entries.removeAll(keepingCapacity: keepingCapacity)
    boxes.removeAll(keepingCapacity: keepingCapacity)
    ids.removeAll(keepingCapacity: keepingCapacity)
    firstColumn.removeAll(keepingCapacity: keepingCapacity)
    firstRow.removeAll(keepingCapacity: keepingCapacity)
  }

  /// The cells a query box spans: columns `c0...c1`, rows `r0...r1`.
  private struct Span {
    var c0: Int, c1: Int, r0: Int, r1: Int
  }

  private func span(of box: Rect) -> Span {
    let (c0, c1) = cellSpan(box.minX, box.maxX, origin: originX, count: columns)
    let (r0, r1) = cellSpan(box.minY, box.maxY, origin: originY, count: rows)
    return Span(c0: c0, c1: c1, r0: r0, r1: r1)
  }

  /// The one walk of a query over the grid: every inserted box that
  /// overlaps `box` (positive-area intersection; touching does not count),
  /// cell by cell over `span` (rows, then columns, each cell's list in
  /// order; a box spanning several cells is met in each), handed to `visit`
  /// with its index into `boxes` and the cell's column and row, until
  /// `visit` returns false. Allocates nothing.
  @inline(__always)
  private func walk(_ box: Rect, _ span: Span, _ visit: (_ box: Int, _ column: Int, _ row: Int) -> Bool) {
    heads.withUnsafeBufferPointer { heads in
      entries.withUnsafeBufferPointer { entries in
        boxes.withUnsafeBufferPointer { boxes in
          for r in span.r0...span.r1 {
            var cell = r * columns + span.c0
            for c in span.c0...span.c1 {
              var e = Int(heads[cell])
              while e >= 0 {
                let entry = entries[e]
                let b = Int(entry.box)
                if CollisionGrid.overlapsKnownArea(boxes[b], box), !visit(b, c, r) { return }
                e = Int(entry.next)
              }
              cell += 1
            }
          }
        }
      }
    }
  }

  /// True when some inserted box overlaps `box` (positive-area intersection;
  /// touching does not count). Stops at the first overlap found; allocates
  /// nothing.
  package func hitsAny(_ box: Rect) -> Bool {
    guard CollisionGrid.hasArea(box), !boxes.isEmpty else { return false }
    var hit = false
    walk(box, span(of: box)) { _, _, _ in
      hit = true
      return false
    }
    return hit
  }

  /// The **smallest id** among the inserted boxes that overlap `box`
  /// (positive-area intersection; touching does not count), or nil. Taking the
  /// smallest id makes the answer independent of insertion order. Allocates
  /// nothing.
  func firstHit(_ box: Rect) -> Int? {
    guard CollisionGrid.hasArea(box), !boxes.isEmpty else { return nil }
    var best: Int?
    ids.withUnsafeBufferPointer { ids in
      walk(box, span(of: box)) { b, _, _ in
        let id = ids[b]
        if best == nil || id < best! { best = id }
        return true
      }
    }
    return best
  }

  /// The ids of all inserted boxes that overlap `box` (positive-area
  /// intersection; touching does not count), each id once, in ascending order.
  func hits(_ box: Rect) -> [Int] {
    var out: [Int] = []
    appendHits(box, to: &out)
    if out.count > 1 {
      out.sort()
      var w = 1
      for i in 1..<out.count where out[i] != out[w - 1] {
        out[w] = out[i]
        w += 1
      }
      out.removeLast(out.count - w)
    }
    return out
  }

  /// Appends the ids of the boxes that overlap `box`, in the grid's order
  /// (the same for the same insertions), until `out` holds `limit` ids.
  /// With `dedupe` each inserted box is reported once (an id inserted twice
  /// may still appear twice); without it a box is reported once per cell that
  /// it shares with the query.
  func appendHits(_ box: Rect, dedupe: Bool = true, limit: Int = .max, to out: inout [Int]) {
    guard CollisionGrid.hasArea(box), !boxes.isEmpty, out.count < limit else { return }
    let span = span(of: box)
    ids.withUnsafeBufferPointer { ids in
      firstColumn.withUnsafeBufferPointer { firstColumn in
        firstRow.withUnsafeBufferPointer { firstRow in
          walk(box, span) { b, c, r in
            // A box spanning several cells is reported only in the first
            // cell of its overlap with the query's cell range.
            guard !dedupe || (c == max(Int(firstColumn[b]), span.c0) && r == max(Int(firstRow[b]), span.r0)) else { return true }
            out.append(ids[b])
            return out.count < limit
          }
        }
      }
    }
  }
}
