import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

// GeoJSON sources (scene format 3.1): inline `data` and files through
// `SourceLoader`; geometry types, invalid features, projection, errors.

// MARK: - Helpers

private let geoSceneFile = "scenes/geo.json"

extension GeoJSONTests {
  /// A scene at 1:2000 over (0, 0) with one features layer per source JSON.
  func geoScene(sources: [String], baseDirectory: String = "scenes", center: String = "[0, 0]") throws -> Scene {
    let layers = sources.enumerated().map { i, s in
      #"{"id": "l\#(i)", "type": "features", "source": \#(s), "style": {"stroke": "black", "fill": "gray", "marker": {}}}"#
    }
    let json = #"{"version": 1, "map": {"center": \#(center), "scale": 2000, "size": [800, 600]}, "layers": [\#(layers.joined(separator: ", "))]}"#
    return try SceneLoader.decode(Array(json.utf8), file: geoSceneFile, baseDirectory: baseDirectory)
  }

  /// The features of an inline `data` source holding `geojson`.
  func inlineCollection(_ geojson: String) throws -> FeatureCollection {
    let scene = try geoScene(sources: [#"{"data": \#(geojson)}"#])
    guard case .features(.inline(let collection), _) = scene.layers[0].content else {
      Issue.record("the inline source did not decode to an inline collection")
      return FeatureCollection()
    }
    // Decoded in degrees; the map projects them (here into Web Mercator).
    return collection.projected(to: .webMercator)
  }

  /// A FeatureCollection of features with these geometries (JSON), no properties.
  func collectionOf(_ geometries: String...) -> String {
    let features = geometries.map { #"{"type": "Feature", "properties": {}, "geometry": \#($0)}"# }
    return #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ", "))]}"#
  }

  func project(_ lon: Double, _ lat: Double) -> Point { WebMercator.project(lon: lon, lat: lat) }

  func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-6) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
  }

  /// Shoelace area in Mercator metres, positive when counter-clockwise with y up.
  func shoelace(_ ring: [Point]) -> Double {
    var s = 0.0
    for i in ring.indices {
      let a = ring[i]
      let b = ring[(i + 1) % ring.count]
      s += a.x * b.y - b.x * a.y
    }
    return s / 2
  }

  func resolveAll(_ scene: Scene, loader: SourceLoader = SourceLoader()) throws -> FramePlan {
    try FramePlan.make(scene, sources: loader)
  }
}

private let square = "[[0, 0], [0.001, 0], [0.001, 0.001], [0, 0.001], [0, 0]]"

// MARK: - Tests

@Suite struct GeoJSONTests {
  // MARK: Geometry types

