import XCTest

@testable import _MapSnapStyle

/// Every malformed tile ends in its `VectorTileError`, and absurd counts in
/// a limit, never in a trap or an unbounded allocation.
final class VectorTileErrorTests: XCTestCase {
  typealias P = TestProtobuf

  func tileError(_ bytes: [UInt8]) -> VectorTileError? {
    do {
      _ = try VectorTile(bytes: bytes)
      return nil
    } catch {
      return error
    }
  }

  /// The error of decoding the first layer's first feature's properties and geometry.
  func featureError(layer: [UInt8]) -> VectorTileError? {
    do {
      let tile = try VectorTile(bytes: P.tile([layer]))
      let l = try tile.layer(at: 0)
      let f = try l.feature(at: 0)
      _ = try f.properties()
      _ = try f.geometry()
      return nil
    } catch {
      return error
    }
  }

  func testTruncatedVarintsAndFields() {
    XCTAssertEqual(tileError([0x1a, 0x80]), .truncatedVarint(offset: 1))
    XCTAssertEqual(tileError([0x1a] + Array(repeating: 0xff, count: 11) + [0x01]), .truncatedVarint(offset: 1))
    XCTAssertEqual(tileError([0x1a, 0x05, 0x0a]), .lengthPastEnd(offset: 1, length: 5))
    XCTAssertEqual(tileError([0x1a, 0x02, 0x0a, 0x05]), .lengthPastEnd(offset: 3, length: 5))
    XCTAssertEqual(tileError([]).map(\.message), nil)  // an empty tile has no layers
  }

  func testWrongWireTypes() {
    XCTAssertEqual(tileError([0x18, 0x01]), .wrongWireType(field: 3, wire: 0, offset: 1))
    XCTAssertEqual(tileError([0x1b]), .wrongWireType(field: 3, wire: 3, offset: 0))
    // A layer's extent given as a string.
    XCTAssertEqual(
      featureError(layer: P.bytes(1, [0x61]) + P.bytes(5, [1])), .wrongWireType(field: 5, wire: 2, offset: 6))
  }

  func testLayersWithoutNameOrWithABadVersionOrExtent() {
    XCTAssertEqual(tileError(P.tile([P.uint(15, 2)])), .layerWithoutName(offset: 2))
    XCTAssertEqual(featureError(layer: P.layer(name: "a", version: 3, features: [])), .unsupportedVersion(layer: "a", version: 3))
    XCTAssertEqual(featureError(layer: P.layer(name: "a", extent: 0, features: [])), .invalidExtent(layer: "a"))
  }

  func testTagsOutOfTheTables() {
    let value = [P.stringValue("v")]
    XCTAssertEqual(
      featureError(layer: P.layer(name: "a", keys: ["k"], values: value, features: [P.feature(type: 1, tags: [1, 0], geometry: [9, 0, 0])])),
      .keyIndexOutOfRange(layer: "a", feature: 0, index: 1, count: 1))
    XCTAssertEqual(
      featureError(layer: P.layer(name: "a", keys: ["k"], values: value, features: [P.feature(type: 1, tags: [0, 7], geometry: [9, 0, 0])])),
      .valueIndexOutOfRange(layer: "a", feature: 0, index: 7, count: 1))
    XCTAssertEqual(
      featureError(layer: P.layer(name: "a", keys: ["k"], values: value, features: [P.feature(type: 1, tags: [0, 0, 0], geometry: [9, 0, 0])])),
      .oddTagCount(layer: "a", feature: 0))
  }

  func testGeometryCommands() {
    func error(_ geometry: [UInt64], type: UInt64 = 2) -> VectorTileError? {
      featureError(layer: P.layer(name: "g", features: [P.feature(type: type, geometry: geometry)]))
    }
    XCTAssertEqual(error([P.command(1, 5), 2, 2]), .commandCountPastEnd(layer: "g", feature: 0, command: 41, count: 5))
    XCTAssertEqual(error([P.command(1, 1), 2]), .commandCountPastEnd(layer: "g", feature: 0, command: 9, count: 1))
    XCTAssertEqual(error([P.command(1, 1 << 28), 2, 2]), .commandCountPastEnd(layer: "g", feature: 0, command: 1 | 1 << 31, count: 1 << 28))
    XCTAssertEqual(error([P.command(3, 1), 0, 0]), .unknownCommand(layer: "g", feature: 0, command: 3))
    XCTAssertEqual(error([P.command(2, 1), 0, 0]), .misplacedCommand(layer: "g", feature: 0, command: 10))
    XCTAssertEqual(error([P.command(7, 1)], type: 3), .misplacedCommand(layer: "g", feature: 0, command: 15))
    XCTAssertEqual(error([P.command(1, 1), 0, 0, P.command(7, 2)], type: 3), .misplacedCommand(layer: "g", feature: 0, command: 23))
    // A parameter past 32 bits.
    XCTAssertEqual(error([P.command(1, 1), 1 << 40, 0]), .valueTooLarge(offset: 12))
    // Coordinates past Int32 wrap instead of trapping; an empty geometry is empty.
    XCTAssertNil(error([P.command(1, 1), P.zigzag(Int32.max), 0, P.command(2, 1), P.zigzag(Int32.max), 0]))
    XCTAssertNil(error([]))
  }

