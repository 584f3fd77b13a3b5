import XCTest

@testable import _MapSnapStyle

/// gzip and zlib inflation: detection, limits (the gzip bomb), truncated
/// and corrupt streams, concatenated members.
final class VectorTileInflateTests: XCTestCase {
  func testDetectsGzipAndZlibHeadersButNotTiles() {
    XCTAssertTrue(Inflate.isGzip([0x1f, 0x8b, 8]))
    XCTAssertTrue(Inflate.isZlib([0x78, 0x9c]))
    XCTAssertTrue(Inflate.isZlib([0x78, 0x01]))
    XCTAssertTrue(Inflate.isZlib([0x78, 0xda]))
    XCTAssertFalse(Inflate.isZlib([0x1a, 0x9c]))
    XCTAssertFalse(Inflate.isGzip([0x1f]))
    XCTAssertEqual(try Inflate.ifCompressed([0x1a, 0x00], limit: 10), [0x1a, 0x00])
    XCTAssertEqual(try Inflate.ifCompressed([], limit: 10), [])
  }

  func testInflatesGzipToTheLimitAndNotPast() throws {
    let text = Array(repeating: Array("mapsnap ".utf8), count: 125).flatMap { $0 }  // 1000 bytes
    let gz = try VectorTileFixtures.gzip(text)
    XCTAssertEqual(try Inflate.inflate(gz, limit: 1000), text)
    XCTAssertThrowsError(try Inflate.inflate(gz, limit: 999)) { XCTAssertEqual($0 as? InflateError, .tooLarge(limit: 999)) }
    // A small first buffer grows (the input is 1/40 of the output).
    XCTAssertEqual(try Inflate.inflate(gz, limit: 1 << 20), text)
  }

  func testZlibStreams() {
    // "hello" deflated by zlib (level 6).
    let z: [UInt8] = [0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x06, 0x2c, 0x02, 0x15]
    XCTAssertEqual(try Inflate.ifCompressed(z, limit: 100), Array("hello".utf8))
  }

  func testAGzipBombEndsAtTheTileLimit() throws {
    let bomb = try VectorTileFixtures.gzip(command: "head -c 100000000 /dev/zero")
    XCTAssertLessThan(bomb.count, 200_000)
    XCTAssertThrowsError(try Inflate.ifCompressed(bomb, limit: Inflate.tileLimit)) {
      XCTAssertEqual($0 as? InflateError, .tooLarge(limit: 64 << 20))
      XCTAssertEqual(
        ($0 as? InflateError)?.message,
        "compressed data inflates past 64 MiB (the limit of what one tile or directory may inflate to)")
    }
  }

  func testTruncatedAndCorruptStreams() throws {
    let gz = try VectorTileFixtures.gzip(Array(0..<200).map { UInt8($0) })
    XCTAssertThrowsError(try Inflate.inflate(Array(gz.prefix(gz.count / 2)), limit: 1000)) {
      XCTAssertEqual($0 as? InflateError, .truncated)
    }
    XCTAssertThrowsError(try Inflate.inflate(Array(gz.prefix(3)), limit: 1000)) { XCTAssertEqual($0 as? InflateError, .truncated) }
    var corrupt = gz
    corrupt[2] = 7  // a compression method other than deflate
    XCTAssertThrowsError(try Inflate.inflate(corrupt, limit: 1000)) {
      guard case .corrupt(let why) = $0 as? InflateError else { return XCTFail("\($0)") }
      XCTAssertFalse(why.isEmpty)
    }
  }

  func testConcatenatedGzipMembers() throws {
    let a = try VectorTileFixtures.gzip(Array("first ".utf8))
    let b = try VectorTileFixtures.gzip(Array("second".utf8))
    XCTAssertEqual(try Inflate.inflate(a + b, limit: 100), Array("first second".utf8))
    XCTAssertThrowsError(try Inflate.inflate(a + b, limit: 8)) { XCTAssertEqual($0 as? InflateError, .tooLarge(limit: 8)) }
  }
}
