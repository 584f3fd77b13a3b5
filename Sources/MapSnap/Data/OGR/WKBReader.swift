internal import _MapSnapRaster

/// Reads a geometry in ISO Well-Known Binary (OGC 06-103r4, as GDAL's
/// `OGR_G_ExportToIsoWkb` writes it) into a ``Geometry`` by the rules the
/// GeoJSON decoder applies: points, lines of at least 2 positions, polygons
/// whose rings have at least 4 positions with the first repeated last (the
/// repeat dropped, outer rings turned counter-clockwise and holes
/// clockwise), multi-parts and collections flattened. Z and M values are
/// read past; x and y must be finite. Either byte order.
///
/// Bounds: every count is checked against the bytes left before anything is
/// allocated, and collections nest at most 8 deep (as in GeoJSON), so a
/// malformed geometry costs no more than its size.
struct WKBReader {
  private let bytes: UnsafeRawBufferPointer
  private var offset = 0

  /// Why a geometry cannot be read.
  struct Issue: Error, Equatable {
    var message: String
  }

  /// The geometry of `wkb`.
  static func geometry(_ wkb: UnsafeRawBufferPointer) throws(Issue) -> Geometry {
    var r = WKBReader(bytes: wkb)
    var g = Geometry()
    try r.add(to: &g, depth: 0)
    guard r.offset == wkb.count else { throw Issue(message: "\(wkb.count - r.offset) bytes after the geometry") }
    for l in g.lines { for p in l { g.bounds.include(p) } }
    for poly in g.polygons { for ring in poly { for p in ring { g.bounds.include(p) } } }
    return g
  }

  private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  private mutating func byte() throws(Issue) -> UInt8 {
    guard offset < bytes.count else { throw Issue(message: "the geometry ends early") }
    defer { offset += 1 }
    return bytes[offset]
  }

  private mutating func uint32(_ little: Bool) throws(Issue) -> UInt32 {
    guard offset + 4 <= bytes.count else { throw Issue(message: "the geometry ends early") }
    let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    offset += 4
    return little ? UInt32(littleEndian: v) : UInt32(bigEndian: v)
  }

  private mutating func double(_ little: Bool) throws(Issue) -> Double {
    guard offset + 8 <= bytes.count else { throw Issue(message: "the geometry ends early") }
    let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    offset += 8
    return Double(bitPattern: little ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
  }

  /// A count of items of at least `itemBytes` bytes each, checked against
  /// the bytes left.
  private mutating func count(_ little: Bool, itemBytes: Int) throws(Issue) -> Int {
    let n = Int(try uint32(little))
    guard n <= (bytes.count - offset) / max(1, itemBytes) else { throw Issue(message: "a count of \(n) larger than the geometry") }
    return n
  }

  private mutating func add(to g: inout Geometry, depth: Int) throws(Issue) {
    let order = try byte()
    guard order <= 1 else { throw Issue(message: "byte order \(order) (0 or 1 expected)") }
    let little = order == 1
    let code = try uint32(little)
    // ISO: 1000 adds Z, 2000 M, 3000 both; the old EWKB-style flags too.
    var type = code & 0x0FFF_FFFF
    var dims = 2
    if code & 0x8000_0000 != 0 { dims += 1 }
    if code & 0x4000_0000 != 0 { dims += 1 }
    switch type / 1000 {
    case 1, 2: dims += 1
    case 3: dims += 2
    default: break
    }
    type %= 1000
    switch type {
    case 1:
      let p = try position(little, dims)
      // An empty point is written as NaN coordinates: nothing to draw.
      if let p { add(p, to: &g) }
    case 2:
      g.lines.append(try line(little, dims))
    case 3:
      g.polygons.append(try polygon(little, dims))
    case 4, 5, 6, 7:
      guard depth < 8 else { throw Issue(message: "collections nested more than 8 deep") }
      let n = try count(little, itemBytes: 9)
      for _ in 0..<n { try add(to: &g, depth: depth + 1) }
    default:
      throw Issue(message: "geometry type \(code) (curves and surfaces are not drawn)")
    }
  }

  private func add(_ p: Point, to g: inout Geometry) {
    g.points.append(p)
    g.bounds.include(p)
  }

  private mutating func position(_ little: Bool, _ dims: Int) throws(Issue) -> Point? {
    let x = try double(little)
    let y = try double(little)
    for _ in 2..<dims { _ = try double(little) }
    if x.isNaN && y.isNaN { return nil }
    guard x.isFinite, y.isFinite else { throw Issue(message: "a position that is not finite") }
    return Point(x, y)
  }

  private mutating func positions(_ little: Bool, _ dims: Int) throws(Issue) -> [Point] {
    let n = try count(little, itemBytes: 8 * dims)
    var out: [Point] = []
    out.reserveCapacity(n)
    for _ in 0..<n {
      guard let p = try position(little, dims) else { throw Issue(message: "an empty position inside a line or ring") }
      out.append(p)
    }
    return out
  }

  private mutating func line(_ little: Bool, _ dims: Int) throws(Issue) -> [Point] {
    let pts = try positions(little, dims)
    guard pts.count >= 2 else { throw Issue(message: "a line of \(pts.count) positions (at least 2)") }
    return pts
  }

  private mutating func polygon(_ little: Bool, _ dims: Int) throws(Issue) -> [[Point]] {
    let n = try count(little, itemBytes: 4)
    guard n > 0 else { throw Issue(message: "a polygon without rings") }
    var rings: [[Point]] = []
    rings.reserveCapacity(n)
    for r in 0..<n {
      var ring = try positions(little, dims)
      guard ring.count >= 4 else { throw Issue(message: "a ring of \(ring.count) positions (at least 4)") }
      guard ring[0] == ring[ring.count - 1] else { throw Issue(message: "a ring whose last position differs from its first") }
      ring.removeLast()
      let area = GeoJSONDecoder.signedArea(ring)
      if (r == 0) != (area >= 0) { ring.reverse() }
      rings.append(ring)
    }
    return rings
  }
}

/// For the `wkb` fuzz target: reads `wkb` as an `ogr` source's geometry is
/// read, giving its position count, or nil when it is refused. Not API.
package enum _WKBProbe {
  /// The positions in a WKB geometry, or nil when it does not parse.
  package static func positions(_ wkb: UnsafeRawBufferPointer) -> Int? {
    (try? WKBReader.geometry(wkb))?.pointCount
  }

  /// The same for a GeoPackage geometry blob (`GP` header, then WKB); an
  /// empty geometry counts 0.
  package static func geoPackagePositions(_ blob: UnsafeRawBufferPointer) -> Int? {
    guard let (g, _) = try? GeoPackageGeometry.parse(blob) else { return nil }
    return g?.pointCount ?? 0
  }
}
