#if canImport(Glibc)
  import Glibc
#endif

/// One non-horizontal line segment in 24.8 fixed point (1/256 px), oriented
/// top to bottom (`y0 < y1`); `winding` is +1 when the original segment ran
/// downwards and -1 when it ran upwards.
///
/// Every edge lies inside the canvas: x in 0...width*256, y in 0...height*256.
///
/// Stored in 16 bytes, not 20: the bottom and the winding share one word,
/// the height `y1 − y0` (under 2^30 on any canvas mapsnap draws, whose
/// fixed-point rows stay under 2^23) shifted left by one, its low bit set
/// for a winding of −1. A frame's edges are most of its display list
/// (nyc-250000: 252,237 edges), written once, sorted in place and read by
/// every band that reaches them: a fifth less memory to fault in and move.
public struct Edge: Sendable, Hashable {
  public let x0: Int32
  public let y0: Int32
  public let x1: Int32
  private let heightAndWinding: Int32

  /// The segment from (x0, y0) down to (x1, y1); `winding` +1 or −1 (any
  /// positive value counts as +1, any other as −1).
  /// - Precondition: `y0 <= y1` (`EdgeBuilder` makes none with `y0 == y1`),
  ///   their difference under 2^30.
  @inline(__always)
  public init(x0: Int32, y0: Int32, x1: Int32, y1: Int32, winding: Int32) {
    assert(y0 <= y1 && Int(y1) - Int(y0) < 1 << 30, "an edge runs down, less than 2^30 tall")
    self.x0 = x0
    self.y0 = y0
    self.x1 = x1
    heightAndWinding = ((y1 &- y0) << 1) | (winding > 0 ? 0 : 1)
  }

  @inline(__always) public var y1: Int32 { y0 &+ (heightAndWinding >> 1) }
  @inline(__always) public var winding: Int32 { heightAndWinding & 1 == 0 ? 1 : -1 }
}

/// Edges in memory of their own, appended in place: what a `DisplayList`
/// stores its fills' edges in.
///
/// Why not `[Edge]`: a frame's list is made of lists built apart, in
/// parallel (`DisplayList.append`), and copying their edges into one array
/// touched every edge twice (nyc-250000: 5 MB copied into fresh pages, on
/// the one thread that joins the parts). A list keeps the blocks of the
/// lists appended to it instead, and the renderer reads each block where it
/// lies, through a pointer that stays valid while the list holds the block.
/// A block grows with `realloc`, which can extend it where it lies.
///
/// Blocks are shared between copies of a list and never written once a
/// second list holds them (`DisplayList` copies a shared block before
/// writing to it).
final class EdgeBlock: @unchecked Sendable {
  private(set) var base: UnsafeMutablePointer<Edge>?
  private(set) var count = 0
  private(set) var capacity = 0

  init() {}

  deinit { free(base) }

  /// A block holding the same edges.
  func copy() -> EdgeBlock {
    let c = EdgeBlock()
    if count > 0 {
      c.grow(toHold: count)
      c.base!.initialize(from: base!, count: count)
      c.count = count
    }
    return c
  }

  /// The edges, valid while the block lives and is not appended to.
  var buffer: UnsafeMutableBufferPointer<Edge> { UnsafeMutableBufferPointer(start: base, count: count) }

  @inline(__always)
  func append(_ e: Edge) {
    if count == capacity { grow(toHold: count + 1) }
    (base! + count).initialize(to: e)
    count += 1
  }

  /// Drops the edges from `n` on.
  func removeAll(from n: Int) {
    precondition(n >= 0 && n <= count, "edge index out of range")
    count = n
  }

  /// Room for at least `needed` edges, growing geometrically (at least
  /// doubling) so that appends cost amortised constant time.
  private func grow(toHold needed: Int) {
    let newCapacity = max(needed, capacity * 2, 256)
    let (bytes, overflow) = newCapacity.multipliedReportingOverflow(by: MemoryLayout<Edge>.stride)
    precondition(!overflow, "edge block too large")
    guard let raw = realloc(base, bytes) else { fatalError("out of memory for \(newCapacity) edges") }
    base = raw.bindMemory(to: Edge.self, capacity: newCapacity)
    capacity = newCapacity
  }
}

/// Turns device-space contours into fixed-point `Edge`s clipped to a canvas.
///
/// Clipping keeps the fill exact: parts of a segment above or below the canvas
/// are dropped (they add no cover to visible rows) and parts left or right of it
/// become vertical segments on the canvas border, which carry the same winding
/// into the visible pixels. So geometry far outside the frame costs nothing and
/// never overflows the fixed-point range.
struct EdgeBuilder {
  let width: Double
  let height: Double

