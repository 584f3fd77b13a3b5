import Dispatch
import Foundation
import Synchronization
import Testing
import _MapSnapRaster
import _MapSnapTestSupport

@testable import MapSnap

// Sources indexed once per projection (`SourceIndex`, `PackedRTree`) and
// shared by frames and threads (`SourceLoader`): a frame looks only at the
// features near it, with results identical to a scan of every feature.

// MARK: - Helpers

/// A scene over the Helsinki data with everything the index must get right:
/// rules with `where` and scale ranges, labels, markers with offsets,
/// floors, ids, an unknown property, an annotation layer with sublayers
/// whose filters overlap (the first that matches takes a feature), and view
/// annotations tied to features. The POIs are labelled and annotated with
/// their ids, texts of nearly one length, so that a bound on their reach
/// short by a little misses some.
private let indexSceneJSON = #"""
  {"version": 1, "map": {"center": [24.9412, 60.1704], "scale": 4000, "size": [256, 256]},
   "layers": [
    {"id": "areas", "type": "features", "source": {"geojson": "data/helsinki_areas.geojson"}, "floorField": "kind",
     "rules": [
      {"where": {"kind": "park"}, "style": {"fill": "#0f0", "label": {"field": "name", "size": 13}}},
      {"where": {"kind": ["water", "landuse"]}, "maxScale": 3000, "style": {"fill": "#00f", "stroke": "#000", "strokeWidth": 3}}]},
    {"id": "roads", "type": "features", "source": {"geojson": "data/helsinki_roads.geojson"}, "idField": "id",
     "rules": [
      {"where": {"highway": ["primary", "secondary", "tertiary"]},
       "style": {"stroke": "#f80", "strokeWidth": 6, "miterLimit": 8, "label": {"field": "name", "size": 12, "halo": {"color": "#fff", "width": 2}}}},
      {"minScale": 10000, "style": {"stroke": "#888", "strokeWidth": 1}}]},
    {"id": "buildings", "type": "features", "source": {"geojson": "data/helsinki_buildings.geojson"}, "floorField": "building",
     "style": {"fill": "#ccc", "stroke": "#999", "label": {"field": "nome", "size": 10}}},
    {"id": "pois", "type": "features", "source": {"geojson": "data/helsinki_pois.geojson"}, "idField": "id", "floorField": "class",
     "style": {"marker": {"shape": "pin", "size": 10, "offset": [0, -5]},
               "label": {"field": "id", "size": 11, "anchors": ["left"], "offset": [6, 3], "halo": {"color": "#fff", "width": 1.5}}}},
    {"id": "anno", "type": "annotation", "source": {"geojson": "data/helsinki_pois.geojson"}, "textField": "id",
     "angleField": "class", "referenceScale": 2000, "floorField": "class",
     "sublayers": [
      {"id": "amenity", "where": {"category": "amenity"}, "style": {"size": 10, "halo": {"color": "#fff", "width": 1}}},
      {"id": "transit", "where": {"category": ["public_transport", "railway"]}, "maxScale": 1000, "style": {"size": 14}},
      {"id": "some", "where": {"class": ["restaurant", "cafe", "clothes", "bus_stop"]}, "style": {"size": 8, "color": "#00000000"}},
      {"id": "shops", "where": {"category": "shop"}, "style": {"size": 6}}]}],
   "viewAnnotations": [
    {"id": "v1", "feature": {"layer": "pois", "id": "n25389429"}, "text": "station"},
    {"id": "v2", "feature": {"layer": "roads", "id": "w4236349"}, "text": "road"},
    {"id": "v3", "feature": {"layer": "roads", "id": "w423634"}, "text": "no such road"}]}
  """#

private func indexScene(_ json: String = indexSceneJSON, baseDirectory: String = Repository.root + "/Examples") throws -> Scene {
  try SceneLoader.decode(Array(json.utf8), file: "index.json", baseDirectory: baseDirectory)
}

/// The bundled fonts, for their widest advance (read only, so shared).
nonisolated(unsafe) private let fonts: FontLibrary = { try! FontLibrary(directories: [FontLibrary.bundledDirectory]) }()

/// `MapResolver`'s prints of the features and annotation layers.
private func indexedPrints(
  _ scene: Scene, _ viewport: Viewport, floor: FloorValue?, sources: SourceLoader, icons: IconCache, threads: Int = 0
) -> [LayerPrint] {
  let state = MapResolver(scene: scene, viewport: viewport, floor: floor, fonts: fonts).resolve(sources: sources, icons: icons, threads: threads).state
  return state.layers.filter { $0.kind == .features || $0.kind == .annotation }.map(LayerPrint.init)
}

/// The source of a features or annotation layer.
private func source(of layer: Layer) -> Source {
  switch layer.content {
  case .features(let s, _): return s
  case .annotation(let a): return a.source
  default: fatalError("layer \(layer.id) has no source")
  }
}

/// A random frame over central Helsinki (and beyond it): any scale from
/// 1:150 to 1:150 000, sizes from 1 px, either pixel ratio.
private func randomViewport(_ rng: inout SplitMix64, projection: MapProjection) -> Viewport {
  let lon = Double.random(in: 24.925...24.965, using: &rng)
  let lat = Double.random(in: 60.158...60.186, using: &rng)
  let scale = 150 * pow(1000, Double.random(in: 0...1, using: &rng))
  let sides = [1, 7, 64, 256, 256, 300, 511]
  return Viewport(
    center: (lon, lat), scale: scale, width: sides.randomElement(using: &rng)!, height: sides.randomElement(using: &rng)!,
    pixelRatio: Bool.random(using: &rng) ? 1 : 2, projection: projection)
}

/// Writes `name` from Examples/data into `folder` as `copies` copies, the
/// k-th shifted by k × 3° east and k × 1° north: far from one another.
private func writeCopies(_ name: String, copies: Int, into folder: TemporaryFolder) throws {
  let doc = try JSONParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: Repository.root + "/Examples/data/" + name))))
  guard case .object(let collection) = doc, case .array(let features)? = collection["features"] else {
    throw CocoaError(.fileReadCorruptFile)
  }
  func shift(_ value: JSONValue, _ dx: Double, _ dy: Double) -> JSONValue {
    guard case .array(let array) = value else { return value }
    if array.count >= 2, case .number(let x) = array[0], case .number(let y) = array[1] { return [.number(x + dx), .number(y + dy)] }
    return .array(array.map { shift($0, dx, dy) })
  }
  var all: [JSONValue] = []
  for k in 0..<copies {
    for f in features {
      guard case .object(var feature) = f, case .object(var geometry)? = feature["geometry"] else { continue }
      geometry["coordinates"] = shift(geometry["coordinates"]!, Double(k) * 3, Double(k))
      feature["geometry"] = .object(geometry)
      all.append(.object(feature))
    }
  }
  try folder.write("data/" + name, JSONWriter(compact: true).write(["type": "FeatureCollection", "features": .array(all)]))
}

/// Runs `body(0..<n)` on `n` threads of their own, released at once (so
/// that they do ask together, however few processors there are).
private func onThreads(_ n: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for i in 0..<n {
    done.enter()
    Thread {
      start.wait()
      body(i)
      done.leave()
    }.start()
  }
  for _ in 0..<n { start.signal() }
  done.wait()
}

// MARK: - Tests

@Suite struct SourceIndexTests {
  /// The index changes which features are looked at, never what is
  /// decided: over 200 random frames (the scan is slow), floors and both
  /// map projections, every layer's drawables, annotation texts, counts,
  /// problems and tied features equal a scan of every feature.
  @Test func resolvingThroughTheIndexEqualsAScan() throws {
    let custom = try indexScene()
    let helsinki = try SceneLoader.load(path: Repository.root + "/Examples/helsinki.json")
    let sources = SourceLoader()
    let icons = IconCache()
    var rng = SplitMix64(seed: 20_261_123)
    let floors: [FloorValue?] = [nil, FloorValue("restaurant"), FloorValue("park"), FloorValue("yes"), FloorValue(3)]
    var frames = 0
    var drawn = 0
    var annotated = 0
    // Under a sanitizer, 60 frames: every frame reaches the same node
    // buffers; the plain run compares 200.
    let rounds = Sanitizer.count(plain: 200, sanitized: 60)
    for round in 0..<rounds {
      let scene = round % 3 == 0 ? helsinki : custom
      let projection: MapProjection = round % 4 == 1 ? .geographic : .webMercator
      let viewport = randomViewport(&rng, projection: projection)
      let floor = floors.randomElement(using: &rng)!
      let reference = ScanReference(scene: scene, viewport: viewport, floor: floor, maxAdvance: fonts.maxAdvance)
      let expected = reference.resolve(sources: sources, icons: icons)
      let got = indexedPrints(scene, viewport, floor: floor, sources: sources, icons: icons)
      #expect(got == expected, "frame \(round): \(viewport.scale) at \(viewport.center), \(viewport.width)×\(viewport.height), floor \(String(describing: floor))")
      if got != expected { break }
      frames += 1
      drawn += got.reduce(0) { $0 + $1.drawables.count }
      annotated += got.reduce(0) { $0 + $1.annotations.count }
    }
    // The frames did draw things (the comparison is not between empty lists).
    #expect(frames == rounds)
    #expect(drawn > 50 * rounds && annotated > 5 * rounds, "\(drawn) drawables, \(annotated) annotation texts")
  }

  /// The corners of GeoJSON the Helsinki data lacks, against a scan:
  /// features without geometry (null, invalid, an empty collection),
  /// MultiPoints whose parts are far apart, ids repeated, numeric, null or
  /// missing, floors as numbers and strings, texts empty, blank or of
  /// several lines, and points at the poles and the antimeridian.
  @Test func awkwardSourcesResolveAsAScan() throws {
    var rng = SplitMix64(seed: 11)
    func coordinate() -> String {
      "[\(Double.random(in: -0.02...0.02, using: &rng)), \(Double.random(in: -0.02...0.02, using: &rng))]"
    }
    let ids = [#""a""#, #""b""#, "7", "7.0", "null", #""c""#]
    let floors = ["1", #""2""#, "2", "null", #""L3""#]
    let names = [#""""#, #""   ""#, #""x""#, #""two\nlines here""#, #""a much longer name than most""#, "42", "true"]
    var features: [String] = []
    for i in 0..<400 {
      var properties: [String] = []
      if i == 0 || i == 2 {
        properties.append(#""id": "alone\#(i)""#)  // one feature each: null geometry, empty geometry
      } else if i % 5 != 0 {
        properties.append(#""id": \#(ids.randomElement(using: &rng)!)"#)
      }
      if i % 3 != 0 { properties.append(#""floor": \#(floors.randomElement(using: &rng)!)"#) }
      if i % 4 != 0 { properties.append(#""name": \#(names.randomElement(using: &rng)!)"#) }
      properties.append(#""kind": "\#(["a", "b", "c"][i % 3])""#)
      let geometry: String
      switch i % 10 {
      case 0: geometry = "null"
      case 1: geometry = #"{"type": "LineString", "coordinates": [\#(coordinate())]}"#  // invalid: one position
      case 2: geometry = #"{"type": "GeometryCollection", "geometries": []}"#
      case 3: geometry = #"{"type": "MultiPoint", "coordinates": [\#(coordinate()), [1, 1], \#(coordinate())]}"#
      case 4: geometry = #"{"type": "LineString", "coordinates": [\#(coordinate()), \#(coordinate()), \#(coordinate())]}"#
      case 5:
        let (x, y) = (Double.random(in: -0.02...0.02, using: &rng), Double.random(in: -0.02...0.02, using: &rng))
        geometry = #"{"type": "Polygon", "coordinates": [[[\#(x), \#(y)], [\#(x + 0.001), \#(y)], [\#(x), \#(y + 0.002)], [\#(x), \#(y)]]]}"#
      case 6: geometry = i % 20 == 6 ? #"{"type": "Point", "coordinates": [180, 89.99]}"# : #"{"type": "Point", "coordinates": [-180, -90]}"#
      default: geometry = #"{"type": "Point", "coordinates": \#(coordinate())}"#
      }
      let id = i % 7 == 0 ? #""id": "g\#(i % 3)", "# : ""
      features.append(#"{"type": "Feature", \#(id)"properties": {\#(properties.joined(separator: ", "))}, "geometry": \#(geometry)}"#)
    }
    let folder = try TemporaryFolder(prefix: "mapsnap-index")
    defer { folder.cleanUp() }
    try folder.write("awkward.geojson", #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ",\n"))]}"#)
    let scene = try indexScene(
      #"""
      {"version": 1, "map": {"center": [0, 0], "scale": 4000, "size": [256, 256]},
       "layers": [
        {"id": "by-id", "type": "features", "source": {"geojson": "awkward.geojson"}, "idField": "id", "floorField": "floor",
         "minScale": 200000,
         "rules": [
          {"where": {"kind": "a"}, "style": {"marker": {"size": 6}, "stroke": "#000", "label": {"field": "name", "size": 9, "offset": [4, -2]}}},
          {"where": {"kind": ["b", "c"]}, "minScale": 20000, "style": {"fill": "#f00", "stroke": "#000", "strokeWidth": 4}}]},
        {"id": "by-geojson-id", "type": "features", "source": {"geojson": "awkward.geojson"}, "floorField": "floor",
         "style": {"stroke": "#000", "label": {"field": "name", "size": 10}}},
        {"id": "anno", "type": "annotation", "source": {"geojson": "awkward.geojson"}, "textField": "name", "angleField": "floor",
         "referenceScale": 1000, "floorField": "floor", "idField": "id",
         "sublayers": [{"id": "a", "where": {"kind": "a"}, "style": {"size": 10}}, {"id": "any", "style": {"size": 5}}]}],
       "viewAnnotations": [
        {"id": "va", "feature": {"layer": "by-id", "id": "a"}, "text": "a"},
        {"id": "v7", "feature": {"layer": "by-id", "id": 7}, "text": "7"},
        {"id": "vc", "feature": {"layer": "by-id", "id": "c"}, "text": "c"},
        {"id": "vz", "feature": {"layer": "by-id", "id": "z"}, "text": "z"},
        {"id": "v0", "feature": {"layer": "by-id", "id": "alone0"}, "text": "0"},
        {"id": "v2", "feature": {"layer": "by-id", "id": "alone2"}, "text": "2"},
        {"id": "vg", "feature": {"layer": "by-geojson-id", "id": "g1"}, "text": "g"}]}
      """#, baseDirectory: folder.path)
    let sources = SourceLoader()
    let icons = IconCache()
    var fates = Set<String>()
    for round in 0..<150 {
      let projection: MapProjection = round % 3 == 1 ? .geographic : .webMercator
      let scale = 200 * pow(5000, Double.random(in: 0...1, using: &rng))
      let center = round % 10 == 9 ? (179.999, 89.0) : (Double.random(in: -0.02...0.02, using: &rng), Double.random(in: -0.02...0.02, using: &rng))
      let viewport = Viewport(
        center: center, scale: scale, width: [1, 64, 256].randomElement(using: &rng)!, height: [1, 64, 256].randomElement(using: &rng)!,
        projection: projection)
      let floor = [nil, FloorValue(1), FloorValue("2"), FloorValue("L3")].randomElement(using: &rng)!
      let expected = ScanReference(scene: scene, viewport: viewport, floor: floor, maxAdvance: fonts.maxAdvance).resolve(sources: sources, icons: icons)
      let got = indexedPrints(scene, viewport, floor: floor, sources: sources, icons: icons)
      #expect(got == expected, "frame \(round): \(viewport.scale) at \(viewport.center), floor \(String(describing: floor))")
      if got != expected { break }
      for l in got { for (id, fate) in l.tied { fates.insert("\(id) \("\(fate)".prefix(8))") } }
    }
    // Every fate occurred, for ids shared by several features.
    #expect(
      fates.isSuperset(of: ["a drawable", "a offFrame", "a notDrawn", "7 drawable", "7 offFrame", "7 notDrawn", "alone0 notDrawn", "alone2 notDrawn"]),
      "\(fates.sorted())")
  }

  /// A frame looks at the features near it: as many for the Helsinki data
  /// as for the same data 20 times over, copies far apart, and far fewer
  /// than the source holds.
  @Test func featuresExaminedDoNotGrowWithTheSource() throws {
    let one = try TemporaryFolder(prefix: "mapsnap-index")
    let twenty = try TemporaryFolder(prefix: "mapsnap-index")
    defer {
      one.cleanUp()
      twenty.cleanUp()
    }
    for name in ["helsinki_areas.geojson", "helsinki_pois.geojson"] {
      try writeCopies(name, copies: 1, into: one)
      try writeCopies(name, copies: 20, into: twenty)
    }
    // The index scene's layers over those two files: areas, POIs, annotation.
    var small = try indexScene(baseDirectory: one.path)
    small.layers = [small.layers[0], small.layers[3], small.layers[4]]
    small.viewAnnotations = []
    var large = try indexScene(baseDirectory: twenty.path)
    large.layers = small.layers.indices.map { i in [large.layers[0], large.layers[3], large.layers[4]][i] }
    large.viewAnnotations = []
    let (smallSources, largeSources) = (SourceLoader(), SourceLoader())
    var rng = SplitMix64(seed: 99)
    for round in 0..<12 {
      // Thumbnails at 1:4000 here and there over the first copy, and one
      // frame of the whole city.
      let center = randomViewport(&rng, projection: .webMercator).center
      let viewport = Viewport(center: center, scale: round == 0 ? 50_000 : 4000, width: 256, height: 256)
      let a = MapResolver(scene: small, viewport: viewport, floor: nil, fonts: fonts).resolve(sources: smallSources)
      let b = MapResolver(scene: large, viewport: viewport, floor: nil, fonts: fonts).resolve(sources: largeSources)
      #expect(a.inputs.layers.map(\.examinedFeatures) == b.inputs.layers.map(\.examinedFeatures), "frame \(round) at \(viewport.center)")
      // The same features are drawn (the copies have other indexes).
      #expect(a.state.layers.map { $0.drawables.map(\.geometry.bounds) } == b.state.layers.map { $0.drawables.map(\.geometry.bounds) })
      #expect(a.state.layers.map(\.annotations.count) == b.state.layers.map(\.annotations.count))
      for (l, layer) in b.state.layers.enumerated() {
        #expect(layer.features.total == 20 * a.state.layers[l].features.total)
        // Far fewer than the 20 copies hold: at most the first copy's.
        #expect(b.inputs.layers[l].examinedFeatures <= a.state.layers[l].features.total, "layer \(layer.id)")
      }
    }
  }

  /// Threads sharing one loader: each file is read and decoded once however
  /// many ask at once, and every thread gets the same decisions as a frame
  /// resolved alone.
  @Test func threadsSharingALoaderDecodeEachFileOnce() throws {
    let scene = try indexScene()
    let helsinki = try SceneLoader.load(path: Repository.root + "/Examples/helsinki.json")
    let sources = SourceLoader()
    let viewports = [
      Viewport(center: (24.9412, 60.1704), scale: 4000, width: 256, height: 256),
      Viewport(center: (24.9412, 60.1704), scale: 4000, width: 256, height: 256, projection: .geographic),
    ]
    let floors = [nil, FloorValue("restaurant")]
    @Sendable func prints(_ i: Int, _ loader: SourceLoader) -> [[LayerPrint]] {
      [
        indexedPrints(scene, viewports[i % 2], floor: floors[i / 2 % 2], sources: loader, icons: IconCache()),
        indexedPrints(helsinki, viewports[i % 2], floor: nil, sources: loader, icons: IconCache()),
      ]
    }
    let threads = 12
    let results = Mutex<[Int: [[LayerPrint]]]>([:])
    onThreads(threads) { i in
      let p = prints(i, sources)
      results.withLock { $0[i] = p }
    }
    // The four files, decoded once each.
    #expect(sources.decodeCount == 4)
    let all = results.withLock { $0 }
    let alone = (0..<4).map { prints($0, SourceLoader()) }
    for i in 0..<threads { #expect(all[i] == alone[i % 4], "thread \(i)") }
    // One index per file and projection, shared by every thread.
    let first = try sources.indexed(source(of: scene.layers[0]), projection: .webMercator).get()
    let again = try sources.indexed(source(of: scene.layers[0]), projection: .webMercator).get()
    #expect(first === again)
    #expect(sources.decodeCount == 4)
  }

  /// Two threads asking for one file at the same moment: one decodes it,
  /// the other waits and gets the same index.
  @Test func concurrentFirstLoadsOfOneFileDecodeOnce() throws {
    let scene = try indexScene()
    let source = source(of: scene.layers[1])
    for _ in 0..<20 {
      let sources = SourceLoader()
      let got = Mutex<[ObjectIdentifier]>([])
      onThreads(8) { i in
        let projection: MapProjection? = i % 2 == 0 ? .webMercator : nil
        if case .success(let index) = sources.indexed(source, projection: projection), projection != nil {
          got.withLock { $0.append(ObjectIdentifier(index)) }
        }
      }
      #expect(sources.decodeCount == 1)
      #expect(Set(got.withLock { $0 }).count == 1)
    }
  }

  /// Past its limit the loader drops the least recently used source, and
  /// reads it again when asked: the results are the same.
  @Test func aLimitedLoaderDropsTheLeastRecentlyUsedSource() throws {
    let scene = try indexScene()
    let (areas, roads, pois) = (source(of: scene.layers[0]), source(of: scene.layers[1]), source(of: scene.layers[3]))
    let viewport = Viewport(center: (24.9412, 60.1704), scale: 4000, width: 256, height: 256)
    let unlimited = SourceLoader()
    let expected = indexedPrints(scene, viewport, floor: nil, sources: unlimited, icons: IconCache())
    #expect(unlimited.decodeCount == 4)

    // Room for about half the sources. On one thread the layers load their
    // files in layer order, so the least recently used is the first layer's.
    let limited = SourceLoader(limitBytes: unlimited.keptBytes / 2)
    #expect(indexedPrints(scene, viewport, floor: nil, sources: limited, icons: IconCache(), threads: 1) == expected)
    #expect(limited.decodeCount == 4)
    #expect(limited.keptBytes <= limited.limitBytes)
    // The POIs, used last, are still there; the areas, used first, are not.
    _ = limited.load(pois, projection: .webMercator)
    #expect(limited.decodeCount == 4)
    _ = limited.load(areas, projection: .webMercator)
    #expect(limited.decodeCount == 5)
    // Another frame reads the dropped sources again and decides the same.
    #expect(indexedPrints(scene, viewport, floor: nil, sources: limited, icons: IconCache(), threads: 1) == expected)
    #expect(limited.decodeCount > 5)
    // Files loaded side by side (`threads` 0) are held by the frame: each is
    // decoded once, though the loader has room for half of them.
    let parallel = SourceLoader(limitBytes: unlimited.keptBytes / 2)
    #expect(indexedPrints(scene, viewport, floor: nil, sources: parallel, icons: IconCache(), threads: 2) == expected)
    #expect(parallel.decodeCount == 4)
    #expect(parallel.keptBytes <= parallel.limitBytes)

    // A loader with no room keeps only the source it loaded last.
    let none = SourceLoader(limitBytes: 0)
    #expect(indexedPrints(scene, viewport, floor: nil, sources: none, icons: IconCache()) == expected)
    _ = none.load(pois)
    let decodes = none.decodeCount
    _ = none.load(pois)
    #expect(none.decodeCount == decodes)
    _ = none.load(roads)
    _ = none.load(pois)
    #expect(none.decodeCount == decodes + 2)
  }

  /// A frame that holds every feature's bounds gets every feature with a
  /// geometry, in order, without the tree being built; a frame that misses
  /// some builds it and gets what brute force gets.
  @Test func aFrameHoldingTheWholeSourceTakesItWithoutATree() throws {
    var c = try GeoJSONDecoder.decodeDocument(
      try JSONParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: Repository.root + "/Examples/data/helsinki_pois.geojson")))))
    c.features.insert(Feature(id: nil, properties: JSONObject(), geometry: Geometry(), index: -1), at: 3)
    let index = SourceIndex(c)
    var all = Rect.empty
    for f in c.features where !f.geometry.isEmpty {
      all.include(Point(f.geometry.bounds.minX, f.geometry.bounds.minY))
      all.include(Point(f.geometry.bounds.maxX, f.geometry.bounds.maxY))
    }
    let located = c.features.indices.filter { !c.features[$0].geometry.isEmpty }.map(Int32.init)
    #expect(index.features(near: all, reach: 0) == located)
    #expect(index.features(near: all.insetBy(-1), reach: 7) == located)
    #expect(!index.featureTreeBuilt, "no tree for a frame holding everything")
    let part = Rect(minX: all.minX, minY: all.minY, maxX: all.maxX - all.width / 3, maxY: all.maxY)
    for reach in [0, 0.0005] {
      let expected = c.features.indices.filter { i in
        !c.features[i].geometry.isEmpty && c.features[i].geometry.bounds.insetBy(-reach).intersects(part)
      }.map(Int32.init)
      #expect(index.features(near: part, reach: reach) == expected)
      #expect(expected.count < located.count)
    }
    #expect(index.featureTreeBuilt)
  }

  /// The tree against brute force, with frames and reaches chosen so that
  /// grown boxes touch the frame exactly, and with empty and infinite boxes.
  @Test func packedRTreeQueriesEqualBruteForce() {
    var rng = SplitMix64(seed: 3)
    for n in [0, 1, 2, 15, 16, 17, 255, 256, 257, 3_000] {
      var entries: [(box: Rect, item: Int32)] = []
      for i in 0..<n {
        let x = Double.random(in: -1e6...1e6, using: &rng)
        let y = Double.random(in: -1e6...1e6, using: &rng)
        var box = Rect(
          minX: x, minY: y, maxX: x + Double.random(in: 0...1e4, using: &rng) * Double(i % 3),
          maxY: y + Double.random(in: 0...1e4, using: &rng) * Double(i % 2))
        if i % 97 == 5 { box = .empty }
        if i % 101 == 7 { box.maxX = .infinity }
        entries.append((box, Int32(i)))
      }
      let tree = PackedRTree(entries)
      for q in 0..<200 {
        let reach = [0, 1.5, 1234.5678, 1e5][q % 4]
        var frame: Rect
        if n > 0, q % 2 == 0 {
          // Edges exactly on an entry's grown box.
          let b = entries[Int.random(in: 0..<n, using: &rng)].box.insetBy(-reach)
          frame = Rect(minX: b.maxX, minY: b.maxY, maxX: b.maxX + 10, maxY: b.maxY + 10)
          if q % 4 == 0 { frame = Rect(minX: b.minX - 10, minY: b.minY - 10, maxX: b.minX, maxY: b.minY) }
        } else {
          let x = Double.random(in: -1.1e6...1.1e6, using: &rng)
          let y = Double.random(in: -1.1e6...1.1e6, using: &rng)
          frame = Rect(minX: x, minY: y, maxX: x + Double.random(in: 0...1e5, using: &rng), maxY: y + Double.random(in: 0...1e5, using: &rng))
        }
        var got: [Int32] = []
        tree.query(frame, reach: reach, into: &got)
        let expected = entries.filter { $0.box.insetBy(-reach).intersects(frame) }.map(\.item)
        #expect(got.sorted() == expected, "n \(n), query \(q)")
      }
    }
  }

  /// A view annotation tied to a feature takes the same fate with and
  /// without the index, on every floor and at every scale, and an id the
  /// source lacks is hinted from every id of the source.
  @Test func tiedFeaturesAndHintsAreThoseOfAScan() throws {
    let scene = try indexScene()
    let sources = SourceLoader()
    var fates = Set<String>()
    for scale in [500.0, 4000, 12000] {
      for floor in [nil, FloorValue("station"), FloorValue("cafe")] {
        let viewport = Viewport(center: (24.9412, 60.1704), scale: scale, width: 256, height: 256)
        let expected = ScanReference(scene: scene, viewport: viewport, floor: floor, maxAdvance: fonts.maxAdvance).resolve(sources: sources, icons: IconCache())
        let got = indexedPrints(scene, viewport, floor: floor, sources: sources, icons: IconCache())
        #expect(got == expected)
        for l in got { for (id, fate) in l.tied { fates.insert("\(l.id) \(id) \(fate)") } }
      }
    }
    // Drawn, off the frame and not drawn all occur.
    #expect(fates.contains { $0.contains("drawable") } && fates.contains { $0.hasSuffix("offFrame") } && fates.contains { $0.hasSuffix("notDrawn") })
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(scale: 4000), sources: sources)
    let v3 = plan.viewAnnotations.outcomes.first { $0.id == "v3" }
    #expect(v3?.problem == .unknownFeature(layer: "roads", id: FloorValue("w423634"), suggestion: "w4236349"))
  }
}
