/// How the inside of a path is decided from its winding number.
public enum FillRule: String, Sendable, Hashable {
  /// Inside where the winding number is not zero.
  case nonZero = "nonzero"
  /// Inside where the winding number is odd.
  case evenOdd = "evenodd"
}

/// One entry of a `DisplayList`, in paint order.
struct DrawItem: Sendable {
  enum Kind: UInt8, Sendable {
    case fill
    case beginGroup
    case endGroup
    /// A `DisplayList.drawImage` command; binned by rows like a fill.
    case image
    /// A `DisplayList.drawMasks` command: `edgeStart`/`edgeCount` index
    /// `maskPlacements`; binned by rows like a fill.
    case masks
  }

  var kind: Kind
  var rule: FillRule = .nonZero
  /// Premultiplied paint for `.fill`.
  var pixel: UInt32 = 0
  /// Group opacity 0...255 for `.beginGroup`.
  var opacity: UInt32 = 255
  /// First edge of a `.fill` in its block; for `.image`, its index in
  /// `DisplayList.images`.
  var edgeStart: Int = 0
  /// The block a `.fill`'s edges are in: `DisplayList.sealedEdges[i]`, or
  /// the list's own `edges` when `i == sealedEdges.count`.
  var edgeBlock: Int32 = 0
  var edgeCount: Int = 0
  /// Inclusive range of canvas rows the item touches.
  var minRow: Int32 = 0
  var maxRow: Int32 = -1
  /// For fills spanning several 64-row buckets: where their bucket offsets
  /// start in `DisplayList.bucketOffsets`, or -1 (iterate every edge).
  var bucketStart: Int = -1
  /// First bucket of the fill (its `minRow / 64`).
  var firstBucket: Int32 = 0
  /// For a `.fill` painted with a pattern: its index in
  /// `DisplayList.patterns` (`pixel` is then unused); -1 for `pixel`.
  var pattern: Int32 = -1
}

/// Everything one frame draws, in device pixels and paint order, ready to be
/// cut into tiles: each fill is already turned into clipped fixed-point edges,
/// so tiles only read it.
///
/// Groups composite their content as a whole: a group with opacity 0.5 makes
/// its overlapping fills no darker than a single one (layer opacity).
public struct DisplayList: Sendable {
  public let width: Int
  public let height: Int
  /// Painted under everything; transparent leaves an RGBA image.
  public var background: Color
  var items: [DrawItem] = []
  /// The block new fills append their edges to.
  var edges = EdgeBlock()
  /// Blocks of the lists appended to this one, in order (see `EdgeBlock`).
  var sealedEdges: [EdgeBlock] = []
  private var sealedEdgeCount = 0
  var bucketOffsets: [Int32] = []
  /// Image commands (see `drawImage`), their sampling entries, and the images
  /// whose pixels they point into (kept alive by the list).
  var maskPlacements: [MaskPlacement] = []
  /// The atlas every `.masks` item of this list reads.
  var atlas: MaskAtlas?
  var images: [ImageDraw] = []
  var imageAxes: [ImageAxis] = []
  var imageOwners: [RasterImage] = []
  /// Pattern fills' paints (`fill(_:rule:pattern:)`), indexed by `DrawItem.pattern`.
  var patterns: [PatternDraw] = []
  private var openGroups = 0
  private let builder: EdgeBuilder

  /// An empty frame of `width` × `height` device pixels.
  /// - Precondition: both sizes are at least 1.
  public init(width: Int, height: Int, background: Color = .white) {
    precondition(width > 0 && height > 0, "a display list needs a non-empty frame")
    self.width = width
    self.height = height
    self.background = background
    self.builder = EdgeBuilder(width: width, height: height)
  }

  /// Number of fill commands that reached the canvas (after clipping).
  public var fillCount: Int { items.reduce(0) { $0 + ($1.kind == .fill ? 1 : 0) } }
  /// Number of fixed-point edges stored.
  public var edgeCount: Int { sealedEdgeCount + edges.count }
  /// Pixels image commands cover (each image's box clipped to the frame):
  /// the work `drawImage` commands ask of the tiles.
  public internal(set) var imagePixels = 0

