import Foundation
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

  func plan(_ sources: [String], scale: Double = 4000, root: String? = nil, threads: Int = 0) throws -> FramePlan {
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
}
