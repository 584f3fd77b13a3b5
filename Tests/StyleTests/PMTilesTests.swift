import XCTest

@testable import _MapSnapStyle

/// PMTiles v3: tile ids, headers, directories and leaves, every tile of
/// archives the PyPI `pmtiles` package wrote (Tests/Fixtures/vectortile,
/// made by its make-fixtures.py), and each malformed or hostile case.
final class PMTilesTests: XCTestCase {
  typealias T = TestPMTiles

  func archive(_ bytes: [UInt8]) throws(PMTilesError) -> PMTilesArchive {
    try PMTilesArchive(reader: MemoryRangeReader(bytes: bytes))
  }

  func archiveError(_ bytes: [UInt8]) -> PMTilesError? {
    do {
      _ = try archive(bytes)
      return nil
    } catch {
      return error
    }
  }

  func testTileIdsAsThePmtilesPackageNumbersThem() {
    let known: [(Int, Int, Int, UInt64)] = [
      (0, 0, 0, 0), (1, 1, 0, 4), (3, 5, 2, 76), (12, 1234, 3001, 13_268_028), (20, 123_456, 654_321, 652_812_043_350),
      (26, 12_345_678, 23_456_789, 2_479_084_085_512_354),
    ]
    for (z, x, y, id) in known {
      XCTAssertEqual(PMTilesTileID.id(z: z, x: x, y: y), id, "\(z)/\(x)/\(y)")
      XCTAssertTrue(PMTilesTileID.tile(id) == (z, x, y), "\(id)")
    }
    var next: UInt64 = 0
    for z in 0...5 {
      var ids = Set<UInt64>()
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = PMTilesTileID.id(z: z, x: x, y: y)!
          XCTAssertTrue(PMTilesTileID.tile(id) == (z, x, y))
          ids.insert(id)
        }
      }
      XCTAssertEqual(ids, Set(next..<(next + UInt64(1 << (2 * z)))))
      next += UInt64(1 << (2 * z))
    }
    let deep = PMTilesTileID.id(z: 31, x: (1 << 31) - 1, y: 12345)!
    XCTAssertTrue(PMTilesTileID.tile(deep) == (31, (1 << 31) - 1, 12345))
    XCTAssertNil(PMTilesTileID.id(z: 2, x: 4, y: 0))
    XCTAssertNil(PMTilesTileID.id(z: 32, x: 0, y: 0))
    XCTAssertNil(PMTilesTileID.id(z: 1, x: -1, y: 0))
  }

  func testTheHeaderOfAnArchiveMadeFromMBTiles() throws {
    let archive = try PMTilesArchive(reader: FileRangeReader(path: VectorTileFixtures.path("countries-z0-2.pmtiles")))
    let h = archive.header
    XCTAssertEqual(h.version, 3)
    XCTAssertEqual([h.rootDirectoryOffset, h.rootDirectoryLength, h.metadataOffset, h.metadataLength], [127, 74, 201, 2142])
    XCTAssertEqual([h.leafDirectoriesOffset, h.leafDirectoriesLength, h.tileDataOffset, h.tileDataLength], [2343, 0, 2343, 82873])
    XCTAssertEqual([h.addressedTilesCount, h.tileEntriesCount, h.tileContentsCount], [21, 21, 21])
    XCTAssertTrue(h.clustered)
    XCTAssertEqual(h.internalCompression, PMTilesHeader.Compression.gzip)
    XCTAssertEqual(h.tileCompression, PMTilesHeader.Compression.gzip)
    XCTAssertEqual(h.tileType, PMTilesHeader.TileType.mvt)
    XCTAssertEqual([h.minZoom, h.maxZoom, h.centerZoom], [0, 2, 0])
    XCTAssertEqual([h.minLongitude, h.minLatitude, h.maxLongitude, h.maxLatitude], [-180, -85, 180, 83.64513])
    XCTAssertEqual([h.centerLongitude, h.centerLatitude], [0, -0.677435])
    guard case .object(let metadata) = try archive.metadata() else { return XCTFail("metadata is not an object") }
    // The MBTiles metadata, as `pmtiles` converts it: its `json` member holds the layers.
    XCTAssertNotNil(metadata["json"])
    XCTAssertNotNil(metadata["format"])
  }

  /// FNV-1a, 64 bits: the listing's checksum.
  func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
  }

  func testEveryTileOfTheArchiveIsTheMBTilesTile() throws {
    let archive = try PMTilesArchive(reader: FileRangeReader(path: VectorTileFixtures.path("countries-z0-2.pmtiles")))
    let listing = String(decoding: try VectorTileFixtures.fixture("countries-z0-2.tiles.txt"), as: UTF8.self)
    var seen = 0
    for line in listing.split(separator: "\n") {
      let f = line.split(separator: " ")
      let (z, x, y) = (Int(f[0])!, Int(f[1])!, Int(f[2])!)
      let stored = try XCTUnwrap(archive.storedTile(z: z, x: x, y: y), "\(line)")
      XCTAssertEqual(stored.count, Int(f[3])!, "\(line)")
      XCTAssertEqual(String(fnv1a(stored), radix: 16).leftPadded(16), String(f[4]), "\(line)")
      let tile = try VectorTile(bytes: try XCTUnwrap(archive.tile(z: z, x: x, y: y)))
      XCTAssertEqual(tile.layerNames, ["countries"])
      seen += 1
    }
    XCTAssertEqual(seen, 21)
    XCTAssertNil(try archive.tile(z: 3, x: 0, y: 0))
    XCTAssertThrowsError(try archive.tile(z: 2, x: 4, y: 0)) { XCTAssertEqual($0 as? PMTilesError, .invalidTile(z: 2, x: 4, y: 0)) }
  }

  func testLeafDirectoriesAndRuns() throws {
    let archive = try PMTilesArchive(reader: FileRangeReader(path: VectorTileFixtures.path("leaves.pmtiles")))
    XCTAssertGreaterThan(archive.rootEntries.count, 1)
    XCTAssertTrue(archive.rootEntries.allSatisfy(\.isLeaf))
    var present = 0
    for x in 0..<128 {
      for y in 0..<128 {
        guard let tile = try archive.tile(z: 7, x: x, y: y) else { continue }
        XCTAssertEqual(String(decoding: tile, as: UTF8.self), "7/\(x)/\(y)")
        present += 1
      }
    }
    XCTAssertEqual(present, 5412)
    let first6 = PMTilesTileID.id(z: 6, x: 0, y: 0)!
    for id in (first6 + 100)..<(first6 + 1100) {
      let (z, x, y) = PMTilesTileID.tile(id)
      XCTAssertEqual(try archive.tile(z: z, x: x, y: y), Array("run".utf8))
    }
    for id in [first6 + 99, first6 + 1100] {
      let (z, x, y) = PMTilesTileID.tile(id)
      XCTAssertNil(try archive.tile(z: z, x: x, y: y))
    }
  }

  func testDirectoriesFromHandWrittenArchives() throws {
    // Two tiles, then a run of three sharing the second's bytes.
    let root = T.directory([T.entry(0, offset: 0, length: 2), T.entry(1, offset: 2, length: 3), T.entry(2, offset: 2, length: 3, run: 3)])
    let a = try archive(T.archive(root: root, tiles: Array("abcde".utf8)))
    XCTAssertEqual(try a.tile(z: 0, x: 0, y: 0), Array("ab".utf8))
    XCTAssertEqual(try a.tile(z: 1, x: 0, y: 0), Array("cde".utf8))
    for (x, y) in [(0, 1), (1, 1), (1, 0)] {
      XCTAssertEqual(try a.tile(z: 1, x: x, y: y), Array("cde".utf8), "\(x) \(y)")
    }
    XCTAssertNil(try a.tile(z: 2, x: 0, y: 0))
    XCTAssertEqual(a.rootEntries[2], T.entry(2, offset: 2, length: 3, run: 3))
    // gzip'd directories and tiles.
    let gz = try archive(
      T.archive(
        root: try VectorTileFixtures.gzip(root), tiles: try VectorTileFixtures.gzip(Array("ab".utf8)), internalCompression: 2,
        tileCompression: 2))
    XCTAssertEqual(gz.rootEntries.count, 3)
    guard case .object = try gz.metadata() else { return XCTFail("no metadata is an empty object") }
  }

  func testNotAnArchiveOrAnotherVersion() {
    XCTAssertEqual(archiveError([]), .notPMTiles)
    XCTAssertEqual(archiveError(Array("not a pmtiles file at all".utf8)), .notPMTiles)
    XCTAssertEqual(archiveError(Array("PMTiles".utf8) + [2] + Array(repeating: 0, count: 200)), .unsupportedVersion(2))
    XCTAssertEqual(archiveError(Array("PMTiles".utf8) + [3, 0, 0]), .shortRead(what: "header", offset: 0, length: 127))
  }

  func testAHugeRootDirectoryIsRefusedBeforeItIsRead() {
    let error = archiveError(T.archive(root: [0], rootLength: 100_000_000))
    XCTAssertEqual(error, .directoryTooLarge(length: 100_000_000, limit: 16 << 20))
    XCTAssertEqual(
      error?.message, "PMTiles: a directory of 100000000 bytes is larger than 16 MiB, the limit per directory")
  }

  func testAHugeLeafDirectoryIsRefusedBeforeItIsRead() throws {
    let root = T.directory([T.entry(0, offset: 0, length: 100_000_000, run: 0)])
    let a = try archive(T.archive(root: root))
    XCTAssertThrowsError(try a.tile(z: 0, x: 0, y: 0)) {
      XCTAssertEqual($0 as? PMTilesError, .directoryTooLarge(length: 100_000_000, limit: 16 << 20))
    }
  }

  func testLeavesThatPointAtThemselvesEndAtTheDepthLimit() throws {
    let leaf = T.directory([T.entry(0, offset: 0, length: 0, run: 0)])
    // The leaf's own length is only known once it is written: 0 → its size.
    let selfLeaf = T.directory([T.entry(0, offset: 0, length: UInt32(leaf.count), run: 0)])
    let root = T.directory([T.entry(0, offset: 0, length: UInt32(selfLeaf.count), run: 0)])
    let a = try archive(T.archive(root: root, leaves: selfLeaf))
    XCTAssertThrowsError(try a.tile(z: 0, x: 0, y: 0)) { XCTAssertEqual($0 as? PMTilesError, .leavesTooDeep(limit: 3)) }
  }

  func testMalformedDirectories() {
    // 200 entries claimed in 5 bytes.
    XCTAssertEqual(
      archiveError(T.archive(root: TestProtobuf.varint(200) + [0, 0, 0, 0])),
      .malformedDirectory(offset: 127, why: "it claims 200 entries in 6 bytes"))
    // The first offset cannot be "after the previous".
    XCTAssertEqual(
      archiveError(T.archive(root: [1, 0, 1, 1, 0])),
      .malformedDirectory(offset: 127, why: "the first entry's offset is 'after the previous entry'"))
    // A length of 0.
    XCTAssertEqual(
      archiveError(T.archive(root: [1, 0, 1, 0, 1])), .malformedDirectory(offset: 127, why: "entry 0 has a length of 0"))
    // A truncated varint.
    XCTAssertEqual(
      archiveError(T.archive(root: [1, 0x80, 0x80, 0x80, 0x80])),
      .malformedDirectory(offset: 127, why: "vector tile: truncated varint at byte 1"))
    // A directory that is not gzip though the header says so.
    guard case .inflate = archiveError(T.archive(root: [1, 0, 1, 1, 1], internalCompression: 2)) else {
      return XCTFail("not an inflate error")
    }
  }

  func testUnsupportedCompressions() throws {
    XCTAssertEqual(archiveError(T.archive(root: [0], internalCompression: 3)), .unsupportedCompression(code: 3, what: "directories"))
    XCTAssertEqual(
      archiveError(T.archive(root: [0], internalCompression: 4))?.message,
      "PMTiles: unsupported compression zstd for directories (none and gzip are read)")
    let root = T.directory([T.entry(0, offset: 0, length: 2)])
    let a = try archive(T.archive(root: root, tiles: [1, 2], tileCompression: 3))
    XCTAssertEqual(try a.storedTile(z: 0, x: 0, y: 0), [1, 2])
    XCTAssertThrowsError(try a.tile(z: 0, x: 0, y: 0)) {
      XCTAssertEqual($0 as? PMTilesError, .unsupportedCompression(code: 3, what: "tile 0/0/0"))
    }
  }

  func testRangesPastTheEnd() throws {
    let root = T.directory([T.entry(0, offset: 10, length: 5)])
    let a = try archive(T.archive(root: root, tiles: [1, 2]))
    XCTAssertThrowsError(try a.tile(z: 0, x: 0, y: 0)) {
      guard case .shortRead = $0 as? PMTilesError else { return XCTFail("\($0)") }
    }
    XCTAssertThrowsError(try PMTilesArchive(reader: FileRangeReader(path: "/nonexistent/a.pmtiles"))) {
      XCTAssertEqual(($0 as? RangeReadError)?.message, "cannot open /nonexistent/a.pmtiles: No such file or directory")
    }
  }

  func testTheCacheKeepsItsBudget() {
    var cache = PMTilesDirectoryCache(budget: 3 * 24)
    func directory(_ n: Int) -> PMTilesDirectory {
      try! PMTilesDirectory(bytes: T.directory((0..<n).map { T.entry(UInt64($0), offset: UInt64($0), length: 1) }), offset: 0)
    }
    cache.put(1, directory(1))
    cache.put(2, directory(2))
    XCTAssertNotNil(cache.get(1))
    cache.put(3, directory(1))  // evicts 2, the least recently used
    XCTAssertNil(cache.get(2))
    XCTAssertNotNil(cache.get(1))
    XCTAssertNotNil(cache.get(3))
    cache.put(4, directory(4))  // larger than the budget: not kept
    XCTAssertNil(cache.get(4))
    XCTAssertLessThanOrEqual(cache.bytes, 72)
  }
}

extension String {
  func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
