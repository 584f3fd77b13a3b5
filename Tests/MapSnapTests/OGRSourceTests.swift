import Foundation
import Synchronization
import Testing
import _MapSnapTestSupport

@testable import MapSnap
@testable import _MapSnapRaster

/// `ogr` sources through GDAL (issue 15): the datasets of
/// `Examples/data/ogr` (made by scripts/make-ogr-data.sh), each read per
/// frame through its spatial index and drawn exactly as the same features
/// from GeoJSON.
@Suite struct OGRSourceTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])
  static let data = Repository.root + "/Examples/data/ogr/"

  private func plan(_ sources: [String], scale: Double = 4000, root: String? = nil, threads: Int = 0) throws -> FramePlan {
    let layers = sources.enumerated().map { i, s in
      ##"{"id": "l\##(i)", "type": "features", "source": \##(s), "style": {"stroke": "#333", "strokeWidth": 1, "fill": "#ccc", "marker": {"shape": "circle", "size": 4, "fill": "#c00"}}}"##
    }
    let body = #"{"version": 1, "map": {"center": [24.9412, 60.1704], "scale": \#(scale), "size": [480, 360]}, "layers": [\#(layers.joined(separator: ","))]}"#
    let scene = try SceneLoader.decode(Array(body.utf8), file: "t.json", baseDirectory: "")
    let loader = try SourceLoader(confinement: root.map { try Confinement(root: $0) })
    return try FramePlan.make(scene, sources: loader, fonts: fonts, threads: threads)
  }

  @Test func gdalLoadsWithTheDriversUsed() throws {
    let version = try OGRDataset.gdal.get()
    #expect(version.hasPrefix("3."), "GDAL \(version)")
  }

  /// Each format reads only what the frame needs, through its index, and
  /// says so; features keep their attributes with their types.
  @Test(arguments: [
    (#"{"ogr": "\#(OGRSourceTests.data)helsinki.gpkg", "layer": "roads"}"#, "GPKG", "EPSG:3067", 2525),
    (#"{"ogr": "\#(OGRSourceTests.data)helsinki_roads.shp"}"#, "ESRI Shapefile", "EPSG:4326", 2525),
    (#"{"ogr": "\#(OGRSourceTests.data)helsinki_pois.fgb"}"#, "FlatGeobuf", "EPSG:4326", 1607),
    (#"{"ogr": "\#(OGRSourceTests.data)helsinki.gdb", "layer": "pois"}"#, "OpenFileGDB", "EPSG:4326", 1607),
  ])
  func eachFormatReadsThroughItsIndex(source: String, driver: String, reference: String, total: Int) throws {
    let p = try plan([source])
    let layer = p.layers[0]
    let info = try #require(layer.ogr, "\(layer.problems)")
    #expect(info.driver == driver)
    #expect(info.spatialReference == reference)
    #expect(info.featuresInLayer == total)
    #expect(info.spatialIndex && info.scan == nil)
    #expect(info.featuresRead < total, "a 1:4000 frame reads part of the layer: \(info.featuresRead)")
    #expect(layer.features.total == total)
    #expect(layer.drawnFeatures > 0 && layer.drawnFeatures <= info.featuresRead)
    #expect(p.inputs.layers[0].sourceDigest?.hasPrefix("sha256:") == true)
  }

  /// A read's digest is hashed after the read (by the worker that builds
  /// the display list's geometry, or by the first to ask): the same
  /// digests, and input digest, whatever the threads.
  @Test func readDigestsTheSameOnAnyThreads() throws {
    let sources = [
      #"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "roads"}"#, #"{"ogr": "\#(Self.data)helsinki_pois.fgb"}"#,
      #"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "buildings"}"#,
    ]
    let plans = try [1, 2, 4].map { try plan(sources, threads: $0) }
    let digests = plans.map { $0.inputs.layers.map(\.sourceDigest) }
    #expect(digests[0].allSatisfy { $0?.hasPrefix("sha256:") == true } && Set(digests[0]).count == 3)
    #expect(digests[1] == digests[0] && digests[2] == digests[0])
    let inputs = plans.map { InputDigest.of($0, encoding: .fast, files: FileDigests()) }
    #expect(inputs[1] == inputs[0] && inputs[2] == inputs[0])
    #expect(plans.allSatisfy { $0.inputs.layers.allSatisfy { !($0.sourceContent?.isPending ?? false) } })
  }

  @Test func attributesKeepTheirTypes() throws {
    let loader = SourceLoader()
    let (c, _) = try loader.ogr(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "pois"), near: nil).get()
    #expect(c.features.count == 1607)
    #expect(c.features.map(\.index) == c.features.map(\.index).sorted(), "FID order")
    let first = try #require(c.features.first)
    #expect(first.id == .number(1), "the FID is the id")
    guard case .string? = first.properties["name"] else {
      Issue.record("name is not text: \(String(describing: first.properties["name"]))")
      return
    }
  }

  /// The goldens `Golden/ogr` (GeoPackage in EPSG:3067, Shapefile,
  /// FlatGeobuf, File Geodatabase) and `Golden/ogr-geojson` (the same
  /// features as GeoJSON) are the same pixels at every scale.
  @Test func ogrGoldensEqualTheirGeoJSONTwins() throws {
    for scale in ["4000", "8000"] {
      let a = try PNGDecoder.decode(contentsOf: Repository.root + "/Golden/ogr/\(scale).png")
      let b = try PNGDecoder.decode(contentsOf: Repository.root + "/Golden/ogr-geojson/\(scale).png")
      #expect(a.width == b.width && a.height == b.height)
      #expect(a.pixels == b.pixels, "Golden/ogr/\(scale).png differs from Golden/ogr-geojson/\(scale).png")
    }
  }

  /// A frame served by a larger kept read (in a batch, another frame's,
  /// farther out) examined more features: Golden/ogr/4000 reported 1,121
  /// labels `outOfBounds` after the 8000 frame and 726 alone. Its labels
  /// reach as far as its own read was made for, whichever read serves it.
  @Test func aFrameReportsTheSameWhicheverReadServesIt() throws {
    let scene = try SceneLoader.load(path: Repository.root + "/Golden/ogr/scene.json")
    func report(_ scale: Double, _ loader: SourceLoader) throws -> JSONValue {
      let plan = try FramePlan.make(scene, overrides: ViewOverrides(scale: scale), sources: loader, fonts: fonts, threads: 1)
      return ReportBuilder(plan: plan).build()
    }
    let alone = try report(4000, SourceLoader())
    let shared = SourceLoader()
    _ = try report(16000, shared)
    let after = try report(4000, shared)
    for i in 0..<4 {
      for key in ["features", "labels", "status", "problems"] {
        let a = alone["layers"]?[i]?[key]
        let b = after["layers"]?[i]?[key]
        #expect(a == b, "layers[\(i)].\(key) differs: \(a.map { String(describing: $0) }?.prefix(300) ?? "nil") against \(b.map { String(describing: $0) }?.prefix(300) ?? "nil")")
      }
    }
  }

  /// A feature a view annotation names may lie anywhere: its layer is read
  /// whole, and the annotation's fate is the one the same data gives as
  /// GeoJSON (here off the frame; read only near the frame, the feature was
  /// "not in the layer").
  @Test func aFeatureViewAnnotationsNameIsFoundAsInGeoJSON() throws {
    let far = "n2210237949"  // a POI of helsinki.gpkg about 1 km from the frame's centre
    func plan(_ source: String) throws -> FramePlan {
      let body = #"""
        {"version": 1, "map": {"center": [24.9412, 60.1704], "scale": 4000, "size": [300, 200]},
         "layers": [{"id": "pois", "type": "features", "source": \#(source), "idField": "id",
                     "style": {"marker": {"shape": "circle", "size": 5, "fill": "#c00"}}}],
         "viewAnnotations": [{"id": "far", "feature": {"layer": "pois", "id": "\#(far)"}, "text": "far"}]}
        """#
      let scene = try SceneLoader.decode(Array(body.utf8), file: "t.json", baseDirectory: "")
      return try FramePlan.make(scene, sources: SourceLoader(), fonts: fonts)
    }
    let ogr = try plan(#"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "pois"}"#)
    let geojson = try plan(#"{"geojson": "\#(Self.data)helsinki_3067_pois.geojson", "crs": "EPSG:3067"}"#)
    let id = FloorValue(far)
    #expect(geojson.state.layers[0].annotatedFeatures[id] == .offFrame)
    #expect(ogr.state.layers[0].annotatedFeatures[id] == .offFrame)
    let info = try #require(ogr.state.layers[0].ogr)
    #expect(info.featuresRead == 1607 && info.scan == .everyFeature, "the layer is read whole: \(info)")
  }

  /// The report's `scanned` and `explain` say why a layer was read whole,
  /// and never call a layer that has an index unindexed: a Shapefile
  /// without its `.qix` has none; a GeoPackage table that a 1:100,000 frame
  /// covers is scanned past its R-tree; a FlatGeobuf read by a 1:4000 frame
  /// goes through its index.
  @Test func theReportSaysWhyALayerWasReadWhole() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-ogr-scan")
    defer { folder.cleanUp() }
    for ext in ["shp", "shx", "dbf", "prj", "cpg"] {
      try Files.write(try Files.read(Self.data + "helsinki_roads." + ext), to: folder.path + "/roads." + ext)
    }
    let wide = try plan(
      [#"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "roads"}"#, #"{"ogr": "\#(folder.path)/roads.shp"}"#], scale: 100_000)
    let near = try plan([#"{"ogr": "\#(Self.data)helsinki_pois.fgb"}"#])
    let infos = (wide.layers + near.layers).map(\.ogr)
    #expect(infos.map { $0?.scan } == [.mostOfLayer, .noIndex, nil], "\(infos)")
    func ogrBlocks(_ p: FramePlan) -> [JSONValue] {
      guard case .array(let layers)? = p.report["layers"] else { return [] }
      return layers.compactMap { $0["ogr"] }
    }
    let blocks = ogrBlocks(wide) + ogrBlocks(near)
    #expect(blocks.map { $0["scanned"] } == [.string("mostOfLayer"), .string("noIndex"), .null], "\(blocks)")
    #expect(blocks.map { $0["spatialIndex"] } == [.bool(false), .bool(false), .bool(true)])
    let text = Explanation(plan: wide).text + Explanation(plan: near).text
    #expect(text.contains("ogr l0: GPKG layer \"roads\" in EPSG:3067, 2525 of 2525 features read, scanned whole (the frame covers most of the layer"))
    #expect(text.contains("ogr l1: ESRI Shapefile layer \"roads\" in EPSG:4326, 2525 of 2525 features read, scanned whole (the layer has no spatial index)"))
    #expect(text.contains("features read, through its spatial index"))
  }

  /// Labels of texts not yet read reach at most 32 characters of 1 em (not
  /// the fonts' widest advance, 7.22 em): a labelled layer reads part of
  /// the table at 1:4000 (all of it before), and draws and places exactly
  /// what the same data does from GeoJSON.
  @Test func labelsOfUnreadTextsReachA32EmLine() throws {
    func plan(_ source: String) throws -> FramePlan {
      let body = #"""
        {"version": 1, "map": {"center": [24.9412, 60.1704], "scale": 4000, "size": [480, 360]},
         "layers": [{"id": "pois", "type": "features", "source": \#(source),
                     "style": {"marker": {"shape": "circle", "size": 5, "fill": "#c00"}, "label": {"field": "name", "size": 12}}}]}
        """#
      let scene = try SceneLoader.decode(Array(body.utf8), file: "t.json", baseDirectory: "")
      return try FramePlan.make(scene, sources: SourceLoader(), fonts: fonts)
    }
    let ogr = try plan(#"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "pois"}"#)
    let geojson = try plan(#"{"geojson": "\#(Self.data)helsinki_3067_pois.geojson", "crs": "EPSG:3067"}"#)
    let info = try #require(ogr.layers[0].ogr)
    #expect(info.featuresRead < 1200, "read \(info.featuresRead) of 1607")
    #expect(ogr.layers[0].drawnFeatures == geojson.layers[0].drawnFeatures)
    let a = try #require(ogr.text.labelCounts[0])
    let b = try #require(geojson.text.labelCounts[0])
    #expect(a.placed == b.placed && a.placed > 0)
  }

  /// A frame's `ogr` layers are read side by side, or one after another
  /// with one thread (as a batch's workers do): each distinct source once at
  /// the farthest reach of its layers either way (here a labelled layer
  /// reaches farther than the plain one over the same table, and both
  /// report that one read), so the same report and pixels.
  @Test func oneThreadReadsWhatSeveralRead() throws {
    func plan(threads: Int) throws -> FramePlan {
      let gpkg = #"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "pois"}"#
      let body = #"""
        {"version": 1, "map": {"center": [24.9412, 60.1704], "scale": 4000, "size": [480, 360]},
         "layers": [{"id": "dots", "type": "features", "source": \#(gpkg), "style": {"marker": {"shape": "circle", "size": 3, "fill": "#333"}}},
                    {"id": "roads", "type": "features", "source": {"ogr": "\#(Self.data)helsinki.gpkg", "layer": "roads"}, "style": {"stroke": "#999"}},
                    {"id": "names", "type": "features", "source": \#(gpkg), "style": {"label": {"field": "name", "size": 12}}}]}
        """#
      let scene = try SceneLoader.decode(Array(body.utf8), file: "t.json", baseDirectory: "")
      return try FramePlan.make(scene, sources: SourceLoader(), fonts: fonts, threads: threads)
    }
    let one = try plan(threads: 1)
    let several = try plan(threads: 0)
    #expect(one.layers.map(\.ogr) == several.layers.map(\.ogr))
    let dots = try #require(one.layers[0].ogr)
    let names = try #require(one.layers[2].ogr)
    #expect(dots.featuresRead == names.featuresRead, "one read serves both layers over pois")
    #expect(JSONWriter().write(one.report()) == JSONWriter().write(several.report()))
    let a = try Snapshot.render(one, options: RenderOptions(threads: 1)).pngData(options: .fast)
    let b = try Snapshot.render(several, options: RenderOptions(threads: 1)).pngData(options: .fast)
    #expect(a == b)
  }

  // MARK: - Fields

  /// A read makes properties of the fields asked for alone, in every
  /// driver, and names every field in its `schema`; its features, FIDs and
  /// values are those of the read of every field.
  @Test(arguments: [
    (Self.data + "helsinki.gpkg", "pois"), (Self.data + "helsinki_pois.fgb", nil), (Self.data + "helsinki.gdb", "pois"),
  ])
  func aReadMakesPropertiesOfItsFieldsAlone(path: String, layer: String?) throws {
    let source = OGRSource(name: "t", resolved: path, layer: layer)
    let near = Rect(minX: 24.93, minY: 60.165, maxX: 24.95, maxY: 60.175)
    let (all, _) = try SourceLoader().ogr(source, near: near).get()
    let (some, _) = try SourceLoader().ogr(source, near: near, fields: ["name", "nothing"]).get()
    #expect(all.features.count > 100 && some.features.count == all.features.count)
    #expect(some.features.map(\.index) == all.features.map(\.index))
    #expect(some.features.map(\.geometry) == all.features.map(\.geometry))
    #expect(some.features.allSatisfy { $0.properties.pairs.map(\.key) == ["name"] }, "only name; a name that is no field is left out")
    #expect(some.features.map { $0.properties["name"] } == all.features.map { $0.properties["name"] })
    let names = try #require(all.features.first).properties.pairs.map(\.key)
    #expect(names.contains("category") && names.contains("class"))
    #expect(some.schema == names && all.schema == names, "the schema names every field either way")
    #expect(some.contentDigest != all.contentDigest, "the digest covers the fields read")
  }

  /// A read's digest covers the fields it made properties of: a change to
  /// a column no layer uses leaves it (as it leaves the pixels), a change
  /// to one a layer uses does not.
  @Test func aColumnNoLayerUsesLeavesTheDigest() throws {
    // The id of pois' FID 1, whose bytes occur once in the file: a copy
    // with one digit changed is the same GeoPackage but for that value.
    let original = Self.data + "helsinki.gpkg"
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
    let id = Array("n25389429".utf8)
    let at = try #require((0...(bytes.count - id.count)).filter { Array(bytes[$0..<($0 + id.count)]) == id }.first)
    bytes[at + 8] = UInt8(ascii: "8")
    try withTemporaryDirectory { dir in
      let copy = dir + "/helsinki.gpkg"
      try Data(bytes).write(to: URL(fileURLWithPath: copy))
      func read(_ path: String, _ fields: Set<String>) throws -> FeatureCollection {
        try SourceLoader().ogr(OGRSource(name: "t", resolved: path, layer: "pois"), near: nil, fields: fields).get().collection
      }
      #expect(try read(copy, ["id"]).features.first?.properties["id"] == .string("n25389428"), "the copy differs in that id")
      #expect(try read(copy, ["name"]).contentDigest == read(original, ["name"]).contentDigest)
      #expect(try read(copy, ["id", "name"]).contentDigest != read(original, ["id", "name"]).contentDigest)
    }
  }

  /// A kept read serves a later one whose fields it holds (here its
  /// properties are the wider read's), and not one that wants more.
  @Test func aKeptReadServesFewerFieldsNotMore() throws {
    let loader = SourceLoader()
    let source = OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "pois")
    let near = Rect(minX: 24.93, minY: 60.165, maxX: 24.95, maxY: 60.175)
    func keys(_ fields: Set<String>?) throws -> Set<String> {
      Set(try loader.ogr(source, near: near, fields: fields).get().collection.features.flatMap { $0.properties.pairs.map(\.key) })
    }
    #expect(try keys(["name"]) == ["name"])
    #expect(try keys(["name", "class"]) == ["name", "class"], "more fields: read anew")
    #expect(try keys(["class"]) == ["name", "class"], "served by the kept read")
    #expect(try keys(nil) == ["id", "name", "category", "class"], "every field: read anew")
    #expect(try keys(["category"]) == ["id", "name", "category", "class"])
  }

  /// A frame reads the fields its layers use: layers over one table that
  /// use different fields share one read and each finds its own (the same
  /// features drawn and labelled as from GeoJSON), and a name that is no
  /// field is checked against every field, hint included.
  @Test func aFrameReadsTheFieldsItsLayersUse() throws {
    func plan(_ source: String) throws -> FramePlan {
      let body = #"""
        {"version": 1, "map": {"center": [24.9412, 60.1704], "scale": 4000, "size": [480, 360]},
         "layers": [{"id": "cafes", "type": "features", "source": \#(source), "rules": [{"where": {"class": "cafe"}, "style": {"marker": {"shape": "circle", "size": 5, "fill": "#930"}}}]},
                    {"id": "names", "type": "features", "source": \#(source), "style": {"label": {"field": "name", "size": 12}}},
                    {"id": "typo", "type": "features", "source": \#(source), "rules": [{"where": {"categroy": "shop"}, "style": {"fill": "#000"}}]}]}
        """#
      let scene = try SceneLoader.decode(Array(body.utf8), file: "t.json", baseDirectory: Repository.root)
      return try FramePlan.make(scene, sources: SourceLoader(), fonts: fonts, threads: 0)
    }
    let gpkg = try plan(#"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "pois"}"#)
    let geojson = try plan(#"{"geojson": "Examples/data/helsinki_pois.geojson"}"#)
    #expect(gpkg.layers[0].drawnFeatures > 0)
    #expect(gpkg.layers.map(\.drawnFeatures) == geojson.layers.map(\.drawnFeatures))
    let placed = [gpkg, geojson].map { $0.text.outcomes.filter(\.isPlaced).map(\.text) }
    #expect(placed[0] == placed[1])
    #expect(gpkg.text.outcomes.contains { $0.isPlaced && $0.layerIndex == 1 })
    let reads = Set(gpkg.layers.compactMap(\.ogr).map(\.featuresRead))
    #expect(reads.count == 1, "one read serves the three layers")
    #expect(gpkg.layers[2].problems == [.unknownProperty(key: "rules[0].where", property: "categroy", suggestion: "category")])
    #expect(gpkg.layers[2].problems == geojson.layers[2].problems)
  }

  // MARK: - Handles shared between threads

  /// The handles a `countingPool` closed, in order.
  final class ClosedHandles: Sendable {
    let list = Mutex<[Int]>([])
    var all: [Int] { list.withLock { $0 } }
  }

  /// A pool of handles numbered 1, 2, 3… in the order they are opened,
  /// each added to `closed` when closed.
  static func countingPool(_ closed: ClosedHandles = ClosedHandles()) -> HandlePool<Int> {
    let last = Mutex(1)
    return HandlePool<Int>(
      first: 1,
      open: {
        .success(last.withLock { n in
          n += 1
          return n
        })
      }, close: { h in closed.list.withLock { $0.append(h) } })
  }

  /// The pool's rule: a handle in use is never handed out again; one more
  /// is opened instead, and handles given back are reused.
  @Test func aHandleInUseIsNeverSharedAndFreeOnesAreReused() throws {
    let pool = Self.countingPool()
    let pair = try pool.with { a in pool.with { b in .success((a, b)) } }.get()
    #expect(pair.0 != pair.1, "two readers at once got handle \(pair.0)")
    #expect(pool.opened == 2)
    let again = try pool.with { a in pool.with { b in .success((a, b)) } }.get()
    #expect(Set([again.0, again.1]) == Set([pair.0, pair.1]), "handles given back are reused")
    #expect(pool.opened == 2)
  }

  /// A pool closes every handle it opened when it goes.
  @Test func aPoolClosesItsHandlesWhenItGoes() throws {
    let closed = ClosedHandles()
    do {
      let pool = Self.countingPool(closed)
      _ = pool.with { _ in pool.with { _ in Result<Void, SourceError>.success(()) } }
      #expect(closed.all.isEmpty, "nothing closes while the pool lives")
    }
    #expect(closed.all.sorted() == [1, 2])
  }

  /// A handle the driver failed on is closed, not reused (a connection the
  /// server cut would fail every later read); a missing layer keeps it.
  @Test func aHandleTheDriverFailedOnIsClosed() throws {
    let closed = ClosedHandles()
    let pool = Self.countingPool(closed)
    _ = pool.with { _ in Result<Void, SourceError>.failure(.ogrLayer(path: "d", layer: "x", layers: [])) }
    #expect(closed.all.isEmpty && pool.opened == 1)
    _ = pool.with { _ in Result<Void, SourceError>.failure(.ogr(path: "d", message: "server closed the connection unexpectedly")) }
    #expect(closed.all == [1] && pool.opened == 0)
    let used = try pool.with { h in .success(h) }.get()
    #expect(used == 2, "a new handle after the broken one")
  }

  /// At most `OpenDatasets.limit` datasets stay open: the oldest opened
  /// goes first; a failure is kept like a dataset (not tried again while
  /// it is fresh).
  @Test func openDatasetsAreBoundedOldestFirst() throws {
    final class Dataset: Sendable {}
    let open = OpenDatasets<Dataset>()
    let first = try open.dataset("d0") { .success(Dataset()) }.get()
    for k in 1...OpenDatasets<Dataset>.limit { _ = open.dataset("d\(k)") { .success(Dataset()) } }
    #expect(open.names.count == OpenDatasets<Dataset>.limit)
    #expect(!open.names.contains("d0") && open.names.last == "d\(OpenDatasets<Dataset>.limit)")
    let again = try open.dataset("d0") { .success(Dataset()) }.get()
    #expect(again !== first, "d0 was opened anew after it went")
    var tries = 0
    for _ in 0..<2 {
      _ = open.dataset("missing") {
        tries += 1
        return .failure(.ogr(path: "missing", message: "no such file"))
      }
    }
    #expect(tries == 1)
  }

  /// A database that went away: its connection broke and connecting fails.
  /// The pool keeps that failure `OGRSource.failureKeptSeconds` (reads
  /// meanwhile get it without connecting), then connects again.
  @Test func aPoolKeepsAFailureToConnectForAWhile() throws {
    let now = Atomic<Int>(0)  // milliseconds
    let up = Atomic<Bool>(false)
    let tries = Atomic<Int>(0)
    let pool = HandlePool<Int>(
      first: 1,
      open: {
        tries.add(1, ordering: .relaxed)
        return up.load(ordering: .relaxed) ? .success(2) : .failure(.database(path: "PG:dbname=gis", message: "connection refused"))
      }, close: { _ in }, clock: { Double(now.load(ordering: .relaxed)) / 1000 })
    let down = Result<Int, SourceError>.failure(.database(path: "PG:dbname=gis", message: "server closed the connection unexpectedly"))
    _ = pool.with { _ in down }  // the open connection breaks and is closed
    #expect(pool.opened == 0)
    for _ in 0..<3 { #expect(throws: SourceError.self) { try pool.with { h in .success(h) }.get() } }
    #expect(tries.load(ordering: .relaxed) == 1, "one try to connect, its failure kept")
    up.store(true, ordering: .relaxed)
    now.store(Int(OGRSource.failureKeptSeconds * 1000) - 1, ordering: .relaxed)
    #expect(throws: SourceError.self) { try pool.with { h in .success(h) }.get() }
    now.store(Int(OGRSource.failureKeptSeconds * 1000), ordering: .relaxed)
    #expect(try pool.with { h in .success(h) }.get() == 2)
    #expect(tries.load(ordering: .relaxed) == 2 && pool.opened == 1)
  }

  /// Names open side by side: a name whose open is slow (a database timing
  /// out) does not hold up another's; threads asking for the slow one wait
  /// for its one open.
  @Test func openDatasetsOpenNamesSideBySide() throws {
    final class Dataset: Sendable {}
    let open = OpenDatasets<Dataset>()
    let slowStarted = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let opens = Atomic<Int>(0)
    let done = DispatchGroup()
    for _ in 0..<2 {
      DispatchQueue.global().async(group: done) {
        _ = open.dataset("PG:host=slow") {
          opens.add(1, ordering: .relaxed)
          slowStarted.signal()
          // Held until the other name has opened (at most 10 s).
          _ = release.wait(timeout: .now() + 10)
          return .success(Dataset())
        }
      }
    }
    #expect(slowStarted.wait(timeout: .now() + 10) == .success)
    let started = monotonicSeconds()
    _ = open.dataset("fast.gpkg") { .success(Dataset()) }
    #expect(monotonicSeconds() - started < 5, "another name waited for the slow open")
    release.signal()
    done.wait()
    #expect(opens.load(ordering: .relaxed) == 1, "both threads got the one open of the slow name")
  }

  /// A failure to open is kept `OGRSource.failureKeptSeconds`, then tried
  /// again (a database back from a restart serves the rest of a batch); an
  /// open dataset is kept however long ago it opened.
  @Test func aFailureToOpenIsTriedAgainOnceItIsStale() throws {
    final class Dataset: Sendable {}
    let now = Atomic<Int>(0)  // milliseconds
    let open = OpenDatasets<Dataset>(clock: { Double(now.load(ordering: .relaxed)) / 1000 })
    let limit = Int(OGRSource.failureKeptSeconds * 1000)
    var tries = 0
    var up = false
    func get() -> Result<Dataset, SourceError> {
      open.dataset("PG:dbname=gis") {
        tries += 1
        return up ? .success(Dataset()) : .failure(.database(path: "PG:dbname=gis", message: "connection refused"))
      }
    }
    guard case .failure = get() else { Issue.record("the server is down"); return }
    up = true
    now.store(limit - 1, ordering: .relaxed)
    guard case .failure = get() else { Issue.record("a fresh failure is kept"); return }
    #expect(tries == 1)
    now.store(limit, ordering: .relaxed)
    let back = try get().get()
    #expect(tries == 2 && open.names == ["PG:dbname=gis"])
    now.store(100 * limit, ordering: .relaxed)
    #expect(try get().get() === back)
    #expect(tries == 2, "an open dataset is kept")
  }

  /// Threads reading one dataset at once (a batch's workers, a frame's
  /// layers read side by side) each read what the same read gives alone:
  /// for GeoPackage through SQLite and for FlatGeobuf through GDAL.
  @Test(arguments: [(Self.data + "helsinki.gpkg", "pois"), (Self.data + "helsinki_pois.fgb", nil)])
  func readsAtOnceEqualReadsAlone(path: String, layer: String?) throws {
    let source = OGRSource(name: "t", resolved: path, layer: layer)
    let filters = (0..<8).map { k in
      let x = 24.90 + 0.01 * Double(k)
      return Rect(minX: x, minY: 60.160, maxX: x + 0.02, maxY: 60.175)
    }
    let alone = try filters.map { f in try SourceLoader().ogr(source, near: f).get() }
    let together = Mutex<[Int: (String?, Int)]>([:])
    DispatchQueue.concurrentPerform(iterations: filters.count * 4) { i in
      // A loader per read, so that none is served by another's kept read.
      if case .success(let (c, info)) = SourceLoader().ogr(source, near: filters[i % filters.count]) {
        together.withLock { $0[i] = (c.contentDigest, info.featuresRead) }
      }
    }
    let got = together.withLock { $0 }
    #expect(got.count == filters.count * 4)
    for (i, r) in got {
      let a = alone[i % filters.count]
      #expect(r.0 == a.collection.contentDigest && r.1 == a.info.featuresRead, "read \(i)")
    }
    #expect(Set(alone.map(\.info.featuresRead)).count > 1, "the filters read different features")
  }

  // MARK: - GeoPackage: R-tree or scan

  private static func geoPackage(_ path: String = data + "helsinki.gpkg", layer: String) throws -> (GeoPackageReader, GeoPackageReader.Table, OGRSource) {
    let source = OGRSource(name: "t", resolved: path, layer: layer)
    let reader = try GeoPackageReader.shared(source, confinement: nil).get()
    return (reader, try reader.table(layer, source: source).get(), source)
  }

  /// A scan tests each row by the R-tree's own rule (its bounds rounded
  /// outward to 32-bit floats), so it reads exactly the rows the R-tree
  /// gives, for filters that cut through features on every side.
  @Test(arguments: ["areas", "buildings", "roads", "pois"])
  func aScanReadsWhatTheRTreeReads(layer: String) throws {
    let (reader, table, source) = try Self.geoPackage(layer: layer)
    let e = try #require(table.extent)
    #expect(table.rtree != nil && table.count != nil)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    var counts = Set<Int>()
    for _ in 0..<24 {
      let x = e.minX + (next() * 1.2 - 0.1) * e.width
      let y = e.minY + (next() * 1.2 - 0.1) * e.height
      let f = Rect(minX: x, minY: y, maxX: x + next() * e.width / 2, maxY: y + next() * e.height / 2)
      let (a, ai) = try reader.read(table, filter: f, source: source, scan: false).get().pair
      let (b, bi) = try reader.read(table, filter: f, source: source, scan: true).get().pair
      #expect(ai.scan == nil && bi.scan == .mostOfLayer)
      #expect(ai.featuresRead == bi.featuresRead, "\(f)")
      #expect(a.features.map(\.index) == b.features.map(\.index), "\(f)")
      #expect(a.contentDigest == b.contentDigest, "\(f)")
      counts.insert(ai.featuresRead)
    }
    #expect(counts.count > 10 && (counts.max() ?? 0) < table.count!, "filters cut the layer: \(counts.sorted())")
  }

  /// The R-tree is used unless the filter covers `scanCoverage` of the
  /// table's extent; a table without an R-tree is always scanned, one
  /// without an extent always read through its R-tree.
  @Test func aFilterCoveringMostOfATableScansIt() throws {
    let (reader, table, source) = try Self.geoPackage(layer: "roads")
    let e = try #require(table.extent)
    let half = GeoPackageReader.scanCoverage
    let wide = Rect(minX: e.minX - 1, minY: e.minY - 1, maxX: e.maxX + 1, maxY: e.maxY + 1)
    let most = Rect(minX: e.minX, minY: e.minY, maxX: e.minX + e.width * (half + 0.01), maxY: e.maxY)
    let less = Rect(minX: e.minX, minY: e.minY, maxX: e.minX + e.width * (half - 0.01), maxY: e.maxY)
    #expect(GeoPackageReader.scans(table, filter: wide) && GeoPackageReader.scans(table, filter: most))
    #expect(!GeoPackageReader.scans(table, filter: less))
    #expect(!GeoPackageReader.scans(table, filter: Rect(minX: e.maxX + 1, minY: e.minY, maxX: e.maxX + 2, maxY: e.maxY)))
    var unknown = table
    unknown.extent = nil
    #expect(!GeoPackageReader.scans(unknown, filter: wide))
    var unindexed = table
    unindexed.rtree = nil
    #expect(GeoPackageReader.scans(unindexed, filter: less))
    let (_, info) = try reader.read(table, filter: wide, source: source).get().pair
    #expect(info.scan == .mostOfLayer && !info.spatialIndex && info.featuresRead == table.count)
    let (_, small) = try reader.read(table, filter: less, source: source).get().pair
    #expect(small.scan == nil && small.spatialIndex && small.featuresRead < table.count!)
    let (_, whole) = try reader.read(table, filter: nil, source: source).get().pair
    #expect(whole.scan == .everyFeature && whole.featuresRead == table.count)
    let (_, bare) = try reader.read(unindexed, filter: less, source: source).get().pair
    #expect(bare.scan == .noIndex && bare.featuresRead == small.featuresRead)
  }

  /// A row without a geometry is unlocated when the whole table is read,
  /// and is read through no filter, scanned or through the R-tree (GDAL's
  /// triggers keep it out of the R-tree).
  @Test func aRowWithoutAGeometryIsUnlocatedAndOutsideEveryFilter() throws {
    let ogrinfo = "/usr/bin/ogrinfo"
    try #require(FileManager.default.isExecutableFile(atPath: ogrinfo), "ogrinfo is missing: make setup installs gdal-bin")
    try withTemporaryDirectory { dir in
      let path = dir + "/nulls.gpkg"
      try FileManager.default.copyItem(atPath: Self.data + "helsinki.gpkg", toPath: path)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ogrinfo)
      process.arguments = ["-q", path, "-sql", "UPDATE pois SET geom = NULL WHERE fid IN (1, 2)"]
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      try #require(process.terminationStatus == 0)
      let (reader, table, source) = try Self.geoPackage(path, layer: "pois")
      let (all, allInfo) = try reader.read(table, filter: nil, source: source).get().pair
      #expect(all.unlocatedCount == 2 && all.invalidCount == 0 && allInfo.featuresRead == 1607)
      let e = try #require(table.extent)
      let wide = Rect(minX: e.minX - 1, minY: e.minY - 1, maxX: e.maxX + 1, maxY: e.maxY + 1)
      for scan in [false, true] {
        let (c, info) = try reader.read(table, filter: wide, source: source, scan: scan).get().pair
        #expect(c.unlocatedCount == 0 && info.featuresRead == 1605 && c.features.count == 1605, "scan \(scan)")
      }
    }
  }

  /// A GeoPackage's layers tell their feature counts as the file opens, so
  /// a frame reads them largest first; other datasets are not opened for it.
  @Test func aGeoPackageTellsItsLayersSizesForTheReadOrder() {
    let loader = SourceLoader()
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "roads")) == 2525)
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "pois")) == 1607)
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "nope")) == nil)
    #expect(loader.ogrFeatureCountHint(OGRSource(name: "t", resolved: Self.data + "helsinki_roads.shp", layer: nil)) == nil)
  }

  /// SQLite is told not to count its memory (a process-wide mutex taken on
  /// every allocation, which two threads reading two tables took turns at),
  /// before PROJ or GDAL could start it (both are loaded by other tests in
  /// this process, in any order).
  @Test func sqliteDoesNotCountItsMemory() throws {
    _ = try SourceLoader().ogr(OGRSource(name: "t", resolved: Self.data + "helsinki.gpkg", layer: "pois"), near: nil).get()
    _ = CRSTransform.to84(from: "EPSG:3067")
    #expect(!GeoPackageReader.sqliteCountsMemory)
  }

  /// Reads are kept for the most recently used `ogrSourcesKept` sources
  /// only (a batch over many scenes would otherwise keep them all), at most
  /// `ogrReadsKept` each; a kept read still serves its source.
  @Test func keptReadsAreBoundedPerSourceAndInSources() throws {
    let loader = SourceLoader()
    let n = SourceLoader.ogrSourcesKept + 3
    let sources = (0..<n).map { OGRSource(name: "s\($0)", resolved: Self.data + "helsinki.gpkg", layer: "pois") }
    let near = Rect(minX: 24.93, minY: 60.165, maxX: 24.95, maxY: 60.175)
    for s in sources { _ = try loader.ogr(s, near: near).get() }
    #expect(loader.ogrSourcesKeptNow == Array(sources.suffix(SourceLoader.ogrSourcesKept)))
    // Using an old-but-kept source makes it the most recent.
    let old = sources[n - SourceLoader.ogrSourcesKept]
    _ = try loader.ogr(old, near: near).get()
    #expect(loader.ogrSourcesKeptNow.last == old)
    #expect(loader.ogrSourcesKeptNow.count == SourceLoader.ogrSourcesKept)
  }

  /// A layer's count is the whole layer's, whatever filter the handle's
  /// last read left set (GDAL counts with the layer's current filter).
  @Test func theLayerCountIgnoresTheLastReadsFilter() throws {
    let source = OGRSource(name: "t", resolved: Self.data + "helsinki_pois.fgb", layer: nil)
    for x in [24.93, 24.95, 24.91] {
      let (_, info) = try SourceLoader().ogr(source, near: Rect(minX: x, minY: 60.165, maxX: x + 0.01, maxY: 60.172)).get()
      #expect(info.featuresInLayer == 1607)
      #expect(info.featuresRead < 1607)
    }
  }

  // MARK: - Errors, each a layer error with what to do

  @Test func aMissingLayerNamesTheLayersAndTheClosest() throws {
    let p = try plan([#"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "road"}"#])
    let message = p.layers[0].message ?? ""
    #expect(p.layers[0].status.contains(.error))
    #expect(message.contains(#"no layer "road""#) && message.contains(#"did you mean "roads"?"#), "\(message)")
  }

  @Test func severalLayersAndNoneNamedIsAnError() throws {
    let p = try plan([#"{"ogr": "\#(Self.data)helsinki.gpkg"}"#])
    let message = p.layers[0].message ?? ""
    #expect(message.contains("has 4 layers") && message.contains(#"name one with "layer""#), "\(message)")
  }

  @Test func aDatasetWithoutAReferenceNeedsCrs() throws {
    try withTemporaryDirectory { dir in
      for ext in ["shp", "shx", "dbf", "cpg"] {
        try FileManager.default.copyItem(atPath: Self.data + "helsinki_roads." + ext, toPath: dir + "/roads." + ext)
      }
      let bare = try plan([#"{"ogr": "\#(dir)/roads.shp"}"#])
      let message = bare.layers[0].message ?? ""
      #expect(message.contains("has no spatial reference") && message.contains(#"give the source a "crs""#), "\(message)")
      let given = try plan([#"{"ogr": "\#(dir)/roads.shp", "crs": "EPSG:4326"}"#])
      #expect(given.layers[0].status.contains(.active))
      #expect(given.layers[0].ogr?.spatialReference == "EPSG:4326")
    }
  }

  @Test func aFileGDALCannotOpenIsALayerErrorWithItsMessage() throws {
    let p = try plan([#"{"ogr": "\#(Self.data)no-such.fgb"}"#])
    #expect(p.layers[0].status.contains(.error))
    #expect(p.layers[0].message?.contains("GDAL:") == true, "\(p.layers[0].message ?? "")")
    // A GeoPackage is opened by mapsnap itself (SQLite).
    let gpkg = try plan([#"{"ogr": "\#(Self.data)no-such.gpkg"}"#])
    #expect(gpkg.layers[0].message?.contains("no such file") == true, "\(gpkg.layers[0].message ?? "")")
    try withTemporaryDirectory { dir in
      try Data("not a database".utf8).write(to: URL(fileURLWithPath: dir + "/bad.gpkg"))
      let bad = try plan([#"{"ogr": "\#(dir)/bad.gpkg"}"#])
      #expect(bad.layers[0].status.contains(.error), "\(bad.layers[0].message ?? "")")
    }
  }

  @Test func underRootOnlyFilesInsideAreRead() throws {
    let database = try plan([#"{"ogr": "PG:dbname=gis"}"#], root: Repository.root)
    #expect(database.layers[0].message?.contains("not allowed under --root") == true)
    try withTemporaryDirectory { dir in
      let outside = try plan([#"{"ogr": "\#(Self.data)helsinki_pois.fgb"}"#], root: dir)
      #expect(outside.layers[0].message?.contains("outside --root") == true, "\(outside.layers[0].message ?? "")")
    }
  }

  @Test func sourceKeysAreChecked() throws {
    for (source, key) in [
      (#"{"ogr": "a.gpkg", "geojson": "a.geojson"}"#, "geojson"), (#"{"geojson": "a.geojson", "layer": "x"}"#, "layer"),
    ] {
      #expect(throws: SceneError.self) { _ = try plan([source]) }
      do {
        _ = try plan([source])
      } catch let e as SceneError {
        #expect(e.path.description == "layers[0].source.\(key)")
      }
    }
  }

  // MARK: - WKB

  private func wkb(_ bytes: [UInt8]) throws -> Geometry {
    try bytes.withUnsafeBytes { raw in try WKBReader.geometry(raw) }
  }

  private func le(_ type: UInt32, _ rest: [Double], counts: [UInt32] = []) -> [UInt8] {
    var out: [UInt8] = [1]
    withUnsafeBytes(of: type.littleEndian) { out += $0 }
    for c in counts { withUnsafeBytes(of: c.littleEndian) { out += $0 } }
    for d in rest { withUnsafeBytes(of: d.bitPattern.littleEndian) { out += $0 } }
    return out
  }

  @Test func wkbReadsEveryGeometryTypeAsGeoJSONDoes() throws {
    #expect(try wkb(le(1, [24.9, 60.1])).points == [Point(24.9, 60.1)])
    #expect(try wkb(le(1001, [1, 2, 3])).points == [Point(1, 2)], "Z is read past")
    #expect(try wkb(le(1, [.nan, .nan])).isEmpty, "an empty point")
    #expect(try wkb(le(2, [0, 0, 1, 1], counts: [2])).lines == [[Point(0, 0), Point(1, 1)]])
    // A clockwise outer ring is turned counter-clockwise, its repeat dropped.
    let square = try wkb(le(3, [0, 0, 0, 1, 1, 1, 1, 0, 0, 0], counts: [1, 5]))
    #expect(square.polygons == [[[Point(1, 0), Point(1, 1), Point(0, 1), Point(0, 0)]]])
    #expect(square.bounds == Rect(minX: 0, minY: 0, maxX: 1, maxY: 1))
    // Big endian, in a collection.
    var big: [UInt8] = [0, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    for d in [2.0, 3.0] { withUnsafeBytes(of: d.bitPattern.bigEndian) { big += $0 } }
    #expect(try wkb(big).points == [Point(2, 3)])
  }

  /// `type` with `counts` and coordinates in big-endian byte order, each
  /// position given a Z of 7 when `z` (type + 1000).
  private func be(_ type: UInt32, _ rest: [Double], counts: [UInt32] = [], z: Bool = false) -> [UInt8] {
    var out: [UInt8] = [0]
    withUnsafeBytes(of: (z ? type + 1000 : type).bigEndian) { out += $0 }
    for c in counts { withUnsafeBytes(of: c.bigEndian) { out += $0 } }
    for (i, d) in rest.enumerated() {
      withUnsafeBytes(of: d.bitPattern.bigEndian) { out += $0 }
      if z && i % 2 == 1 { withUnsafeBytes(of: (7.0).bitPattern.bigEndian) { out += $0 } }
    }
    return out
  }

  @Test func eitherByteOrderWithOrWithoutZReadsAlike() throws {
    // Little-endian x y positions (from unaligned offsets: 9 and 13 bytes
    // in), big-endian ones, and big-endian ones with a Z give the same
    // parts and bounds, for lines and rings of 2 to 1,000 positions.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53) * 360 - 180
    }
    for n in [2, 3, 17, 1000] {
      let coordinates = (0..<(2 * n)).map { _ in next() }
      let little = try wkb(le(2, coordinates, counts: [UInt32(n)]))
      #expect(little == (try wkb(be(2, coordinates, counts: [UInt32(n)]))))
      #expect(little == (try wkb(be(2, coordinates, counts: [UInt32(n)], z: true))))
      #expect(little.lines.count == 1 && little.lines[0].count == n)
      #expect(little.bounds.minX == stride(from: 0, to: 2 * n, by: 2).map { coordinates[$0] }.min())
      #expect(little.bounds.maxY == stride(from: 1, to: 2 * n, by: 2).map { coordinates[$0] }.max())
      // A ring: the first position repeated last.
      let ring = coordinates + coordinates.prefix(2)
      if n >= 3 {
        let polygon = try wkb(le(3, ring, counts: [1, UInt32(n + 1)]))
        #expect(polygon == (try wkb(be(3, ring, counts: [1, UInt32(n + 1)]))))
        #expect(polygon.polygons[0][0].count == n)
      }
    }
    // Two lines of a multi-line: the bounds of both.
    var multi: [UInt8] = [1]
    withUnsafeBytes(of: UInt32(5).littleEndian) { multi += $0 }
    withUnsafeBytes(of: UInt32(2).littleEndian) { multi += $0 }
    multi += le(2, [0, 0, 1, 1], counts: [2]) + le(2, [-5, 2, 3, 9], counts: [2])
    #expect(try wkb(multi).bounds == Rect(minX: -5, minY: 0, maxX: 3, maxY: 9))
    // A position that is not finite, or empty, inside a line is refused.
    #expect(throws: WKBReader.Issue(message: "a position that is not finite")) {
      try wkb(le(2, [0, 0, 1, .infinity, 2, 2], counts: [3]))
    }
    #expect(throws: WKBReader.Issue(message: "an empty position inside a line or ring")) {
      try wkb(le(2, [0, 0, .nan, .nan, 2, 2], counts: [3]))
    }
    #expect(throws: WKBReader.Issue(message: "a position that is not finite")) {
      try wkb(le(2, [0, 0, .nan, 1], counts: [2]))
    }
  }

  @Test func malformedWKBIsRefusedWithoutAllocatingItsCounts() {
    #expect(throws: WKBReader.Issue.self) { try wkb(le(2, [0, 0], counts: [0xFFFF_FFF0])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(3, [0, 0, 1, 1, 0, 0], counts: [1, 3])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(3, [0, 0, 1, 0, 1, 1, 0, 1], counts: [1, 4])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(8, [0, 0, 1, 1, 2, 0], counts: [3])) }
    #expect(throws: WKBReader.Issue.self) { try wkb(Array(le(1, [1, 2]).dropLast())) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(1, [1, 2]) + [0]) }
    #expect(throws: WKBReader.Issue.self) { try wkb(le(1, [.infinity, 2])) }
  }
}

extension FeatureRead {
  /// The features and what the read found, to destructure.
  fileprivate var pair: (FeatureCollection, Info) { (collection, info) }
}