  /// Fills `path` (every contour taken as closed) with `color`. Returns false,
  /// drawing nothing, when the path has no area inside the frame or the colour
  /// is fully transparent.
  @discardableResult
  public mutating func fill(_ path: Path, rule: FillRule = .nonZero, color: Color) -> Bool {
    fill(path, rule: rule, color: color, testingCoverage: true)
  }

  /// `fill`, with the coverage test left out when `testingCoverage` is
  /// false: every fill with edges is recorded, so that tests can draw what
  /// the test would have refused and compare.
  mutating func fill(_ path: Path, rule: FillRule, color: Color, testingCoverage: Bool) -> Bool {
    guard color.a > 0 else { return false }
    let start = startFill()
    let rows = builder.append(path, to: edges)
    return record(edgesFrom: start, rows: rows, rule: rule, color: color, testingCoverage: testingCoverage)
  }

  /// Adds `path` stroked with `style` (`strokeOutline`) as a nonzero fill
  /// of `color`: the same item and edges as
  /// `fill(strokeOutline(path, style: style, tolerance: tolerance), color: color)`,
  /// made from each loop of the outline as the stroker completes it, so the
  /// outline is never held whole (on a 1-pixel outline, about three points
  /// per vertex not written and read again). True when it was added.
  public mutating func fillStroke(of path: Path, style: StrokeStyle, tolerance: Double, color: Color) -> Bool {
    guard color.a > 0 else { return false }
    let start = startFill()
    let sink = strokeOutline(path, style: style, tolerance: tolerance, into: EdgeSink(builder: builder, edges: edges))
    let rows = EdgeBuilder.rows(minY: sink.minY, maxY: sink.maxY)
    return record(edgesFrom: start, rows: rows, rule: .nonZero, color: color, testingCoverage: true)
  }

  /// Where a new fill's edges start, in a block this list alone holds
  /// (copied first when a copy of the list shares it).
  private mutating func startFill() -> Int {
    if !isKnownUniquelyReferenced(&edges) { edges = edges.copy() }
    return edges.count
  }

  /// Records the edges from `start` on, touching `rows` (nil: none), as one
  /// fill, unless the coverage test finds they cover nothing; drops them
  /// otherwise.
  private mutating func record(edgesFrom start: Int, rows: (minRow: Int32, maxRow: Int32)?, rule: FillRule, color: Color, testingCoverage: Bool) -> Bool {
    guard let rows else {
      edges.removeAll(from: start)
      return false
    }
    let mine = UnsafeMutableBufferPointer(rebasing: edges.buffer[start...])
    // Fills spanning several buckets are sorted by bucket before the
    // coverage test, which then sorts one bucket at a time, as it needs them.
    let firstBucket = Int(rows.minRow) >> EdgeBuckets.rowsShift
    let lastBucket = Int(rows.maxRow) >> EdgeBuckets.rowsShift
    var offsets: [Int32]? = nil
    if lastBucket > firstBucket && mine.count > 16 {
      offsets = EdgeBuckets.sort(mine, firstBucket: firstBucket, lastBucket: lastBucket)
    }
    guard !testingCoverage || DisplayList.covers(UnsafeBufferPointer(mine), rule: rule, width: width, rows: rows, buckets: offsets) else {
      edges.removeAll(from: start)
      return false
    }
    var item = DrawItem(
      kind: .fill, rule: rule, pixel: color.premultipliedPixel,
      edgeStart: start, edgeCount: mine.count, minRow: rows.minRow, maxRow: rows.maxRow)
    item.edgeBlock = Int32(sealedEdges.count)
    if let offsets {
      item.bucketStart = bucketOffsets.count
      item.firstBucket = Int32(firstBucket)
      bucketOffsets += offsets
    }
    items.append(item)
    return true
  }

