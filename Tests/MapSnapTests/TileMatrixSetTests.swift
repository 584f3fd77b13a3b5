import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Tile matrix sets (scene format 3.4): the OGC registry by name, OGC 2.0
/// JSON files with their errors, GeoPackage tile pyramids with theirs, and
/// tiles in another reference than the map's.
@Suite struct TileMatrixSetTests {
  static let data = Repository.root + "/Examples/data"
  static let fixtures = Repository.root + "/Tests/Fixtures/tiles"

  private func scene(_ layers: [String], map: String, base: String = TileMatrixSetTests.data) throws -> Scene {
    let json = #"{"version": 1, "map": {\#(map)}, "layers": [\#(layers.joined(separator: ","))]}"#
    return try SceneLoader.decode(Array(json.utf8), file: "sets.json", baseDirectory: base)
  }

  @Test func theRegistrySetsHaveTheirOGCDefinitions() throws {
    let utm = try #require(TileMatrixSet.registered("UTM35WGS84Quad"))
    #expect(utm.crs == "EPSG:32635" && utm.levels == 1...24)
    let one = try #require(utm.matrix(1))
    #expect(one.matrixWidth == 1 && one.matrixHeight == 2)
    // OGC: level 1 is 1:279072704.500914 at 0.28 mm pixels.
    #expect(abs(one.cellSize - 279_072_704.500_914 * 0.00028) < 1e-6)
    let laea = try #require(TileMatrixSet.registered("EuropeanETRS89_LAEAQuad"))
    #expect(laea.matrices[0].cellSize == 17578.125 && laea.matrices[0].origin == Point(2_000_000, 5_500_000))
    #expect(TileMatrixSet.registered("webmercatorquad") == .webMercatorQuad)
    #expect(TileMatrixSet.registered("UTM61WGS84Quad") == nil && TileMatrixSet.registered("Nonsense") == nil)
  }

  @Test func theETRSTM35FINFileIsReadAsWritten() throws {
    let set = try TileMatrixSetDecoder.read(path: Self.data + "/tiles/ETRS-TM35FIN.json", shown: "ETRS-TM35FIN.json", confinement: nil)
    #expect(set.id == "ETRS-TM35FIN" && set.crs == "EPSG:3067" && set.levels == 0...15)
    let m = try #require(set.matrix(14))
    #expect(m.cellSize == 0.5 && m.origin == Point(-548_576, 8_388_608) && m.matrixWidth == 16384)
    #expect(set.nests(10, in: 14) && !set.nests(14, in: 10))
  }

