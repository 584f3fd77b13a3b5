import XCTest

@testable import _MapSnapStyle

/// Protocol buffer writing for the vector tile and PMTiles tests: just
/// enough to build tiles and directories, well-formed and broken.
enum TestProtobuf {
  static func varint(_ v: UInt64) -> [UInt8] {
    var v = v
    var out: [UInt8] = []
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
    return out
  }

  static func zigzag(_ v: Int32) -> UInt64 { UInt64(UInt32(bitPattern: (v << 1) ^ (v >> 31))) }

  static func key(_ field: UInt64, _ wire: UInt64) -> [UInt8] { varint(field << 3 | wire) }

  static func bytes(_ field: UInt64, _ payload: [UInt8]) -> [UInt8] {
    key(field, 2) + varint(UInt64(payload.count)) + payload
  }

  static func uint(_ field: UInt64, _ v: UInt64) -> [UInt8] { key(field, 0) + varint(v) }

  static func packed(_ field: UInt64, _ values: [UInt64]) -> [UInt8] {
    bytes(field, values.flatMap(varint))
  }

  /// A MoveTo/LineTo/ClosePath command integer.
  static func command(_ id: UInt64, _ count: UInt64) -> UInt64 { id | count << 3 }

  /// A geometry of parts (lines or rings), each a MoveTo and a LineTo,
  /// and a ClosePath after each when `close`, with the cursor running on.
  static func geometry(parts: [[(Int32, Int32)]], close: Bool) -> [UInt64] {
    var out: [UInt64] = []
    var cx: Int32 = 0
    var cy: Int32 = 0
    for part in parts {
      for (i, p) in part.enumerated() {
        if i == 0 { out.append(command(1, 1)) }
        if i == 1 { out.append(command(2, UInt64(part.count - 1))) }
        out += [zigzag(p.0 &- cx), zigzag(p.1 &- cy)]
        cx = p.0
        cy = p.1
      }
      if close { out.append(command(7, 1)) }
    }
    return out
  }

  /// A feature message.
  static func feature(id: UInt64? = nil, type: UInt64, tags: [UInt64] = [], geometry: [UInt64]) -> [UInt8] {
    (id.map { uint(1, $0) } ?? []) + (tags.isEmpty ? [] : packed(2, tags)) + uint(3, type) + packed(4, geometry)
  }

  /// A layer message.
  static func layer(
    name: String, extent: UInt64? = nil, version: UInt64 = 2, keys: [String] = [], values: [[UInt8]] = [],
    features: [[UInt8]]
  ) -> [UInt8] {
    var out = bytes(1, Array(name.utf8))
    for f in features { out += bytes(2, f) }
    for k in keys { out += bytes(3, Array(k.utf8)) }
    for v in values { out += bytes(4, v) }
    if let extent { out += uint(5, extent) }
    out += uint(15, version)
    return out
  }

  static func tile(_ layers: [[UInt8]]) -> [UInt8] { layers.flatMap { bytes(3, $0) } }

  static func stringValue(_ s: String) -> [UInt8] { bytes(1, Array(s.utf8)) }
}

/// The fixtures' folder (Tests/Fixtures/vectortile) and the shared
/// conformance tiles beside the repository, when they are there.
enum VectorTileFixtures {
  static let repository: String = {
    var root = #filePath
    for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }  // …/Tests/StyleTests/this file
    return root
  }()

  static func path(_ name: String) -> String { repository + "/Tests/Fixtures/vectortile/" + name }

  static func read(_ path: String) throws -> [UInt8] {
    let reader = try FileRangeReader(path: path)
    return try reader.read(offset: 0, length: Int(reader.size ?? 0))
  }

  static func fixture(_ name: String) throws -> [UInt8] { try read(path(name)) }

  /// A tile of the render suite (`../shared/conformance/render-suite/tiles`), or a skip.
  static func suiteTile(_ name: String) throws -> [UInt8] {
    let path = repository + "/../shared/conformance/render-suite/tiles/" + name
    guard let bytes = try? read(path) else { throw XCTSkip("no \(path)") }
    return bytes
  }

  /// The gzip'd output of a shell command (gzip(1) compresses), for
  /// compressed fixtures made on the fly: a tile, a gzip bomb.
  static func gzip(command: String) throws -> [UInt8] {
    let file = "/tmp/mapsnap-vt-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).gz"
    defer { unlink(file) }
    XCTAssertEqual(system("(\(command)) | gzip -n -c > \(file)"), 0)
    return try read(file)
  }

  /// `bytes` gzip'd.
  static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let file = "/tmp/mapsnap-vt-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).raw"
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    defer { unlink(file) }
    return try gzip(command: "cat \(file)")
  }
}
