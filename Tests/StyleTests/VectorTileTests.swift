import XCTest

@testable import _MapSnapStyle

/// Real tiles decoded: layer names and counts, known features (checked
/// against the PyPI `mapbox-vector-tile` package's decoding), extents,
/// gzip'd tiles, ring classification.
final class VectorTileTests: XCTestCase {
  func testIndexesTheLayersOfARealTile() throws {
    let tile = try VectorTile(bytes: try VectorTileFixtures.fixture("14-4357-6245.mvt"))
    XCTAssertEqual(
      tile.layerNames,
      ["landuse", "waterway", "water", "building", "landuse_overlay", "road", "place_label", "poi_label", "road_label", "waterway_label"])
    let counts = try tile.layerNames.map { try XCTUnwrap(tile.layer(named: $0)).featureCount }
    XCTAssertEqual(counts, [45, 10, 17, 1, 2, 97, 22, 9, 33, 4])
    XCTAssertNil(try tile.layer(named: "nope"))
    let road = try XCTUnwrap(tile.layer(named: "road"))
    XCTAssertEqual(road.extent, 4096)
    XCTAssertEqual(road.version, 2)
  }

  func testAPointFeatureWithItsIdAndProperties() throws {
    let tile = try VectorTile(bytes: try VectorTileFixtures.fixture("14-4357-6245.mvt"))
    let feature = try XCTUnwrap(tile.layer(named: "place_label")).feature(at: 0)
    XCTAssertEqual(feature.id, .number(1_540_753_080))
    XCTAssertEqual(feature.kind, .point)
    let properties = try feature.properties()
    XCTAssertEqual(properties["name"], .string("Loveland"))
    XCTAssertEqual(properties["name_ru"], .string("Лавленд"))
    XCTAssertEqual(properties["localrank"], .number(1))
    XCTAssertEqual(properties.count, 10)
    XCTAssertEqual(try feature.property(named: "type"), .string("town"))
    XCTAssertNil(try feature.property(named: "nope"))
    let geometry = try feature.geometry()
    XCTAssertEqual(geometry.parts, [[TilePoint(x: 242, y: 3453)]])
    XCTAssertFalse(geometry.isMulti)
    let evaluation = try feature.evaluationFeature(resolvingMulti: true)
    XCTAssertEqual(evaluation.id, .number(1_540_753_080))
    XCTAssertEqual(evaluation.kind, .point)
    XCTAssertFalse(evaluation.isMulti)
    XCTAssertEqual(evaluation.properties, properties)
  }

  func testMultiPointsAndMultiLines() throws {
    let road = try XCTUnwrap(VectorTile(bytes: try VectorTileFixtures.fixture("14-4357-6245.mvt")).layer(named: "road"))
    let points = try road.feature(at: 0).geometry()
    XCTAssertEqual(points.kind, .point)
    XCTAssertEqual(points.partCount, 19)
    XCTAssertEqual(points.part(0), [TilePoint(x: 1038, y: 1944)])
    XCTAssertEqual(points.part(18), [TilePoint(x: 2907, y: 1702)])
    XCTAssertEqual(points.points[14], TilePoint(x: 3796, y: -36))  // in the buffer, above the tile
    XCTAssertTrue(points.isMulti)
    XCTAssertEqual(try road.feature(at: 0).properties()["class"], .string("turning_circle"))

    let lines = try road.feature(at: 1).geometry()
    XCTAssertEqual(lines.kind, .lineString)
    XCTAssertEqual(lines.parts.map(\.count), [9, 2])
    XCTAssertEqual(lines.part(0).first, TilePoint(x: 1444, y: 3142))
    XCTAssertEqual(lines.part(0).last, TilePoint(x: 1054, y: 4160))
    XCTAssertEqual(lines.parts[1], [TilePoint(x: 1556, y: 2863), TilePoint(x: 1478, y: 3057)])
    XCTAssertTrue(try road.feature(at: 1).evaluationFeature(resolvingMulti: true).isMulti)
  }

