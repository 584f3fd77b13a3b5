import XCTest
import _MapSnapJSON
@testable import _MapSnapStyle

/// A geojson source's options, ids and filter.
final class GeoJSONSourceTests: XCTestCase {
  private func options(_ json: String) -> (GeoJSONSourceOptions, [GeoJSONOptionProblem]) {
    guard case .object(let o) = try! JSONParser.parse(Array(json.utf8)) else { fatalError() }
    var problems: [GeoJSONOptionProblem] = []
    let opts = GeoJSONSourceOptions(o, path: JSONPath().key("sources").key("s"), problems: &problems)
    return (opts, problems)
  }

  func testDefaultsAreTheSpecification() {
    let (o, problems) = options(#"{"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}"#)
    XCTAssertTrue(problems.isEmpty)
    XCTAssertEqual(o.maxzoom, 18)
    XCTAssertEqual(o.buffer, 128)
    XCTAssertEqual(o.tolerance, 0.375)
    XCTAssertEqual(o.clusterRadius, 50)
    XCTAssertEqual(o.clusterMaxZoom, 17)
    XCTAssertEqual(o.clusterMinPoints, 2)
    XCTAssertFalse(o.cluster)
    XCTAssertFalse(o.lineMetrics)
    XCTAssertNil(o.promoteId)
  }

  func testClusterMaxZoomDefaultsBelowMaxzoom() {
    XCTAssertEqual(options(#"{"maxzoom": 12}"#).0.clusterMaxZoom, 11)
    XCTAssertEqual(options(#"{"maxzoom": 12, "clusterMaxZoom": 5}"#).0.clusterMaxZoom, 5)
  }

  func testWrongMembersAreReportedAtTheirPathsAndDefaulted() {
    let (o, problems) = options(
      #"{"maxzoom": "deep", "buffer": 600, "tolerance": -1, "cluster": 1, "promoteId": 3, "filter": ["get"], "clusterProperties": {"sum": ["+"]}}"#)
    XCTAssertEqual(o.maxzoom, 18)
    XCTAssertEqual(o.buffer, 128)
    XCTAssertEqual(o.tolerance, 0.375)
    XCTAssertFalse(o.cluster)
    XCTAssertNil(o.filter)
    XCTAssertTrue(o.clusterProperties.isEmpty)
    XCTAssertEqual(problems.map(\.path), [
      "sources.s.maxzoom", "sources.s.buffer", "sources.s.tolerance", "sources.s.cluster", "sources.s.promoteId", "sources.s.filter",
      "sources.s.clusterProperties.sum",
    ])
    XCTAssertEqual(problems[1].description, "sources.s.buffer: expected a number from 0 to 512, found 600; the default 128 is used")
    XCTAssertEqual(problems[0].description, "sources.s.maxzoom: expected a number from 0 to 24, found \"deep\"; the default 18 is used")
  }

  func testPromoteIdByNameOrByTheSourceLayer() {
    XCTAssertEqual(options(#"{"promoteId": "code"}"#).0.promoteId, "code")
    XCTAssertEqual(options(#"{"promoteId": {"_geojsonTileLayer": "code"}}"#).0.promoteId, "code")
    XCTAssertNil(options(#"{"promoteId": {"other": "code"}}"#).0.promoteId)
  }

  func testFeatureIDs() {
    let promoted = options(#"{"promoteId": "code", "generateId": true}"#).0
    XCTAssertEqual(promoted.featureID(properties: ["code": .string("FI")], id: 7, index: 0), .string("FI"))
    XCTAssertEqual(promoted.featureID(properties: ["code": .number(12)], id: 7, index: 0), .number(12))
    XCTAssertEqual(promoted.featureID(properties: ["code": .bool(true)], id: 7, index: 0), .number(1))
    XCTAssertNil(promoted.featureID(properties: [:], id: 7, index: 0))
    let generated = options(#"{"generateId": true}"#).0
    XCTAssertEqual(generated.featureID(properties: [:], id: 7, index: 4), .number(4))
    let own = options("{}").0
    XCTAssertEqual(own.featureID(properties: [:], id: .number(3.7), index: 0), .number(3))
    XCTAssertEqual(own.featureID(properties: [:], id: "12abc", index: 0), .number(12))
    XCTAssertEqual(own.featureID(properties: [:], id: "-5", index: 0), .number(-5))
    XCTAssertNil(own.featureID(properties: [:], id: "abc", index: 0))
    XCTAssertNil(own.featureID(properties: [:], id: nil, index: 0))
  }

  func testFilterKeepsWhatItSelects() {
    let o = options(#"{"filter": ["all", ["==", ["get", "kind"], "a"], ["==", ["geometry-type"], "Point"]]}"#).0
    XCTAssertTrue(o.keeps(EvaluationFeature(kind: .point, properties: ["kind": .string("a")])))
    XCTAssertFalse(o.keeps(EvaluationFeature(kind: .point, properties: ["kind": .string("b")])))
    XCTAssertFalse(o.keeps(EvaluationFeature(kind: .lineString, properties: ["kind": .string("a")])))
    XCTAssertTrue(options("{}").0.keeps(EvaluationFeature(kind: .point)))
  }

  func testFeaturesAreCutPerTileWithTheFilterAndIDs() {
    var index = GeoJSONIndex(options: options(#"{"generateId": true}"#).0)
    XCTAssertTrue(index.append(EvaluationFeature(id: .number(0), kind: .point), .points([-90, 45, 90, -45])))
    XCTAssertEqual(index.tileZoom(for: 1.7), 1)
    XCTAssertEqual(index.tileZoom(for: 30), 18)
    let tiles = index.tiles(z: 1, keys: [GeoJSONTileKey(x: 0, y: 0), GeoJSONTileKey(x: 1, y: 1)])
    // (−90, 45) lies in tile 1/0/0 at x = 0.25 · 2 · 8192, (90, −45) in 1/1/1.
    XCTAssertEqual(tiles.tiles[0].map { $0.geometry.points.map(\.x) }, [[4096]])
    XCTAssertEqual(tiles.tiles[1].map { $0.geometry.points.map(\.x) }, [[4096]])
  }
}