  init(width: Int, height: Int) {
    self.width = Double(width)
    self.height = Double(height)
  }

  /// Appends the edges of every contour of `path` (each treated as closed) and
  /// returns the range of rows they touch, or nil when they touch none.
  func append(_ path: Path, to edges: EdgeBlock) -> (minRow: Int32, maxRow: Int32)? {
    var minY = Int32.max
    var maxY = Int32.min
    path.points.withUnsafeBufferPointer { pts in
      for c in path.contours where c.count >= 2 {
        append(contour: UnsafeBufferPointer(rebasing: pts[c.start..<(c.start + c.count)]), to: edges, minY: &minY, maxY: &maxY)
      }
    }
    return Self.rows(minY: minY, maxY: maxY)
  }

  /// Appends the edges of one contour of at least two points (closed: its
  /// last point joins its first), widening `minY...maxY`, the fixed-point
  /// rows touched so far.
  @inline(__always)
  func append(contour pts: UnsafeBufferPointer<Point>, to edges: EdgeBlock, minY: inout Int32, maxY: inout Int32) {
    var prev = pts[pts.count - 1]
    for p in pts {
      clipSegment(prev, p, into: edges, minY: &minY, maxY: &maxY)
      prev = p
    }
  }

  /// The pixel rows of fixed-point rows `minY..<maxY`, nil when empty.
  static func rows(minY: Int32, maxY: Int32) -> (minRow: Int32, maxRow: Int32)? {
    if minY >= maxY { return nil }
    return (minY >> 8, (maxY - 1) >> 8)
  }

  @inline(__always)
  private func clipSegment(
    _ a: Point, _ b: Point, into edges: EdgeBlock, minY: inout Int32, maxY: inout Int32
  ) {
    guard a.isFinite, b.isFinite, a.y != b.y else { return }
    if a.x >= 0 && a.x <= width && b.x >= 0 && b.x <= width && a.y >= 0 && a.y <= height && b.y >= 0 && b.y <= height {
      if a.y < b.y {
        emit(a.x, a.y, b.x, b.y, 1, into: edges, minY: &minY, maxY: &maxY)
      } else {
        emit(b.x, b.y, a.x, a.y, -1, into: edges, minY: &minY, maxY: &maxY)
      }
      return
    }
    var p = a
    var q = b
    var winding: Int32 = 1
    if p.y > q.y {
      swap(&p, &q)
      winding = -1
    }
    // Vertical clip: nothing outside 0...height carries cover into the canvas.
    if q.y <= 0 || p.y >= height { return }
    if p.y < 0 {
      p = Point(p.x + (q.x - p.x) * (0 - p.y) / (q.y - p.y), 0)
    }
    if q.y > height {
      q = Point(p.x + (q.x - p.x) * (height - p.y) / (q.y - p.y), height)
    }
    // Horizontal clip: split at x = 0 and x = width; outer parts run along the border.
    var cuts: (Double, Double) = (.nan, .nan)
    if (p.x < 0) != (q.x < 0), p.x != q.x {
      cuts.0 = p.y + (q.y - p.y) * (0 - p.x) / (q.x - p.x)
    }
    if (p.x > width) != (q.x > width), p.x != q.x {
      cuts.1 = p.y + (q.y - p.y) * (width - p.x) / (q.x - p.x)
    }
    var ys = (p.y, q.y, q.y)
    var n = 0
    if !cuts.0.isNaN { ys.1 = cuts.0; n = 1 }
    if !cuts.1.isNaN {
      if n == 0 {
        ys.1 = cuts.1
        n = 1
      } else {
        ys = (p.y, min(cuts.0, cuts.1), max(cuts.0, cuts.1))
        n = 2
      }
    }
    // Emit up to three pieces between consecutive y values.
    var y0 = p.y
    for k in 0...n {
      let y1 = k == n ? q.y : (k == 0 ? ys.1 : ys.2)
      if y1 > y0 {
        let x0 = xOn(p, q, at: y0)
        let x1 = xOn(p, q, at: y1)
        let mid = (x0 + x1) * 0.5
        // A piece outside the canvas runs along the border it is beyond.
        let cx0: Double
        let cx1: Double
        if mid < 0 {
          cx0 = 0
          cx1 = 0
        } else if mid > width {
          cx0 = width
          cx1 = width
        } else {
          cx0 = min(max(x0, 0), width)
          cx1 = min(max(x1, 0), width)
        }
        emit(cx0, y0, cx1, y1, winding, into: edges, minY: &minY, maxY: &maxY)
      }
      y0 = y1
    }
  }