  func testPolygonsAreGroupedByTheirRingsWinding() throws {
    let building = try XCTUnwrap(VectorTile(bytes: try VectorTileFixtures.fixture("14-4357-6245.mvt")).layer(named: "building"))
    let geometry = try building.feature(at: 0).geometry()
    XCTAssertEqual(geometry.kind, .polygon)
    XCTAssertTrue(geometry.isMulti)
    XCTAssertEqual(
      Array(geometry.part(0)),
      [
        TilePoint(x: 3371, y: -21), TilePoint(x: 3369, y: -2), TilePoint(x: 3355, y: -2), TilePoint(x: 3355, y: 16),
        TilePoint(x: 3331, y: 14), TilePoint(x: 3331, y: -5), TilePoint(x: 3320, y: -5), TilePoint(x: 3320, y: -26),
        TilePoint(x: 3371, y: -21),
      ])
    // 293 polygons of 294 rings: one has a hole.
    XCTAssertEqual(geometry.partCount, 294)
    XCTAssertEqual(geometry.polygonEnds.count, 293)
    XCTAssertEqual(geometry.polygonEnds[196...197], [197, 199])

    let counties = try XCTUnwrap(VectorTile(bytes: try VectorTileFixtures.fixture("counties-7-37-48.mvt")).layer(named: "counties"))
    XCTAssertEqual(counties.extent, 1024)
    XCTAssertEqual(counties.featureCount, 51)
    let county = try counties.feature(at: 0)
    XCTAssertEqual(
      try county.properties(),
      ["id": .string("42079"), "name": .string("Luzerne County"), "pop_density": .number(1274.0888338534792)])
    XCTAssertEqual(
      try county.geometry().parts,
      [[
        TilePoint(x: 74, y: -14), TilePoint(x: 49, y: -2), TilePoint(x: 42, y: -2), TilePoint(x: 31, y: 3), TilePoint(x: 32, y: 6),
        TilePoint(x: -20, y: 31), TilePoint(x: -20, y: -20), TilePoint(x: 72, y: -20), TilePoint(x: 74, y: -14),
      ]])
  }

  func testHolesJoinThePolygonBeforeThem() throws {
    // An exterior square (clockwise on screen: positive area), a hole
    // (counter-clockwise), a second exterior, and a degenerate ring of
    // zero area, which is dropped.
    let geometry = TestProtobuf.geometry(
      parts: [
        [(0, 0), (10, 0), (10, 10), (0, 10)], [(2, 2), (2, 8), (8, 8), (8, 2)], [(20, 20), (30, 20), (30, 30)],
        [(40, 40), (50, 50), (60, 60)],
      ], close: true)
    let bytes = TestProtobuf.tile([TestProtobuf.layer(name: "p", features: [TestProtobuf.feature(type: 3, geometry: geometry)])])
    let g = try XCTUnwrap(VectorTile(bytes: bytes).layer(named: "p")).feature(at: 0).geometry()
    XCTAssertEqual(g.partCount, 3)
    XCTAssertEqual(g.polygonEnds, [2, 3])
    XCTAssertEqual(g.parts[0], [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)].map { TilePoint(x: $0.0, y: $0.1) })
    XCTAssertEqual(g.parts[1].first, TilePoint(x: 2, y: 2))
    XCTAssertEqual(g.parts[2], [(20, 20), (30, 20), (30, 30), (20, 20)].map { TilePoint(x: $0.0, y: $0.1) })
    XCTAssertTrue(g.isMulti)
  }

  func testExtentsOtherThan4096() throws {
    for extent: UInt64 in [512, 8192] {
      let feature = TestProtobuf.feature(
        id: 7, type: 1, tags: [0, 0], geometry: [TestProtobuf.command(1, 1), TestProtobuf.zigzag(Int32(extent / 2)), TestProtobuf.zigzag(5)])
      let bytes = TestProtobuf.tile([
        TestProtobuf.layer(name: "e", extent: extent, keys: ["k"], values: [TestProtobuf.stringValue("v")], features: [feature])
      ])
      let layer = try XCTUnwrap(VectorTile(bytes: bytes).layer(named: "e"))
      XCTAssertEqual(layer.extent, UInt32(extent))
      XCTAssertEqual(try layer.feature(at: 0).geometry().points, [TilePoint(x: Int32(extent / 2), y: 5)])
      XCTAssertEqual(try layer.feature(at: 0).id, .number(7))
    }
    // A layer that gives no extent has the specification's 4096, no version: 1.
    let bare = TestProtobuf.bytes(1, Array("b".utf8))
    let layer = try XCTUnwrap(VectorTile(bytes: TestProtobuf.tile([bare])).layer(named: "b"))
    XCTAssertEqual(layer.extent, 4096)
    XCTAssertEqual(layer.version, 1)
    XCTAssertEqual(layer.featureCount, 0)
  }

  func testEveryValueKindIsAStyleValue() throws {
    let values: [[UInt8]] = [
      TestProtobuf.stringValue("s"),
      TestProtobuf.key(2, 5) + withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian, Array.init),
      TestProtobuf.key(3, 1) + withUnsafeBytes(of: Double(-2.25).bitPattern.littleEndian, Array.init),
      TestProtobuf.uint(4, UInt64(bitPattern: -3)),
      TestProtobuf.uint(5, 4),
      TestProtobuf.uint(6, TestProtobuf.zigzag(-5)),
      TestProtobuf.uint(7, 1),
      [],
    ]
    let keys = ["s", "f", "d", "i", "u", "z", "b", "n"]
    let feature = TestProtobuf.feature(type: 1, tags: (0..<8).flatMap { [UInt64($0), UInt64($0)] }, geometry: [9, 0, 0])
    let bytes = TestProtobuf.tile([TestProtobuf.layer(name: "v", keys: keys, values: values, features: [feature])])
    let f = try XCTUnwrap(VectorTile(bytes: bytes).layer(named: "v")).feature(at: 0)
    XCTAssertNil(f.id)
    XCTAssertEqual(
      try f.properties(),
      [
        "s": .string("s"), "f": .number(1.5), "d": .number(-2.25), "i": .number(-3), "u": .number(4), "z": .number(-5),
        "b": .bool(true), "n": .null,
      ])
  }

  func testGzippedTilesInflateFirst() throws {
    let raw = try VectorTileFixtures.fixture("counties-7-37-48.mvt")
    let gzipped = try VectorTileFixtures.gzip(raw)
    XCTAssertTrue(Inflate.isGzip(gzipped))
    XCTAssertEqual(try Inflate.ifCompressed(gzipped, limit: Inflate.tileLimit), raw)
    XCTAssertEqual(try Inflate.ifCompressed(raw, limit: Inflate.tileLimit), raw)
    let tile = try VectorTile(bytes: try Inflate.ifCompressed(gzipped, limit: Inflate.tileLimit))
    XCTAssertEqual(tile.layerNames, ["counties"])
  }

  func testTheSuitesLargerTiles() throws {
    let big = try VectorTile(bytes: try VectorTileFixtures.suiteTile("14-8802-5374.mvt"))
    XCTAssertEqual(big.layerNames.count, 16)
    XCTAssertEqual(try big.layer(named: "housenum_label")?.featureCount, 3322)
    XCTAssertEqual(try big.layer(named: "building")?.featureCount, 1259)
    let old = try VectorTile(bytes: try VectorTileFixtures.suiteTile("extent-1024.mvt"))
    let trails = try XCTUnwrap(old.layer(named: "trailsgeojson"))
    XCTAssertEqual(trails.extent, 1024)
    XCTAssertEqual(trails.version, 1)
    XCTAssertEqual(trails.featureCount, 577)
    // Every feature of every layer of every tile decodes.
    for name in ["0-0-0.mvt", "14-8802-5374.mvt", "2-2-1.mvt", "extent-1024.mvt"] {
      let tile = try VectorTile(bytes: try VectorTileFixtures.suiteTile(name))
      var scratch = TileGeometry()
      for i in tile.layerNames.indices {
        let layer = try tile.layer(at: i)
        for f in 0..<layer.featureCount {
          let feature = try layer.feature(at: f)
          _ = try feature.properties()
          try feature.decodeGeometry(into: &scratch)
        }
      }
    }
  }
}