  /// True when `edges` (one fill's, clipped to a frame `width` pixels wide,
  /// touching rows `rows`) give some pixel non-zero coverage under `rule`,
  /// exactly as the tiles will compute it. Three steps, cheapest first:
  /// 1. Edges only on the borders (geometry wholly left or right of the
  ///    frame, or around it): the winding the left border's edges carry into
  ///    the frame decides, along some run of rows; the right border's edges
  ///    carry nothing into the frame.
  /// 2. Non-zero rule: when the winding integrated over the frame,
  ///    |∫∫ w dA|, is at least the fill's bounding box in pixels / 256, some
  ///    pixel's |∫ w dA| is at least 1/256, which is coverage 1 or more.
  /// 3. Otherwise the fill is rasterised row by row, as the tiles do it,
  ///    until a row has a covered pixel (slivers, zero-area rings, rings that
  ///    cancel, even-odd overlaps).
  /// `buckets`, when given, are the fill's bucket offsets (`EdgeBuckets.sort`,
  /// from the bucket of `rows.minRow`): step 3 then sorts one bucket at a
  /// time, as the rows reach it, rather than every edge first.
  static func covers(
    _ edges: UnsafeBufferPointer<Edge>, rule: FillRule, width: Int, rows: (minRow: Int32, maxRow: Int32), buckets: [Int32]? = nil
  ) -> Bool {
    let right = Int32(width * 256)
    var inside = false
    var minX = Int32.max
    var maxX = Int32.min
    // ∑ w (x0 + x1)(y1 − y0), in (1/256 px)²: integers, so the sum is exact
    // and the same in any order of the edges (a bucket's order is not kept:
    // `EdgeBuckets.sort`). Each term is below 2^38 (x below 2^23, an edge at
    // most a bucket tall); a sum that overflowed on the way (rings by the
    // tens of thousands over a print-size frame) skips step 2.
    var twiceArea = 0
    var overflowed = false
    for e in edges {
      if !(e.x0 == e.x1 && (e.x0 == 0 || e.x0 == right)) { inside = true }
      minX = min(minX, e.x0, e.x1)
      maxX = max(maxX, e.x0, e.x1)
      let (sum, overflow) = twiceArea.addingReportingOverflow(Int(e.winding) * (Int(e.x0) + Int(e.x1)) * Int(e.y1 - e.y0))
      twiceArea = sum
      overflowed = overflowed || overflow
    }
    guard inside else { return leftBorderCovers(edges, rule: rule) }
    let firstColumn = Int(minX) >> 8
    let lastColumn = min(width - 1, (Int(maxX) + 255) >> 8)
    let boxPixels = Double(lastColumn - firstColumn + 1) * Double(rows.maxRow - rows.minRow + 1)
    // |∫∫ w dA| in px² is |twiceArea| / (2 × 65536); the test is that × 256 ≥ box.
    if rule == .nonZero && !overflowed && Double(twiceArea).magnitude >= boxPixels * 512 { return true }
    return rasterisedCovers(edges, buckets: buckets, rule: rule, firstColumn: firstColumn, lastColumn: lastColumn, rows: rows)
  }

  /// Step 1 of `covers`: sweeps the left border from top to bottom, summing
  /// the winding its edges carry into the frame.
  private static func leftBorderCovers(_ edges: UnsafeBufferPointer<Edge>, rule: FillRule) -> Bool {
    var left: [(y: Int32, winding: Int32)] = []
    for e in edges where e.x0 == 0 && e.x1 == 0 {
      left.append((e.y0, e.winding))
      left.append((e.y1, -e.winding))
    }
    left.sort { $0.y < $1.y }
    var winding: Int32 = 0
    var i = 0
    while i < left.count {
      let y = left[i].y
      while i < left.count && left[i].y == y {
        winding += left[i].winding
        i += 1
      }
      let covered = rule == .nonZero ? winding != 0 : winding & 1 != 0
      if covered && i < left.count { return true }
    }
    return false
  }