  /// Each broken file names its path and what was expected there.
  @Test(arguments: [
    ("[]", "", "an OGC TileMatrixSet object"),
    (#"{"crs": "EPSG:3067"}"#, "tileMatrices", "an array of tile matrices"),
    (#"{"crs": "EPSG:3067", "tileMatrix": [], "supportedCRS": "x"}"#, "tileMatrices", "1.0 TileMatrixSet"),
    (#"{"tileMatrices": [{}]}"#, "crs", "reference URI"),
    (#"{"crs": "EPSG:999999", "tileMatrices": [{}]}"#, "crs", "PROJ knows"),
    (#"{"crs": "EPSG:3067", "tileMatrices": [{"id": "0"}]}"#, "tileMatrices[0].cellSize", "map units per pixel"),
    (#"{"crs": "EPSG:3067", "tileMatrices": [{"id": "0", "cellSize": -1}]}"#, "tileMatrices[0].cellSize", "a number > 0"),
    (#"{"crs": "EPSG:3067", "tileMatrices": [{"id": "0", "cellSize": 1, "pointOfOrigin": [0]}]}"#, "tileMatrices[0].pointOfOrigin", "two numbers"),
    (#"{"crs": "EPSG:3067", "tileMatrices": [{"id": "0", "cellSize": 1, "pointOfOrigin": [0, 0], "tileWidth": 256, "tileHeight": 128, "matrixWidth": 1, "matrixHeight": 1}]}"#, "tileMatrices[0].tileHeight", "square tiles"),
    (#"{"crs": "EPSG:3067", "tileMatrices": [{"id": "0", "cellSize": 1, "pointOfOrigin": [0, 0], "tileWidth": 256, "tileHeight": 256, "matrixWidth": 0, "matrixHeight": 1}]}"#, "tileMatrices[0].matrixWidth", "a whole number"),
    (#"{"crs": "EPSG:3067", "tileMatrices": [{"id": "0", "cornerOfOrigin": "bottomLeft"}]}"#, "tileMatrices[0].cornerOfOrigin", "topLeft"),
    (#"{"crs": "EPSG:3067", "tileMatrices": [{"id": "0", "variableMatrixWidths": [{}]}]}"#, "tileMatrices[0].variableMatrixWidths", "not supported"),
  ])
  func brokenFilesNameWhereAndWhat(_ json: String, _ at: String, _ expected: String) {
    #expect {
      _ = try TileMatrixSetDecoder(shown: "set.json").decode(Array(json.utf8))
    } throws: { error in
      guard case .badTileMatrixSet(let path, let where_, let e, _, let hint) = error as? TileError else { return false }
      return path == "set.json" && where_ == at && (e.contains(expected) || hint?.contains(expected) == true)
    }
  }

  @Test func aLevelGivenTwiceIsRefused() {
    let level = #"{"id": "3", "cellSize": 1, "pointOfOrigin": [0, 0], "tileWidth": 256, "tileHeight": 256, "matrixWidth": 1, "matrixHeight": 1}"#
    let json = #"{"crs": "EPSG:3067", "tileMatrices": [\#(level), \#(level)]}"#
    #expect(throws: TileError.self) { try TileMatrixSetDecoder(shown: "set.json").decode(Array(json.utf8)) }
  }

  /// Axes: EPSG:3035 gives northing first unless `orderedAxes` says otherwise.
  @Test func pointOfOriginFollowsTheAxisOrder() throws {
    func origin(_ axes: String) throws -> Point {
      let json = #"{"crs": "EPSG:3035", \#(axes) "tileMatrices": [{"id": "0", "cellSize": 17578.125, "pointOfOrigin": [5500000, 2000000], "tileWidth": 256, "tileHeight": 256, "matrixWidth": 1, "matrixHeight": 1}]}"#
      return try TileMatrixSetDecoder(shown: "laea.json").decode(Array(json.utf8)).matrices[0].origin
    }
    #expect(try origin("") == Point(2_000_000, 5_500_000))
    #expect(try origin(#""orderedAxes": ["Y", "X"],"#) == Point(2_000_000, 5_500_000))
    #expect(try origin(#""orderedAxes": ["E", "N"],"#) == Point(5_500_000, 2_000_000))
    // EPSG:2393 (KKJ) calls its northing X: "X" first is the northing there.
    let kkj = #"{"crs": "EPSG:2393", "orderedAxes": ["X", "Y"], "tileMatrices": [{"id": "0", "cellSize": 8192, "pointOfOrigin": [7800000, 3000000], "tileWidth": 256, "tileHeight": 256, "matrixWidth": 1, "matrixHeight": 1}]}"#
    #expect(try TileMatrixSetDecoder(shown: "kkj.json").decode(Array(kkj.utf8)).matrices[0].origin == Point(3_000_000, 7_800_000))
  }

  /// Finer levels must have higher numbers (the level choice and zoom rely on it).
  @Test func levelsThatGrowCoarserAreRefused() {
    func level(_ id: Int, _ cell: Double) -> String {
      #"{"id": "\#(id)", "cellSize": \#(cell), "pointOfOrigin": [0, 0], "tileWidth": 256, "tileHeight": 256, "matrixWidth": 1, "matrixHeight": 1}"#
    }
    let json = #"{"crs": "EPSG:3067", "tileMatrices": [\#(level(0, 1)), \#(level(1, 1000))]}"#
    #expect {
      _ = try TileMatrixSetDecoder(shown: "set.json").decode(Array(json.utf8))
    } throws: { error in
      guard case .badTileMatrixSet(_, let at, _, _, _) = error as? TileError else { return false }
      return at == "tileMatrices[1].cellSize"
    }
  }

  @Test func aGeoPackagePyramidGivesItsSetAndJPEGTiles() throws {
    let map = #""viewCrs": "map", "center": [385942, 6672300], "scale": 20000, "size": [256, 256]"#
    let s = try Snapshot.render(try scene([#"{"id": "k", "type": "tiles", "source": {"geopackage": "helsinki-3067-jpeg.gpkg"}}"#], map: map, base: Self.fixtures))
    #expect(s.state.viewport.projection.identifier == "EPSG:3067")
    let t = try #require(s.layers[0].tiles)
    #expect(t.tileMatrixSet.id == "helsinki_jpeg" && t.zoom == 11 && t.drawn > 0 && t.undecodable == 0)
    // The zoom levels of a map in its basemap's reference are the basemap's.
    #expect(abs(s.state.viewport.zoom! - log2(8192 * 96 * 39.37 / 20000)) < 1e-9)
  }

  @Test func geoPackageProblemsAreLayerErrors() throws {
    let map = #""spatialReference": 3067, "center": [24.94, 60.17], "scale": 20000, "size": [64, 64]"#
    for (source, words) in [
      (#"{"geopackage": "helsinki-3067-jpeg.gpkg", "table": "nope"}"#, "tile pyramid named \"nope\""),
      (#"{"geopackage": "missing.gpkg"}"#, "no such file"),
    ] {
      let s = try Snapshot.render(try scene([#"{"id": "k", "type": "tiles", "source": \#(source)}"#], map: map, base: Self.fixtures))
      #expect(s.layers[0].status.contains(.error))
      #expect(s.layers[0].message?.contains(words) == true, "\(s.layers[0].message ?? "")")
    }
    // Not a GeoPackage at all.
    let s = try Snapshot.render(try scene([#"{"id": "k", "type": "tiles", "source": {"geopackage": "../../../Examples/data/helsinki_pois.geojson"}}"#], map: map, base: Self.fixtures))
    #expect(s.layers[0].status.contains(.error))
  }

  @Test func aTiledLayerInAnotherReferenceIsAnError() throws {
    let map = #""spatialReference": 3067, "center": [24.94, 60.17], "scale": 20000, "size": [64, 64]"#
    let s = try Snapshot.render(try scene([#"{"id": "k", "type": "tiles", "source": {"mbtiles": "tiles/helsinki-3857.mbtiles"}}"#], map: map))
    #expect(s.layers[0].status == [.error])
    #expect(s.layers[0].problems == [.spatialReference(tiles: "EPSG:3857", map: "EPSG:3067")])
  }

  @Test func sceneKeysOfTheNewSourcesAreChecked() throws {
    let map = #""center": [24.94, 60.17], "scale": 20000, "size": [64, 64]"#
    for (layer, path) in [
      (#"{"id": "k", "type": "tiles", "source": {"geopackage": "a.gpkg", "scheme": "tms"}}"#, "layers[0].source.scheme"),
      (#"{"id": "k", "type": "tiles", "source": {"xyz": "{z}/{x}/{y}.png", "table": "t"}}"#, "layers[0].source.table"),
      (#"{"id": "k", "type": "tiles", "source": {"geopackage": "a.gpkg", "mbtiles": "b.mbtiles"}}"#, "layers[0].source.geopackage"),
      (#"{"id": "k", "type": "tiles", "source": {"geopackage": "a.gpkg"}, "tileMatrixSet": "NoSuchSet"}"#, "layers[0].tileMatrixSet"),
      (#"{"id": "k", "type": "tiles", "source": {"geopackage": "a.gpkg"}, "tileMatrixSet": "WebMercatorQuad"}"#, "layers[0].tileMatrixSet"),
    ] {
      let error = #expect(throws: SceneError.self) { try scene([layer], map: map) }
      #expect(error?.path == path, "\(layer)")
    }
  }
}