  func testFeatureIndexOutOfRange() throws {
    let layer = try VectorTile(bytes: P.tile([P.layer(name: "a", features: [])])).layer(at: 0)
    XCTAssertThrowsError(try layer.feature(at: 0)) {
      XCTAssertEqual($0 as? VectorTileError, .featureIndexOutOfRange(layer: "a", index: 0, count: 0))
    }
  }

  func testTooManyLayers() {
    let layers = Array(repeating: P.bytes(1, [0x61]), count: VectorTileLimits.maxLayers + 1)
    let error = tileError(P.tile(layers))
    XCTAssertEqual(error, .tooManyLayers(limit: 1024))
    XCTAssertEqual(error?.message, "vector tile: more than 1024 layers (the limit per tile)")
  }

  /// A layer of `count` empty features (each two bytes: a key and a 0 length).
  func manyFeatures(_ count: Int) -> [UInt8] {
    var layer = P.bytes(1, [0x61])
    layer.reserveCapacity(layer.count + 2 * count)
    for _ in 0..<count { layer += [0x12, 0x00] }
    return P.tile([layer])
  }

  func testAMillionFeaturesAreReadAndOneMoreThanTheCapRefused() throws {
    let layer = try VectorTile(bytes: manyFeatures(1_000_000)).layer(at: 0)
    XCTAssertEqual(layer.featureCount, 1_000_000)
    let last = try layer.feature(at: 999_999)
    XCTAssertEqual(last.kind, .unknown)
    XCTAssertEqual(try last.geometry().points, [])
    XCTAssertThrowsError(try VectorTile(bytes: manyFeatures(VectorTileLimits.maxFeaturesPerLayer + 1)).layer(at: 0)) {
      XCTAssertEqual($0 as? VectorTileError, .tooManyFeatures(layer: "a", limit: 1_048_576))
      XCTAssertEqual(
        ($0 as? VectorTileError)?.message, "vector tile: layer 'a' has more than 1048576 features (the limit per layer)")
    }
  }

  func testTooManyKeys() {
    var layer = P.bytes(1, [0x61])
    for _ in 0...VectorTileLimits.maxKeysOrValuesPerLayer { layer += [0x1a, 0x00] }
    XCTAssertEqual(featureError(layer: layer), .tooManyKeysOrValues(layer: "a", limit: 1 << 20))
  }

  func testEveryMessageNamesWhere() {
    let errors: [VectorTileError] = [
      .truncatedVarint(offset: 3), .valueTooLarge(offset: 3), .wrongWireType(field: 1, wire: 7, offset: 3),
      .lengthPastEnd(offset: 3, length: 9), .layerWithoutName(offset: 3), .unsupportedVersion(layer: "l", version: 9),
      .invalidExtent(layer: "l"), .tooManyLayers(limit: 1), .tooManyFeatures(layer: "l", limit: 1),
      .tooManyKeysOrValues(layer: "l", limit: 1), .featureIndexOutOfRange(layer: "l", index: 1, count: 1),
      .oddTagCount(layer: "l", feature: 1), .keyIndexOutOfRange(layer: "l", feature: 1, index: 1, count: 1),
      .valueIndexOutOfRange(layer: "l", feature: 1, index: 1, count: 1),
      .commandCountPastEnd(layer: "l", feature: 1, command: 1, count: 1), .unknownCommand(layer: "l", feature: 1, command: 1),
      .misplacedCommand(layer: "l", feature: 1, command: 1),
    ]
    for error in errors {
      XCTAssertTrue(error.message.hasPrefix("vector tile: "), error.message)
      XCTAssertEqual("\(error)", error.message)
    }
  }
}