  /// Step 3 of `covers`: the cell rasteriser on one row at a time (columns
  /// `firstColumn...lastColumn` only, shifted by whole pixels so coverage is
  /// unchanged), with an active-edge list, stopping at the first row with a
  /// covered pixel. Edges join the active list in order of their top: sorted
  /// all at once, or with `buckets` a bucket at a time as the rows enter it
  /// (every edge of a bucket starts below the rows of the buckets before it).
  /// At worst the cost of drawing the fill once.
  private static func rasterisedCovers(
    _ edges: UnsafeBufferPointer<Edge>, buckets: [Int32]?, rule: FillRule, firstColumn: Int, lastColumn: Int,
    rows: (minRow: Int32, maxRow: Int32)
  ) -> Bool {
    let columns = lastColumn - firstColumn + 1
    guard columns > 0 else { return false }
    let shift = Int32(firstColumn * 256)
    func shifted(_ slice: Slice<UnsafeBufferPointer<Edge>>) -> [Edge] {
      var out = slice.map { Edge(x0: $0.x0 - shift, y0: $0.y0, x1: $0.x1 - shift, y1: $0.y1, winding: $0.winding) }
      out.sort { $0.y0 < $1.y0 }
      return out
    }
    let firstBucket = Int(rows.minRow) >> EdgeBuckets.rowsShift
    var pending = buckets == nil ? shifted(edges[...]) : []
    var loadedBucket = -1
    let cells = CellRasterizer(width: columns, rows: 1)
    let row = UnsafeMutablePointer<UInt32>.allocate(capacity: columns)
    row.initialize(repeating: 0, count: columns)
    defer {
      cells.deallocate()
      row.deallocate()
    }
    var active: [Edge] = []
    var next = 0
    for r in Int(rows.minRow)...Int(rows.maxRow) {
      if let buckets, (r >> EdgeBuckets.rowsShift) - firstBucket != loadedBucket {
        loadedBucket = (r >> EdgeBuckets.rowsShift) - firstBucket
        let lo = edges.startIndex + Int(buckets[loadedBucket])
        let hi = edges.startIndex + Int(buckets[loadedBucket + 1])
        pending = shifted(edges[lo..<hi])
        next = 0
      }
      let top = Int32(r << 8)
      let bottom = top + 256
      while next < pending.count && pending[next].y0 < bottom {
        active.append(pending[next])
        next += 1
      }
      active.removeAll { $0.y1 <= top }
      for e in active { cells.add(e, top: r, bottom: r + 1) }
      // Opaque black: any coverage leaves a non-zero alpha. Rows that stay
      // empty need no clearing; the sweep clears the cells it reads.
      cells.sweep(rows: 1, rule: rule, paint: 0xFF00_0000, target: row)
      for x in 0..<columns where row[x] >> 24 != 0 { return true }
    }
    return false
  }

  /// Reserves room for the items, edge blocks and bucket offsets of `parts`, to
  /// be appended next: each array grows once, not by doubling (with a copy
  /// and fresh pages each time).
  public mutating func reserveCapacity(toAppend parts: [DisplayList]) {
    var (itemCount, blockCount, offsetCount) = (items.count, sealedEdges.count + 1, bucketOffsets.count)
    for p in parts {
      itemCount += p.items.count
      blockCount += p.sealedEdges.count + 1
      offsetCount += p.bucketOffsets.count
    }
    items.reserveCapacity(itemCount)
    sealedEdges.reserveCapacity(blockCount)
    bucketOffsets.reserveCapacity(offsetCount)
  }

