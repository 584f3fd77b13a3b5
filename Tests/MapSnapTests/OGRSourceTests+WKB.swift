import Testing
import _MapSnapTestSupport

@testable import MapSnap
@testable import _MapSnapRaster

/// Well-known binary geometry as GDAL returns it, read as GeoJSON reads it.
extension OGRSourceTests {
  private func wkb(_ bytes: [UInt8]) throws -> Geometry {
    try bytes.withUnsafeBytes { raw in try WKBReader.geometry(raw) }
  }

  private func le(_ type: UInt32, _ rest: [Double], counts: [UInt32] = []) -> [UInt8] {
    var out: [UInt8] = [1]
    withUnsafeBytes(of: type.littleEndian) { out += $0 }
    for c in counts { withUnsafeBytes(of: c.littleEndian) { out += $0 } }
    for d in rest { withUnsafeBytes(of: d.bitPattern.littleEndian) { out += $0 } }
    return out
  }

  @Test func wkbReadsEveryGeometryTypeAsGeoJSONDoes() throws {
    #expect(try wkb(le(1, [24.9, 60.1])).points == [Point(24.9, 60.1)])
    #expect(try wkb(le(1001, [1, 2, 3])).points == [Point(1, 2)], "Z is read past")
    #expect(try wkb(le(1, [.nan, .nan])).isEmpty, "an empty point")
    #expect(try wkb(le(2, [0, 0, 1, 1], counts: [2])).lines == [[Point(0, 0), Point(1, 1)]])
    // A clockwise outer ring is turned counter-clockwise, its repeat dropped.
    let square = try wkb(le(3, [0, 0, 0, 1, 1, 1, 1, 0, 0, 0], counts: [1, 5]))
    #expect(square.polygons == [[[Point(1, 0), Point(1, 1), Point(0, 1), Point(0, 0)]]])
    #expect(square.bounds == Rect(minX: 0, minY: 0, maxX: 1, maxY: 1))
    // Big endian, in a collection.
    var big: [UInt8] = [0, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    for d in [2.0, 3.0] { withUnsafeBytes(of: d.bitPattern.bigEndian) { big += $0 } }
    #expect(try wkb(big).points == [Point(2, 3)])
  }

  /// `type` with `counts` and coordinates in big-endian byte order, each
  /// position given a Z of 7 when `z` (type + 1000).
  private func be(_ type: UInt32, _ rest: [Double], counts: [UInt32] = [], z: Bool = false) -> [UInt8] {
    var out: [UInt8] = [0]
    withUnsafeBytes(of: (z ? type + 1000 : type).bigEndian) { out += $0 }
    for c in counts { withUnsafeBytes(of: c.bigEndian) { out += $0 } }
    for (i, d) in rest.enumerated() {
      withUnsafeBytes(of: d.bitPattern.bigEndian) { out += $0 }
      if z && i % 2 == 1 { withUnsafeBytes(of: (7.0).bitPattern.bigEndian) { out += $0 } }
    }
    return out
  }

  @Test func eitherByteOrderWithOrWithoutZReadsAlike() throws {
    // Little-endian x y positions (from unaligned offsets: 9 and 13 bytes
    // in), big-endian ones, and big-endian ones with a Z give the same
    // parts and bounds, for lines and rings of 2 to 1,000 positions.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53) * 360 - 180
    }
    for n in [2, 3, 17, 1000] {
      let coordinates = (0..<(2 * n)).map { _ in next() }
      let little = try wkb(le(2, coordinates, counts: [UInt32(n)]))
      #expect(little == (try wkb(be(2, coordinates, counts: [UInt32(n)]))))
      #expect(little == (try wkb(be(2, coordinates, counts: [UInt32(n)], z: true))))
      #expect(little.lines.count == 1 && little.lines[0].count == n)
      #expect(little.bounds.minX == stride(from: 0, to: 2 * n, by: 2).map { coordinates[$0] }.min())
      #expect(little.bounds.maxY == stride(from: 1, to: 2 * n, by: 2).map { coordinates[$0] }.max())
      // A ring: the first position repeated last.
      let ring = coordinates + coordinates.prefix(2)
      if n >= 3 {
        let polygon = try wkb(le(3, ring, counts: [1, UInt32(n + 1)]))
        #expect(polygon == (try wkb(be(3, ring, counts: [1, UInt32(n + 1)]))))
        #expect(polygon.polygons[0][0].count == n)
      }
    }
    // Two lines of a multi-line: the bounds of both.
    var multi: [UInt8] = [1]
    withUnsafeBytes(of: UInt32(5).littleEndian) { multi += $0 }
    withUnsafeBytes(of: UInt32(2).littleEndian) { multi += $0 }
    multi += le(2, [0, 0, 1, 1], counts: [2]) + le(2, [-5, 2, 3, 9], counts: [2])
    #expect(try wkb(multi).bounds == Rect(minX: -5, minY: 0, maxX: 3, maxY: 9))
    // A position that is not finite, or empty, inside a line is refused.
    #expect(throws: WKBReader.Issue(message: "a position that is not finite")) {
      try wkb(le(2, [0, 0, 1, .infinity, 2, 2], counts: [3]))
    }
    #expect(throws: WKBReader.Issue(message: "an empty position inside a line or ring")) {
      try wkb(le(2, [0, 0, .nan, .nan, 2, 2], counts: [3]))
    }
    #expect(throws: WKBReader.Issue(message: "a position that is not finite")) {
      try wkb(le(2, [0, 0, .nan, 1], counts: [2]))
    }
  }

  @Test func malformedWKBIsRefusedWithoutAllocatingItsCounts() {
    #expect(throws: WKBReader.Issue.self) { try wkb(le(2, [0, 0], counts: [0xFFFF_FFF0])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(3, [0, 0, 1, 1, 0, 0], counts: [1, 3])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(3, [0, 0, 1, 0, 1, 1, 0, 1], counts: [1, 4])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(8, [0, 0, 1, 1, 2, 0], counts: [3])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(Array(le(1, [1, 2]).dropLast())) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(1, [1, 2]) + [0]) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(1, [.infinity, 2])) }
  }
}
