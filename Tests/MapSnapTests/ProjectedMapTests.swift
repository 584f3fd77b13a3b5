import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Maps in a projected reference other than Web Mercator (scene format 1.1
/// and 1.2): ArcGIS's scale rule in metres and feet, axes east and north,
/// the view in map units, and the proof that the Helsinki POIs, projected by
/// mapsnap into ETRS-TM35FIN (EPSG:3067), land where Mapnik drew them on the
/// 3067 basemap (`Examples/data/tiles/helsinki-3067*`, made by
/// `scripts/make-helsinki-3067-tiles.py`, with a #D6336C disc on each POI).
@Suite struct ProjectedMapTests {
  static let data = Repository.root + "/Examples/data"
  /// The middle of the basemap's data, in EPSG:3067 metres.
  static let middle = (x: 385_942.0, y: 6_672_300.0)

  private func scene(_ layers: [String], map: String) throws -> Scene {
    let json = #"{"version": 1, "map": {\#(map)}, "layers": [\#(layers.joined(separator: ","))]}"#
    return try SceneLoader.decode(Array(json.utf8), file: "projected.json", baseDirectory: Self.data)
  }

  private static let pois = #"{"id": "pois", "type": "features", "source": {"geojson": "helsinki_pois.geojson"}, "style": {"marker": {}}}"#

  @Test func aNationalGridIsTheMapsReference() throws {
    let map = #""spatialReference": "EPSG:3067", "viewCrs": "map", "center": [385950, 6672000], "scale": 5000, "size": [400, 300]"#
    let plan = try FramePlan.make(try scene([Self.pois], map: map))
    let v = plan.state.viewport
    #expect(v.projection.identifier == "EPSG:3067" && v.projection.unitName == "metre")
    #expect(abs(v.unitsPerPixel - 5000 / (96 * 39.37)) < 1e-12)
    #expect(abs(v.centerMap.x - 385_950) < 1e-6 && abs(v.centerMap.y - 6_672_000) < 1e-6)
    #expect(v.zoom == nil)
    #expect(plan.layers[0].drawnFeatures > 50)
    let report = ReportBuilder(plan: plan).build()
    guard case .object(let root) = report, case .object(let m)? = root["map"] else { Issue.record("no map block"); return }
    #expect(m["spatialReference"] == .number(3067))
    #expect(m["units"] == .string("metre"))
    #expect(m["zoom"] == .null)
    // A number alone is an EPSG code; ESRI's Web Mercator is 3857.
    for (given, expected) in [("3067", "EPSG:3067"), ("\"ESRI:102100\"", "EPSG:3857"), ("\"urn:ogc:def:crs:EPSG::32635\"", "EPSG:32635")] {
      let s = try scene([], map: #""spatialReference": \#(given), "center": [24.94, 60.17], "scale": 5000, "size": [10, 10]"#)
      #expect(try FramePlan.make(s).state.viewport.projection.identifier == expected)
    }
  }

  @Test func zoomOnAMapWithoutATileMatrixSetIsAnErrorNamingScale() throws {
    let s = try scene([], map: #""spatialReference": 3067, "center": [24.94, 60.17], "zoom": 12, "size": [10, 10]"#)
    let error = #expect(throws: SceneError.self) { try FramePlan.make(s) }
    #expect(error?.path == "map.zoom")
    #expect(error?.message.contains("\"scale\"") == true)
  }

  /// Lambert's azimuthal equal-area has no image of its centre's antipode:
  /// that feature is skipped, counted, and makes the layer a warning.
  @Test func featuresPROJCannotProjectAreSkippedAndCounted() throws {
    let data = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [10, 52]}, "properties": {}}, {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-170, -52]}, "properties": {}}]}"#
    let layer = #"{"id": "p", "type": "features", "source": {"data": \#(data)}, "style": {"marker": {}}}"#
    let plan = try FramePlan.make(try scene([layer], map: #""spatialReference": "EPSG:3035", "center": [10, 52], "scale": 50000, "size": [100, 100]"#))
    #expect(plan.layers[0].status == [.active, .warning])
    #expect(plan.layers[0].problems == [.unprojectable(count: 1, crs: "")])
    #expect(plan.layers[0].drawnFeatures == 1)
    #expect(plan.layers[0].message?.contains("skipped 1 feature that could not be projected into the map's spatial reference") == true)
  }

  /// A box of degrees on a transverse Mercator is not a box there: its
  /// edges are sampled, so the fitted frame holds the whole south edge
  /// (lowest at the central meridian) and the far corner.
  @Test func aBoxOfDegreesFitsWholeOnANationalGrid() throws {
    let s = try scene([], map: #""spatialReference": "EPSG:3067", "bounds": [20, 59.5, 32, 70], "size": [400, 400]"#)
    let v = try FramePlan.make(s).state.viewport
    let e = v.extent
    for (lon, lat) in [(27.0, 59.5), (32.0, 59.5), (20.0, 59.5), (32.0, 70.0), (20.0, 70.0), (27.0, 70.0)] {
      let p = v.projection.project(lon: lon, lat: lat)
      // Within a pixel: the edges are sampled, 17 points each.
      let d = v.unitsPerPixel
      #expect(p.x >= e.minX - d && p.x <= e.maxX + d && p.y >= e.minY - d && p.y <= e.maxY + d, "\(lon), \(lat)")
    }
    // The report's bounds in degrees hold the frame's edges too.
    let b = v.bounds
    #expect(b.west <= 20 && b.east >= 32 && b.south <= 59.5 && b.north >= 70)
  }

  /// A centre the map's reference cannot place is an input error, not a blank frame.
  @Test func aCentreTheReferenceCannotPlaceIsAnInputError() throws {
    let s = try scene([], map: #""spatialReference": "EPSG:3035", "center": [-170, -52], "scale": 50000, "size": [100, 100]"#)
    let error = #expect(throws: SceneError.self) { try FramePlan.make(s) }
    #expect(error?.path == "map.center")
    let far = try scene([], map: #""spatialReference": "EPSG:3067", "viewCrs": "map", "center": [1e11, 1e11], "scale": 5000, "size": [100, 100]"#)
    #expect(throws: SceneError.self) { try FramePlan.make(far) }
  }

  /// A feature with no position at all is not "unprojectable".
  @Test func emptyGeometriesAreNotUnprojectable() throws {
    let data = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": []}, "properties": {}}, {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.94, 60.17]}, "properties": {}}]}"#
    let layer = #"{"id": "p", "type": "features", "source": {"data": \#(data)}, "style": {"marker": {}}}"#
    let plan = try FramePlan.make(try scene([layer], map: #""spatialReference": 3067, "center": [24.94, 60.17], "scale": 5000, "size": [100, 100]"#))
    #expect(plan.layers[0].problems.isEmpty, "\(plan.layers[0].problems)")
    #expect(plan.layers[0].drawnFeatures == 1)
  }

  /// EPSG:2263 (New York Long Island, US survey feet): 12 inches per unit.
  @Test func aStatePlaneInFeetCountsTwelveInchesPerUnit() throws {
    let s = try scene([], map: #""spatialReference": 2263, "center": [-73.98, 40.75], "scale": 2400, "size": [10, 10]"#)
    let v = try FramePlan.make(s).state.viewport
    #expect(v.projection.unitName.contains("foot"))
    #expect(abs(v.unitsPerPixel - 2400 / (96 * 12)) < 1e-12)
    #expect(abs(v.metersPerPixel - v.unitsPerPixel * 1200 / 3937) < 1e-9)
  }

  /// EPSG:3035 declares northing first, EPSG:4258 latitude first: the map
  /// draws x east and y north all the same.
  @Test(arguments: ["EPSG:3035", "EPSG:4258", "EPSG:32635"])
  func axesRunEastAndNorth(_ crs: String) throws {
    let p = try MapProjection.named(crs).get()
    let a = p.project(lon: 24.9, lat: 60.1)
    let east = p.project(lon: 25.0, lat: 60.1)
    let north = p.project(lon: 24.9, lat: 60.2)
    #expect(east.x > a.x && abs(east.y - a.y) < abs(east.x - a.x) / 2)
    #expect(north.y > a.y && abs(north.x - a.x) < abs(north.y - a.y) / 2)
    let back = p.unproject(a)
    #expect(abs(back.lon - 24.9) < 1e-8 && abs(back.lat - 60.1) < 1e-8)
    #expect(p.isGeographic == (crs == "EPSG:4258"))
  }

  /// The same ground box fitted in 3857 and in 3067 shows the same POIs.
  @Test func framesFittedToOneGroundBoxDrawTheSameFeatures() throws {
    let box = "[385600, 6671800, 386300, 6672700]"
    var drawn: [Set<String>] = []
    for reference in ["3857", "3067"] {
      let map = #""spatialReference": \#(reference), "viewCrs": "EPSG:3067", "bounds": \#(box), "size": [600, 600]"#
      let plan = try FramePlan.make(try scene([Self.pois], map: map))
      let e = plan.state.viewport.extent
      var shown: Set<String> = []
      for d in plan.state.layers[0].drawables {
        let p = d.geometry.points[0]
        // Inside the fitted box's own projection of itself, whichever map.
        let q = plan.state.viewport.projection.unproject(p)
        let t = try MapProjection.named("EPSG:3067").get().project(lon: q.lon, lat: q.lat)
        if t.x >= 385_600, t.x <= 386_300, t.y >= 6_671_800, t.y <= 6_672_700, p.x >= e.minX, p.x <= e.maxX, p.y >= e.minY, p.y <= e.maxY { shown.insert("\(d.order)") }
      }
      drawn.append(shown)
    }
    #expect(drawn[0].count > 20)
    #expect(drawn[0] == drawn[1])
  }

  /// Where mapsnap puts each POI and where Mapnik drew its disc on the
  /// 3067 basemap agree within half a pixel, from 1:500 to 1:20000, for the
  /// XYZ folder with its TileMatrixSet JSON and for the GeoPackage.
  @Test(arguments: [
    #"{"xyz": "tiles/helsinki-3067/{z}/{x}/{y}.png"}"#, #"{"geopackage": "tiles/helsinki-3067.gpkg"}"#,
  ])
  func poisLandWhereTheBasemapDrewThem(_ source: String) throws {
    let basemap = #"{"id": "kartta", "type": "tiles", "source": \#(source)}"#
    var checked = 0
    for scale in [500.0, 1000, 2000, 5000, 10000, 20000] {
      let map = #""viewCrs": "map", "center": [\#(Self.middle.x), \#(Self.middle.y)], "scale": \#(scale), "size": [512, 512]"#
      let picture = try Snapshot.render(try scene([basemap], map: map))
      #expect(picture.layers[0].status.contains(.active), "1:\(scale)")
      #expect(picture.state.viewport.projection.identifier == "EPSG:3067")
      let plan = try FramePlan.make(try scene([basemap, Self.pois], map: map))
      let v = plan.state.viewport
      let points = plan.state.layers[1].drawables.map { v.toDevice($0.geometry.points[0]) }
      // The disc's size on screen: 6 px of the level's tiles.
      let level = try #require(picture.layers[0].tiles).zoom
      let disc = 6 * (8192 / Double(1 << level)) / (v.unitsPerPixel / v.pixelRatio)
      let apart = max(12, 3 * disc)
      for (i, p) in points.enumerated() {
        guard p.x > apart, p.y > apart, p.x < 512 - apart, p.y < 512 - apart else { continue }
        guard !points.indices.contains(where: { $0 != i && abs(points[$0].x - p.x) < apart && abs(points[$0].y - p.y) < apart }) else { continue }
        let c = try #require(Self.discCentre(picture, near: p, radius: disc))
        #expect(abs(c.x - p.x) < 0.5 && abs(c.y - p.y) < 0.5, "1:\(scale): POI at \(p), disc at \(c)")
        checked += 1
      }
    }
    #expect(checked > 100)
  }

  /// The centroid of the #D6336C pixels within `radius` + 2 of `p`, each
  /// weighed by how close it is to that colour.
  static func discCentre(_ s: Snapshot, near p: Point, radius: Double) -> Point? {
    let r = Int(radius.rounded(.up)) + 2
    var (sx, sy, sw) = (0.0, 0.0, 0.0)
    for y in max(0, Int(p.y) - r)...min(511, Int(p.y) + r) {
      for x in max(0, Int(p.x) - r)...min(511, Int(p.x) + r) {
        let px = s.canvas.buffer[y * 512 + x]
        let d = abs(Double(px & 0xFF) - 0xD6) + abs(Double((px >> 8) & 0xFF) - 0x33) + abs(Double((px >> 16) & 0xFF) - 0x6C)
        let w = max(0, 1 - d / 60)
        sx += w * (Double(x) + 0.5)
        sy += w * (Double(y) + 0.5)
        sw += w
      }
    }
    return sw > 0 ? Point(sx / sw, sy / sw) : nil
  }
}