  /// Appends every item of `other` (a list of the same size), as if its
  /// commands had been issued on this list: lists built apart, in parallel,
  /// and appended in order give the same list as one serial build. Edges
  /// are not copied: this list holds `other`'s edge blocks (`EdgeBlock`).
  /// - Precondition: same size, and `other` has no open group.
  public mutating func append(_ other: DisplayList) {
    precondition(other.width == width && other.height == height, "display lists of different sizes")
    precondition(other.openGroups == 0, "appending a display list with an open group")
    if edges.count > 0 {
      sealedEdgeCount += edges.count
      sealedEdges.append(edges)
      edges = EdgeBlock()
    }
    let blockBase = Int32(sealedEdges.count)
    sealedEdges += other.sealedEdges
    sealedEdgeCount += other.sealedEdgeCount
    if other.edges.count > 0 {
      sealedEdges.append(other.edges)
      sealedEdgeCount += other.edges.count
    }
    let bucketBase = bucketOffsets.count
    let maskBase = maskPlacements.count
    if other.atlas != nil {
      precondition(atlas == nil || atlas === other.atlas, "display lists with different mask atlases")
      atlas = other.atlas
    }
    maskPlacements += other.maskPlacements
    let imageBase = images.count
    let axisBase = imageAxes.count
    bucketOffsets += other.bucketOffsets
    for var image in other.images {
      image.axisStart += axisBase
      images.append(image)
    }
    imageAxes += other.imageAxes
    let patternBase = Int32(patterns.count)
    patterns += other.patterns
    imageOwners += other.imageOwners
    imagePixels += other.imagePixels
    for var item in other.items {
      switch item.kind {
      case .image: item.edgeStart += imageBase
      case .masks: item.edgeStart += maskBase
      case .fill:
        item.edgeBlock += blockBase
        if item.pattern >= 0 { item.pattern += patternBase }
      case .beginGroup, .endGroup: break
      }
      if item.bucketStart >= 0 { item.bucketStart += bucketBase }
      items.append(item)
    }
  }

  /// Paints masks of `atlas` (glyphs, halos) with `color`, each at an integer
  /// device position. All masks of one list come from one atlas. Placements
  /// wholly outside the frame are left out; returns false when none is left.
  @discardableResult
  public mutating func drawMasks(_ atlas: MaskAtlas, _ placements: [(mask: Int, x: Int, y: Int)], color: Color) -> Bool {
    guard color.a > 0, !placements.isEmpty else { return false }
    precondition(self.atlas == nil || self.atlas === atlas, "one mask atlas per display list")
    self.atlas = atlas
    var minRow = Int.max
    var maxRow = Int.min
    let start = maskPlacements.count
    for p in placements {
      let (r0, r1) = atlas.rows(of: p.mask, at: p.y)
      if r1 < 0 || r0 >= height { continue }
      let (c0, c1) = atlas.columns(of: p.mask, at: p.x)
      if c1 < 0 || c0 >= width { continue }
      minRow = min(minRow, max(0, r0))
      maxRow = max(maxRow, min(height - 1, r1))
      maskPlacements.append(MaskPlacement(mask: Int32(p.mask), x: Int32(clamping: p.x), y: Int32(clamping: p.y)))
    }
    guard maskPlacements.count > start else { return false }
    items.append(
      DrawItem(
        kind: .masks, pixel: color.premultipliedPixel, edgeStart: start, edgeCount: maskPlacements.count - start,
        minRow: Int32(minRow), maxRow: Int32(maxRow)))
    return true
  }

  /// Starts a group whose content is composited as a whole with `opacity`
  /// (0...1) at the matching `endGroup()`. Groups may nest.
  public mutating func beginGroup(opacity: Double) {
    items.append(DrawItem(kind: .beginGroup, opacity: DisplayList.groupAlpha(opacity)))
    openGroups += 1
  }

  /// The 8-bit alpha a group of `opacity` (0...1) is composited with: a
  /// group whose alpha rounds to 0 shows nothing.
  public static func groupAlpha(_ opacity: Double) -> UInt32 {
    UInt32((min(max(opacity, 0), 1) * 255).rounded())
  }

  /// Ends the innermost open group.
  /// - Precondition: a group is open.
  public mutating func endGroup() {
    precondition(openGroups > 0, "endGroup() without beginGroup()")
    openGroups -= 1
    if let last = items.last, last.kind == .beginGroup {
      items.removeLast()  // an empty group draws nothing
    } else {
      items.append(DrawItem(kind: .endGroup))
    }
  }
}
