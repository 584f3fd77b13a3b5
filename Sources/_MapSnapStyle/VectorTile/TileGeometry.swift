/// A point in a vector tile layer's integer coordinates: (0, 0) is the
/// tile's top-left corner, (extent, extent) its bottom-right; geometry may
/// reach past both into the tile's buffer.
package struct TilePoint: Sendable, Hashable {
  package var x: Int32
  package var y: Int32

  package init(x: Int32, y: Int32) {
    self.x = x
    self.y = y
  }
}

/// An axis-aligned box in a tile's integer coordinates, bounds included.
package struct TileBox: Sendable, Equatable {
  package var minX, minY, maxX, maxY: Int32

  package init(minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) {
    self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
  }

  /// The box of no point (its minimum past its maximum).
  package static let empty = TileBox(minX: .max, minY: .max, maxX: .min, maxY: .min)

  package var isEmpty: Bool { minX > maxX || minY > maxY }

  /// Whether the two boxes share a point.
  package func intersects(_ o: TileBox) -> Bool {
    !isEmpty && !o.isEmpty && minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
  }
}

/// A feature's geometry as flat buffers: every point in one array, the end
/// of each part (a point, a line, a ring) in `partEnds`, and for polygons
/// the end of each polygon (its exterior ring, then its holes) in
/// `polygonEnds`, as indices into `partEnds`.
///
/// - Points: one part per point.
/// - Lines: one part per MoveTo.
/// - Polygons: one part per ring, each closed (its first point repeated at
///   its end, as ClosePath says). Rings are classified by the sign of their
///   area (the surveyor's formula in tile coordinates, y down), as the
///   specification 2.1 says: a ring whose sign is that of the exterior
///   starts a polygon, a ring of the other sign is a hole of the polygon
///   before it. The exterior's sign is the first ring's, as MapLibre takes
///   it, so that version 1 tiles wound the other way still read; rings of
///   zero area are dropped.
package struct TileGeometry: Sendable {
  package var kind: GeometryKind = .unknown
  package var points: [TilePoint] = []
  package var partEnds: [Int32] = []
  /// Polygons only: polygon `i` is parts `polygonEnds[i - 1] ..< polygonEnds[i]`.
  package var polygonEnds: [Int32] = []

  package init() {}

  /// The geometry command ids (`CommandInteger & 7`).
  enum Command {
    static let moveTo: UInt32 = 1
    static let lineTo: UInt32 = 2
    static let closePath: UInt32 = 7
  }

  package var partCount: Int { partEnds.count }

  /// The points of part `i`.
  package func part(_ i: Int) -> ArraySlice<TilePoint> {
    points[(i == 0 ? 0 : Int(partEnds[i - 1]))..<Int(partEnds[i])]
  }

  /// Every part as its own array (for tests and slow paths: the flat
  /// buffers are what hot loops read).
  package var parts: [[TilePoint]] {
    (0..<partCount).map { Array(part($0)) }
  }

  /// True when the geometry is a MultiPoint, MultiLineString or MultiPolygon.
  package var isMulti: Bool {
    kind == .polygon ? polygonEnds.count > 1 : partEnds.count > 1
  }

  /// The smallest box holding every point; empty (`TileBox.empty`) when
  /// there is none.
  package var bounds: TileBox {
    var box = TileBox.empty
    for p in points {
      box.minX = min(box.minX, p.x); box.minY = min(box.minY, p.y)
      box.maxX = max(box.maxX, p.x); box.maxY = max(box.maxY, p.y)
    }
    return box
  }

  /// Empties the buffers, keeping their capacity.
  package mutating func removeAll() {
    points.removeAll(keepingCapacity: true)
    partEnds.removeAll(keepingCapacity: true)
    polygonEnds.removeAll(keepingCapacity: true)
  }

  /// Decodes a packed `geometry` field: MoveTo starts a part at each of its
  /// points, LineTo extends the part, ClosePath closes it. Coordinates are
  /// zigzag deltas from the cursor; they wrap at 32 bits rather than trap.
  mutating func decode(_ reader: inout ProtobufReader, kind: GeometryKind, layer: String, feature: Int) throws(VectorTileError) {
    removeAll()
    self.kind = kind
    // Each point takes at least two bytes (two one-byte parameters).
    points.reserveCapacity((reader.end - reader.position) / 2 + 1)
    var x: Int32 = 0
    var y: Int32 = 0
    var partStart = -1
    while !reader.isAtEnd {
      let command = try reader.varint32()
      let id = command & 7
      let count = command >> 3
      switch id {
      case Command.moveTo, Command.lineTo:
        if id == Command.lineTo && partStart < 0 {
          throw .misplacedCommand(layer: layer, feature: feature, command: command)
        }
        guard UInt64(count) * 2 <= UInt64(reader.end - reader.position) else {
          throw .commandCountPastEnd(layer: layer, feature: feature, command: command, count: count)
        }
        for _ in 0..<count {
          guard !reader.isAtEnd else {
            throw .commandCountPastEnd(layer: layer, feature: feature, command: command, count: count)
          }
          let dx = try reader.varint32()
          guard !reader.isAtEnd else {
            throw .commandCountPastEnd(layer: layer, feature: feature, command: command, count: count)
          }
          let dy = try reader.varint32()
          x &+= Self.zigzag(dx)
          y &+= Self.zigzag(dy)
          if id == Command.moveTo {
            if partStart >= 0 { partEnds.append(Int32(points.count)) }
            partStart = points.count
          }
          points.append(TilePoint(x: x, y: y))
        }
      case Command.closePath:
        guard count == 1, partStart >= 0 else {
          throw .misplacedCommand(layer: layer, feature: feature, command: command)
        }
        points.append(points[partStart])
      default:
        throw .unknownCommand(layer: layer, feature: feature, command: id)
      }
    }
    if partStart >= 0 { partEnds.append(Int32(points.count)) }
    if kind == .polygon { classifyRings() }
  }

  @inline(__always)
  static func zigzag(_ v: UInt32) -> Int32 {
    Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
  }

  /// Twice the ring's signed area by the surveyor's formula (positive for a
  /// ring that turns clockwise on screen, y down). Wraps rather than traps
  /// on coordinates near the 32-bit limits.
  static func doubledSignedArea(_ ring: UnsafeBufferPointer<TilePoint>) -> Int64 {
    guard ring.count > 2 else { return 0 }
    var sum: Int64 = 0
    var previous = ring[ring.count - 1]
    for p in ring {
      sum &+= Int64(previous.x) * Int64(p.y) - Int64(p.x) * Int64(previous.y)
      previous = p
    }
    return sum
  }

  /// Groups the rings into polygons (see the type's rule), dropping rings of
  /// zero area; compacts `points` and `partEnds` in place.
  mutating func classifyRings() {
    var write = 0
    var keptParts = 0
    var exteriorIsPositive: Bool?
    var start = 0
    let ringCount = partEnds.count
    points.withUnsafeMutableBufferPointer { points in
      partEnds.withUnsafeMutableBufferPointer { ends in
        for r in 0..<ringCount {
          let end = Int(ends[r])
          defer { start = end }
          let area = Self.doubledSignedArea(UnsafeBufferPointer(rebasing: points[start..<end]))
          if area == 0 { continue }
          let positive = area > 0
          if exteriorIsPositive == nil { exteriorIsPositive = positive }
          if positive == exteriorIsPositive && keptParts > 0 { polygonEnds.append(Int32(keptParts)) }
          if write != start {
            for i in start..<end { points[write + i - start] = points[i] }
          }
          write += end - start
          ends[keptParts] = Int32(write)
          keptParts += 1
        }
      }
    }
    if keptParts > 0 { polygonEnds.append(Int32(keptParts)) }
    points.removeSubrange(write...)
    partEnds.removeSubrange(keptParts...)
  }
}