extension VectorTileTests {
  func testALayerIsParsedOncePerTile() throws {
    let tile = try VectorTile(bytes: try VectorTileFixtures.fixture("14-4357-6245.mvt"))
    let copy = tile
    let a = try XCTUnwrap(tile.layer(named: "road"))
    let b = try XCTUnwrap(copy.layer(named: "road"))
    XCTAssertTrue(a === b)
    XCTAssertTrue(try tile.layer(at: 0) === tile.layer(named: "landuse"))
  }
}

extension VectorTileTests {
  func testAPropertyByItsKeyIndex() throws {
    let layer = try XCTUnwrap(VectorTile(bytes: try VectorTileFixtures.fixture("14-4357-6245.mvt")).layer(named: "place_label"))
    let name = try XCTUnwrap(layer.keyIndices["name"])
    XCTAssertEqual(layer.keys[name], "name")
    XCTAssertEqual(try layer.feature(at: 0).property(keyIndex: name), .string("Loveland"))
    for i in 0..<layer.featureCount {
      let feature = try layer.feature(at: i)
      XCTAssertEqual(try feature.property(keyIndex: name), try feature.properties()["name"])
    }
    // A keys table that repeats a key: the name decides.
    let values = [TestProtobuf.stringValue("a"), TestProtobuf.stringValue("b")]
    let feature = TestProtobuf.feature(type: 1, tags: [0, 0, 1, 1], geometry: [9, 0, 0])
    let bytes = TestProtobuf.tile([TestProtobuf.layer(name: "d", keys: ["k", "k"], values: values, features: [feature])])
    let d = try XCTUnwrap(VectorTile(bytes: bytes).layer(named: "d"))
    XCTAssertEqual(try d.feature(at: 0).property(keyIndex: 0), .string("b"))
    XCTAssertEqual(try d.feature(at: 0).property(named: "k"), .string("b"))
    XCTAssertEqual(try d.feature(at: 0).properties(), ["k": .string("b")])
  }
}