  @inline(__always)
  private func xOn(_ p: Point, _ q: Point, at y: Double) -> Double {
    if y <= p.y { return p.x }
    if y >= q.y { return q.x }
    return p.x + (q.x - p.x) * (y - p.y) / (q.y - p.y)
  }

  @inline(__always)
  private func emit(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ winding: Int32,
    into edges: EdgeBlock, minY: inout Int32, maxY: inout Int32
  ) {
    // Coordinates are inside the canvas here, so adding 0.5 and truncating rounds.
    let fy0 = Int32(y0 * 256 + 0.5)
    let fy1 = Int32(y1 * 256 + 0.5)
    if fy0 == fy1 { return }
    let fx0 = Int32(x0 * 256 + 0.5)
    let fx1 = Int32(x1 * 256 + 0.5)
    if fy0 < minY { minY = fy0 }
    if fy1 > maxY { maxY = fy1 }
    // Edges taller than a bucket are cut at bucket boundaries (exact fixed-point
    // rows), so that every edge belongs to at most two buckets (see `EdgeBuckets`).
    if fy1 - fy0 <= EdgeBuckets.height << 8 {
      edges.append(Edge(x0: fx0, y0: fy0, x1: fx1, y1: fy1, winding: winding))
      return
    }
    var ya = fy0
    var xa = fx0
    let dx = Int(fx1) - Int(fx0)
    let dy = Int(fy1) - Int(fy0)
    while ya < fy1 {
      let yb = min(fy1, ((ya >> EdgeBuckets.shift) + 1) << EdgeBuckets.shift)
      let xb = yb == fy1 ? fx1 : Int32(Int(fx0) + floorDiv((Int(yb) - Int(fy0)) * dx, dy))
      edges.append(Edge(x0: xa, y0: ya, x1: xb, y1: yb, winding: winding))
      ya = yb
      xa = xb
    }
  }
}

/// A stroke outline's loops turned into edges as the stroker completes them
/// (`DisplayList.fillStroke`): what `EdgeBuilder.append(_:to:)` makes of
/// the outline's path, without the path.
struct EdgeSink: OutlineLoopSink {
  let builder: EdgeBuilder
  let edges: EdgeBlock
  var minY = Int32.max
  var maxY = Int32.min

  init(builder: EdgeBuilder, edges: EdgeBlock) {
    self.builder = builder
    self.edges = edges
  }

  mutating func add(loop: UnsafeBufferPointer<Point>) {
    builder.append(contour: loop, to: edges, minY: &minY, maxY: &maxY)
  }
}

/// Edges of one fill grouped by the 64-row bucket their top lies in. Edges are
/// at most one bucket tall, so the edges touching rows `top..<bottom` are all
/// in buckets `(top / 64) - 1 … (bottom - 1) / 64`: a band visits only those,
/// whatever its height.
enum EdgeBuckets {
  static let rowsShift = 6
  static let height = 1 << rowsShift  // rows per bucket
  static let shift = Int32(rowsShift + 8)  // fixed-point y to bucket

  /// Sorts `edges` by bucket in place and returns the offsets of each
  /// bucket from `firstBucket` on: a counting sort that moves each edge
  /// straight into its bucket's next free slot, swapping out the edge there
  /// (no second buffer: copying each fill's edges into one cost nyc-250000's
  /// process 330 of its 5,200 page faults and 2 ms of processor time). The
  /// order inside a bucket is not kept, and nothing needs it: a cell's cover
  /// and area, and the coverage test's area (`DisplayList.covers`), are sums
  /// of integers, the same in any order.
  static func sort(_ edges: UnsafeMutableBufferPointer<Edge>, firstBucket: Int, lastBucket: Int) -> [Int32] {
    let n = lastBucket - firstBucket + 1
    var offsets = [Int32](repeating: 0, count: n + 1)
    for e in edges { offsets[Int(e.y0 >> shift) - firstBucket + 1] += 1 }
    for b in 0..<n { offsets[b + 1] += offsets[b] }
    var next = offsets  // each bucket's first slot not yet holding one of its edges
    next.withUnsafeMutableBufferPointer { next in
      for b in 0..<n {
        let end = Int(offsets[b + 1])
        while Int(next[b]) < end {
          var e = edges[Int(next[b])]
          var target = Int(e.y0 >> shift) - firstBucket
          // Carry the edge along until one that belongs in bucket b lands here.
          while target != b {
            let slot = Int(next[target])
            next[target] += 1
            swap(&e, &edges[slot])
            target = Int(e.y0 >> shift) - firstBucket
          }
          edges[Int(next[b])] = e
          next[b] += 1
        }
      }
    }
    return offsets
  }
}