  @Test func point() throws {
    let c = try inlineCollection(collectionOf(#"{"type": "Point", "coordinates": [180, 0]}"#))
    let g = try #require(c.features.first).geometry
    #expect(g.points.count == 1 && g.lines.isEmpty && g.polygons.isEmpty)
    #expect(close(g.points[0], Point(20_037_508.342789244, 0)))
    #expect(g.bounds == Rect(minX: g.points[0].x, minY: g.points[0].y, maxX: g.points[0].x, maxY: g.points[0].y))
  }

  @Test func pointKeepsOnlyLonLatOfLongerPositions() throws {
    let c = try inlineCollection(collectionOf(#"{"type": "Point", "coordinates": [10, 20, 300]}"#))
    #expect(close(try #require(c.features.first).geometry.points[0], project(10, 20)))
  }

  @Test func multiPoint() throws {
    let c = try inlineCollection(collectionOf(#"{"type": "MultiPoint", "coordinates": [[0, 0], [1, 1], [2, 2]]}"#))
    let g = try #require(c.features.first).geometry
    #expect(g.points.count == 3)
    #expect(close(g.points[2], project(2, 2)))
    #expect(close(Point(g.bounds.minX, g.bounds.minY), project(0, 0)))
    #expect(close(Point(g.bounds.maxX, g.bounds.maxY), project(2, 2)))
  }

  @Test func lineString() throws {
    let c = try inlineCollection(collectionOf(#"{"type": "LineString", "coordinates": [[0, 0], [1, 0], [1, 1]]}"#))
    let g = try #require(c.features.first).geometry
    #expect(g.lines.count == 1 && g.points.isEmpty && g.polygons.isEmpty)
    #expect(g.lines[0].count == 3)
    #expect(close(g.lines[0][1], project(1, 0)))
  }

  @Test func multiLineString() throws {
    let c = try inlineCollection(
      collectionOf(#"{"type": "MultiLineString", "coordinates": [[[0, 0], [1, 0]], [[2, 2], [3, 3], [4, 4]]]}"#))
    let g = try #require(c.features.first).geometry
    #expect(g.lines.map(\.count) == [2, 3])
  }

  @Test func polygonWithHole() throws {
    let c = try inlineCollection(
      collectionOf(
        #"{"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[2, 2], [2, 4], [4, 4], [4, 2], [2, 2]]]}"#
      ))
    let g = try #require(c.features.first).geometry
    #expect(g.polygons.count == 1)
    let rings = g.polygons[0]
    #expect(rings.count == 2)
    // The closing position is not repeated.
    #expect(rings.map(\.count) == [4, 4])
    #expect(close(rings[0][0], project(0, 0)))
  }

  @Test func multiPolygon() throws {
    let c = try inlineCollection(
      collectionOf(
        #"{"type": "MultiPolygon", "coordinates": [[\#(square)], [[[5, 5], [6, 5], [6, 6], [5, 5]], [[5.2, 5.1], [5.8, 5.1], [5.8, 5.5], [5.2, 5.1]]]]}"#
      ))
    let g = try #require(c.features.first).geometry
    #expect(g.polygons.count == 2)
    #expect(g.polygons.map(\.count) == [1, 2])
    #expect(g.polygons[1].map(\.count) == [3, 3])
  }

  @Test func nestedGeometryCollection() throws {
    let c = try inlineCollection(
      collectionOf(
        #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [1, 1]}, {"type": "GeometryCollection", "geometries": [{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, {"type": "Polygon", "coordinates": [\#(square)]}, {"type": "MultiPoint", "coordinates": [[2, 2]]}]}]}"#
      ))
    #expect(c.invalidCount == 0)
    let g = try #require(c.features.first).geometry
    #expect(g.points.count == 2)
    #expect(g.lines.count == 1)
    #expect(g.polygons.count == 1)
    #expect(close(Point(g.bounds.maxX, g.bounds.maxY), project(2, 2)))
  }

  @Test func geometryCollectionWithAnInvalidMemberSkipsTheFeature() throws {
    let c = try inlineCollection(
      collectionOf(
        #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [1, 1]}, {"type": "LineString", "coordinates": [[0, 0]]}]}"#,
        #"{"type": "Point", "coordinates": [0, 0]}"#))
    #expect(c.features.count == 1)
    #expect(c.invalidCount == 1)
    #expect(c.invalidSamples.count == 1)
    #expect(c.invalidSamples[0].contains("features[0].geometry.geometries[1].coordinates: expected a line of at least 2 positions, found 1"))
  }

  @Test func bareGeometryAndSingleFeatureDocuments() throws {
    let bare = try inlineCollection(#"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#)
    #expect(bare.features.count == 1)
    #expect(bare.features[0].geometry.lines.count == 1)
    let single = try inlineCollection(#"{"type": "Feature", "id": "f", "properties": {"a": 1}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#)
    #expect(single.features.count == 1)
    #expect(single.features[0].id == .string("f"))
    #expect(single.features[0].properties["a"] == .number(1))
  }

  // MARK: Features: null geometry, properties, ids

  @Test func nullGeometryIsCountedAsUnlocated() throws {
    let json = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"n": 1}, "geometry": null},
        {"type": "Feature", "properties": {"n": 2}},
        {"type": "Feature", "properties": {"n": 3}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}
      """#
    let c = try inlineCollection(json)
    #expect(c.features.count == 1)
    #expect(c.unlocatedCount == 2)
    #expect(c.invalidCount == 0)
    // In the layer's counts, unlocated features are part of the total but not drawn, and no warning.
    let state = try resolveAll(try geoScene(sources: [#"{"data": \#(json)}"#])).layers[0]
    #expect(state.features.total == 3)
    #expect(state.drawnFeatures == 1)
    #expect(state.status == [.active])
    #expect(state.message == nil)
  }

  /// A bare geometry where a Feature belongs is a broken feature, not a feature without a location.
  @Test func bareGeometryInAFeaturesArrayIsInvalid() throws {
    let json = #"{"type": "FeatureCollection", "features": [{"type": "Point", "coordinates": [0, 0]}, {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#
    let c = try inlineCollection(json)
    #expect(c.features.count == 1)
    #expect(c.unlocatedCount == 0)
    #expect(c.invalidCount == 1)
    #expect(c.invalidSamples.first?.hasPrefix("layers[0].source.data.features[0]") == true)
    let state = try resolveAll(try geoScene(sources: [#"{"data": \#(json)}"#])).layers[0]
    #expect(state.status == [.active, .warning])
  }

  @Test func nullPropertiesAreEmpty() throws {
    let c = try inlineCollection(
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#
    )
    #expect(c.features.count == 1)
    #expect(c.features[0].properties.isEmpty)
  }

  @Test func propertiesOfTheWrongTypeSkipTheFeature() throws {
    let c = try inlineCollection(
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": [1], "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#
    )
    #expect(c.features.isEmpty)
    #expect(c.invalidCount == 1)
    #expect(c.invalidSamples.first?.contains("features[0].properties: expected an object or null, found an array") == true)
  }

  @Test func idsAreStringsOrNumbers() throws {
    let c = try inlineCollection(
      #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": "V-7", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "id": 42, "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "id": 4.5, "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "id": null, "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "id": true, "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}
      """#)
    #expect(c.features.map(\.id) == [.string("V-7"), .number(42), .number(4.5), nil, nil])
    #expect(c.invalidCount == 1)
    #expect(c.invalidSamples.first?.contains("features[5].id: expected a string or number, found boolean true") == true)
  }

  // MARK: Invalid geometry

  /// One invalid geometry each, with the sample expected for it (file source, so paths start at `features`).
  @Test(arguments: [
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]}"#,
      "features[0].geometry.coordinates[0]: expected a ring of at least 4 positions (the first repeated last), found 2"
    ),
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#,
      "features[0].geometry.coordinates[0]: expected a closed ring (its last position equal to its first), found a last position that differs from the first"
    ),
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]], [[0.1, 0.1], [0.2, 0.1], [0.2, 0.2], [0.1, 0.2]]]}"#,
      "features[0].geometry.coordinates[1]: expected a closed ring"
    ),
    (
      #"{"type": "LineString", "coordinates": [[0, 0], ["1", 1]]}"#,
      "features[0].geometry.coordinates[1]: expected a position [lon, lat] of finite numbers, found an array"
    ),
    (
      #"{"type": "LineString", "coordinates": [[0, 0]]}"#,
      "features[0].geometry.coordinates: expected a line of at least 2 positions, found 1"
    ),
    (
      #"{"type": "Point", "coordinates": ["NaN", 0]}"#,
      "features[0].geometry.coordinates: expected a position [lon, lat] of finite numbers"
    ),
    (
      #"{"type": "Point", "coordinates": [5]}"#,
      "features[0].geometry.coordinates: expected a position [lon, lat] of finite numbers"
    ),
    (
      #"{"type": "MultiLineString", "coordinates": [[[0, 0], [1, 1]], [[2, 2]]]}"#,
      "features[0].geometry.coordinates[1]: expected a line of at least 2 positions, found 1"
    ),
    (
      #"{"type": "Polygon", "coordinates": []}"#,
      "features[0].geometry.coordinates: expected a polygon of at least one ring"
    ),
    (
      #"{"type": "Poligon", "coordinates": []}"#,
      #"features[0].geometry.type: expected a geometry type: one of "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection", found string "Poligon" (did you mean "Polygon"?)"#
    ),
    (
      #"{"coordinates": [0, 0]}"#,
      #"features[0].geometry.type: expected a geometry "type" string"#
    ),
  ])
  func invalidGeometryIsSkippedAndCounted(geometry: String, sample: String) throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("bad.geojson", collectionOf(geometry, #"{"type": "Point", "coordinates": [0, 0]}"#))
    let result = SourceLoader().load(.file(path: "bad.geojson", resolved: folder.path + "/bad.geojson"))
    let c = try result.get()
    #expect(c.features.count == 1)
    #expect(c.invalidCount == 1)
    #expect(c.invalidSamples.count == 1)
    #expect(c.invalidSamples.first?.hasPrefix(sample) == true, "\(c.invalidSamples)")
  }

  @Test func invalidFeaturesMakeAWarningWithSamples() throws {
    let data = collectionOf(
      #"{"type": "Point", "coordinates": [0, 0]}"#,
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]}"#,
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#,
      #"{"type": "Point", "coordinates": [0, "x"]}"#,
      #"{"type": "LineString", "coordinates": [[0, 0]]}"#,
      #"{"type": "Point", "coordinates": ["NaN", "NaN"]}"#)
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("data/mixed.geojson", data)
    let scene = try geoScene(sources: [#"{"geojson": "data/mixed.geojson"}"#], baseDirectory: folder.path)
    let state = try resolveAll(scene).layers[0]
    #expect(state.status == [.active, .warning])
    #expect(state.features.total == 6)
    #expect(state.features.invalid == 5)
    #expect(state.drawnFeatures == 1)
    let message = try #require(state.message)
    #expect(message.hasPrefix("skipped 5 invalid features ("))
    // The first three reasons are given, with their paths.
    #expect(message.contains("features[1].geometry.coordinates[0]: expected a ring of at least 4 positions"))
    #expect(message.contains("features[2].geometry.coordinates[0]: expected a closed ring"))
    #expect(message.contains("features[3].geometry.coordinates: expected a position"))
    #expect(!message.contains("features[4]"))
    // The same via an inline source: paths lead into the scene.
    let inline = try resolveAll(try geoScene(sources: [#"{"data": \#(data)}"#])).layers[0]
    #expect(inline.status == [.active, .warning])
    #expect(inline.features.invalid == 5)
    #expect(inline.message?.contains("layers[0].source.data.features[1].geometry.coordinates[0]: expected a ring of") == true)
  }

  @Test func oneInvalidFeatureIsSingular() throws {
    let data = collectionOf(#"{"type": "LineString", "coordinates": [[0, 0]]}"#)
    let state = try resolveAll(try geoScene(sources: [#"{"data": \#(data)}"#])).layers[0]
    #expect(state.message?.hasPrefix("skipped 1 invalid feature (") == true)
  }

  @Test func numberOverflowInAFileIsASyntaxErrorForTheWholeFile() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("huge.geojson", "{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"properties\": {}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [1e400, 0]}}]}")
    let result = SourceLoader().load(.file(path: "huge.geojson", resolved: folder.path + "/huge.geojson"))
    guard case .failure(.syntax(let path, let line, let column, let message)) = result else {
      Issue.record("expected a syntax error, got \(result)")
      return
    }
    #expect(path == "huge.geojson")
    #expect(line == 2 && column == 85)
    #expect(message.contains("out of range"))
    let scene = try geoScene(sources: [#"{"geojson": "huge.geojson"}"#], baseDirectory: folder.path)
    let state = try resolveAll(scene).layers[0]
    #expect(state.status == [.error])
    #expect(state.drawnFeatures == 0)
    #expect(state.message?.hasPrefix("huge.geojson:2:85: invalid JSON: ") == true)
  }

  // MARK: Projection

  @Test func ringsAreNormalisedOuterCounterClockwiseHolesClockwise() throws {
    // Outer clockwise (with y north) and hole counter-clockwise: both the wrong way round.
    let cw = "[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]"
    let ccwHole = "[[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8], [0.2, 0.2]]"
    let c = try inlineCollection(collectionOf(#"{"type": "Polygon", "coordinates": [\#(cw), \#(ccwHole)]}"#))
    let rings = try #require(c.features.first).geometry.polygons[0]
    #expect(shoelace(rings[0]) > 0)
    #expect(shoelace(rings[1]) < 0)
    // Same vertices, reversed order.
    #expect(Set(rings[0]) == Set([project(0, 0), project(0, 1), project(1, 1), project(1, 0)]))
    // Already-correct rings keep their order.
    let ccw = "[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]"
    let cwHole = "[[0.2, 0.2], [0.2, 0.8], [0.8, 0.8], [0.8, 0.2], [0.2, 0.2]]"
    let d = try inlineCollection(collectionOf(#"{"type": "MultiPolygon", "coordinates": [[\#(ccw), \#(cwHole)], [\#(cw)]]}"#))
    let polys = try #require(d.features.first).geometry.polygons
    #expect(polys[0][0] == [project(0, 0), project(1, 0), project(1, 1), project(0, 1)])
    #expect(polys[0][1] == [project(0.2, 0.2), project(0.2, 0.8), project(0.8, 0.8), project(0.8, 0.2)])
    #expect(shoelace(polys[1][0]) > 0)
  }

  @Test func latitudeIsClampedToTheMercatorLimit() throws {
    let c = try inlineCollection(
      collectionOf(
        #"{"type": "Point", "coordinates": [0, -90]}"#, #"{"type": "Point", "coordinates": [0, 90]}"#,
        #"{"type": "Point", "coordinates": [0, 85.0511287798]}"#, #"{"type": "Point", "coordinates": [-180, 89.9]}"#))
    let ys = c.features.map { $0.geometry.points[0].y }
    #expect(abs(ys[0] - -20_037_508.34) < 0.01)
    #expect(abs(ys[1] - 20_037_508.34) < 0.01)
    #expect(abs(ys[2] - 20_037_508.34) < 0.01)
    let allFinite = ys.allSatisfy { $0.isFinite }
    #expect(allFinite)
    #expect(close(c.features[3].geometry.points[0], Point(-20_037_508.342789244, 20_037_508.342789244), 0.01))
  }
}
