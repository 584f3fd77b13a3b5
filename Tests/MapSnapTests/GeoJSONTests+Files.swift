import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

/// GeoJSON files: where a path leads, what is reported when a file is missing
/// or not GeoJSON, and that a file is read once per loader.
extension GeoJSONTests {
  @Test func missingFileMakesTheLayerAnError() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    let scene = try geoScene(sources: [#"{"geojson": "data/none.geojson"}"#], baseDirectory: folder.path)
    guard case .features(let source, _) = scene.layers[0].content else {
      Issue.record("not a features layer")
      return
    }
    // Named as the scene wrote it, and where it was looked for.
    let looked = "data/none.geojson (\(folder.path)/data/none.geojson)"
    #expect(throws: SourceError.missing(path: "data/none.geojson", resolvedPath: "\(folder.path)/data/none.geojson")) {
      try SourceLoader().load(source).get()
    }
    let state = try resolveAll(scene)
    #expect(state.layers[0].status.names == ["error"])
    #expect(state.layers[0].drawnFeatures == 0)
    #expect(state.layers[0].features.total == 0)
    #expect(state.layers[0].drawables.isEmpty)
    #expect(state.layers[0].message == "\(looked): no such file")
    #expect(state.warnings.contains { $0.contains(#"layer "l0""#) && $0.contains("data/none.geojson") })
  }

  @Test func fileThatIsNotJSONIsASyntaxError() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("broken.geojson", "{\"type\": \"FeatureCollection\",\n \"features\": [\n}")
    let result = SourceLoader().load(.file(path: "broken.geojson", resolved: folder.path + "/broken.geojson"))
    guard case .failure(.syntax(let path, let line, let column, let message)) = result else {
      Issue.record("expected a syntax error, got \(result)")
      return
    }
    #expect(path == "broken.geojson")
    #expect(line == 3 && column == 1)
    #expect(message.contains("expected a value"))
    let description = try #require(result.failureDescription)
    #expect(description.hasPrefix("broken.geojson:3:1: invalid JSON: "))
  }

  @Test(arguments: [
    ("[1, 2]", "", "a GeoJSON object", "an array of 2 values"),
    (#"{"name": "roads"}"#, "type", #"a GeoJSON "type" string"#, nil),
    (#"{"type": "FeatureCollection", "features": {}}"#, "features", #"a "features" array in a FeatureCollection"#, "an object"),
  ])
  func jsonFileThatIsNotGeoJSON(text: String, jsonPath: String, expected: String, found: String?) throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("x.geojson", text)
    let result = SourceLoader().load(.file(path: "x.geojson", resolved: folder.path + "/x.geojson"))
    #expect(throws: SourceError.notGeoJSON(path: "x.geojson", jsonPath: jsonPath, expected: expected, found: found, hint: nil)) {
      try result.get()
    }
    let scene = try geoScene(sources: [#"{"geojson": "x.geojson"}"#], baseDirectory: folder.path)
    #expect(try resolveAll(scene).layers[0].status == [.error])
  }

  /// A JSON document of another format (TopoJSON) is not GeoJSON: the layer cannot be drawn.
  @Test func topoJSONIsNotGeoJSON() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("topo.json", #"{"type": "Topology", "objects": {}, "arcs": []}"#)
    let result = SourceLoader().load(.file(path: "topo.json", resolved: folder.path + "/topo.json"))
    guard case .failure(.notGeoJSON(let path, _, _, let found, _)) = result else {
      Issue.record("a TopoJSON file was accepted as GeoJSON: \(result)")
      return
    }
    #expect(path == "topo.json")
    #expect(found?.contains("Topology") == true)
  }

  @Test func relativePathsResolveAgainstTheSceneFolder() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write(
      "data/x.geojson",
      collectionOf(#"{"type": "Point", "coordinates": [0, 0]}"#, #"{"type": "LineString", "coordinates": [[0, 0], [0.001, 0]]}"#))
    #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/data/x.geojson"))
    let scene = try geoScene(sources: [#"{"geojson": "data/x.geojson"}"#], baseDirectory: folder.path)
    guard case .features(.file(let shown, let resolved), _) = scene.layers[0].content else {
      Issue.record("not a file source")
      return
    }
    #expect(shown == "data/x.geojson")
    #expect(resolved == folder.path + "/data/x.geojson")
    let state = try resolveAll(scene).layers[0]
    #expect(state.status == [.active])
    #expect(state.features.total == 2)
    #expect(state.drawnFeatures == 2)
  }

  @Test func sceneLoadedFromDiskResolvesAgainstItsOwnFolder() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("maps/data/x.geojson", collectionOf(#"{"type": "Point", "coordinates": [0, 0]}"#))
    try folder.write(
      "maps/scene.json",
      #"{"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [100, 100]}, "layers": [{"id": "x", "type": "features", "source": {"geojson": "data/x.geojson"}, "style": {"fill": "red", "marker": {}}}]}"#
    )
    let scene = try SceneLoader.load(path: folder.path + "/maps/scene.json")
    #expect(scene.baseDirectory == folder.path + "/maps")
    let state = try resolveAll(scene).layers[0]
    #expect(state.status == [.active])
    #expect(state.drawnFeatures == 1)
  }

  @Test func absolutePathsStayAbsolute() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("abs.geojson", collectionOf(#"{"type": "Point", "coordinates": [0, 0]}"#))
    let scene = try geoScene(sources: [#"{"geojson": "\#(folder.path)/abs.geojson"}"#], baseDirectory: "/nonexistent/elsewhere")
    let state = try resolveAll(scene).layers[0]
    #expect(state.status == [.active])
    #expect(state.features.total == 1)
  }

  @Test func aFileSharedByTwoLayersIsReadOnce() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    try folder.write("data/shared.geojson", collectionOf(#"{"type": "Point", "coordinates": [0, 0]}"#, #"{"type": "Point", "coordinates": [0.001, 0]}"#))
    let scene = try geoScene(
      sources: [#"{"geojson": "data/shared.geojson"}"#, #"{"geojson": "data/shared.geojson"}"#], baseDirectory: folder.path)
    guard case .features(let first, _) = scene.layers[0].content else {
      Issue.record("not a features layer")
      return
    }
    let loader = SourceLoader()
    #expect(try loader.load(first).get().features.count == 2)
    // Once read, the file is not read again: both layers still load after it is gone.
    try folder.remove("data/shared.geojson")
    let state = try resolveAll(scene, loader: loader)
    #expect(state.layers.map(\.status) == [[.active], [.active]])
    #expect(state.layers.map(\.features.total) == [2, 2])
    // A fresh loader does read the file, and finds it gone.
    #expect(try resolveAll(scene).layers.map(\.status) == [[.error], [.error]])
  }

  @Test func aMissingFileIsReportedForEveryLayerThatSharesIt() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-geojson")
    defer { folder.cleanUp() }
    let scene = try geoScene(
      sources: [#"{"geojson": "gone.geojson"}"#, #"{"geojson": "gone.geojson"}"#], baseDirectory: folder.path)
    let state = try resolveAll(scene)
    #expect(state.layers.map(\.status) == [[.error], [.error]])
    let message = "gone.geojson (\(folder.path)/gone.geojson): no such file"
    #expect(state.layers.map(\.message) == [message, message])
    #expect(state.warnings.count == 2)
  }
}

extension Result {
  fileprivate var failureDescription: String? {
    if case .failure(let e) = self { return "\(e)" }
    return nil
  }
}
