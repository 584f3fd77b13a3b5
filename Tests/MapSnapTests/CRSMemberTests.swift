import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// A GeoJSON file's legacy `crs` member (as `ogr2ogr` writes it) names the
/// reference its coordinates are in, as GDAL, QGIS and ArcGIS read it; the
/// scene's `crs` wins when both are given; coordinates that cannot be
/// degrees where nothing names a reference are a layer `warning`.
@Suite struct CRSMemberTests {
  static let data = Repository.root + "/Examples/data"

  /// helsinki_pois_3067.geojson with the member `ogr2ogr` writes, in a
  /// temporary folder.
  private func projectedFile(member: String?) throws -> String {
    var text = try String(contentsOfFile: Self.data + "/helsinki_pois_3067.geojson", encoding: .utf8)
    if let member {
      text = text.replacingOccurrences(
        of: #"{"type": "FeatureCollection", "features""#,
        with: #"{"type": "FeatureCollection", "crs": { "type": "name", "properties": { "name": "\#(member)" } }, "features""#)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crs-member-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/pois.geojson"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  private func plan(_ source: String) throws -> FramePlan {
    let json =
      #"{"version": 1, "map": {"center": [24.9414, 60.1696], "scale": 2000, "size": [800, 600]}, "layers": [{"id": "p", "type": "features", "source": \#(source), "style": {"marker": {}}}]}"#
    return try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "crs.json", baseDirectory: Self.data))
  }

  private func reference(_ plan: FramePlan) -> JSONValue? {
    guard case .object(let r) = plan.report, case .array(let layers)? = r["layers"], case .object(let l)? = layers.first else { return nil }
    return l["spatialReference"]
  }

  @Test(arguments: ["urn:ogc:def:crs:EPSG::3067", "EPSG:3067", "urn:ogc:def:crs:EPSG:6.6:3067"])
  func theFilesMemberIsHonoured(_ name: String) throws {
    let wgs = try plan(#"{"geojson": "helsinki_pois.geojson"}"#).layers[0]
    let p = try plan(#"{"geojson": "\#(try projectedFile(member: name))"}"#)
    let l = p.layers[0]
    #expect(l.status == [.active])
    #expect(l.drawables.count == wgs.drawables.count && l.drawables.count > 50)
    #expect(reference(p) == .object(JSONObject([("crs", .string("EPSG:3067")), ("from", .string("file")), ("overrides", .null)])))
  }

  @Test func theScenesCRSWinsAndTheReportSaysSo() throws {
    let file = try projectedFile(member: "urn:ogc:def:crs:EPSG::2393")
    let p = try plan(#"{"geojson": "\#(file)", "crs": "EPSG:3067"}"#)
    #expect(p.layers[0].status == [.active])
    #expect(p.layers[0].drawables.count > 50)
    #expect(reference(p) == .object(JSONObject([("crs", .string("EPSG:3067")), ("from", .string("scene")), ("overrides", .string("EPSG:2393"))])))
  }

  @Test func coordinatesThatCannotBeDegreesWarn() throws {
    let p = try plan(#"{"geojson": "\#(try projectedFile(member: nil))"}"#)
    let l = p.layers[0]
    #expect(l.status == [.active, .warning])
    guard case .notDegrees(let n, let total)? = l.problems.first else {
      Issue.record("no notDegrees problem: \(l.problems)")
      return
    }
    #expect(n == total && n > 1000)
    #expect(l.problems.first?.hint?.contains("\"crs\"") == true)
    #expect(reference(p) == nil)
    // Degrees named by nothing are not warned about.
    #expect(try plan(#"{"geojson": "helsinki_pois.geojson"}"#).layers[0].problems.isEmpty)
  }

  /// A file's code PROJ does not know: the layer is `error`, naming it.
  @Test func anUnknownFileReferenceIsALayerError() throws {
    let l = try plan(#"{"geojson": "\#(try projectedFile(member: "urn:ogc:def:crs:EPSG::999999"))"}"#).layers[0]
    #expect(l.status.contains(.error))
    #expect(l.message?.contains("EPSG:999999") == true, "\(l.message ?? "")")
  }

  @Test(arguments: [
    ("urn:ogc:def:crs:EPSG::3067", "EPSG:3067"), ("EPSG:3067", "EPSG:3067"), ("urn:ogc:def:crs:OGC:1.3:CRS84", "OGC:CRS84"),
    ("urn:ogc:def:crs:OGC::CRS84", "OGC:CRS84"), ("epsg:4326", "EPSG:4326"), ("not a reference", nil), ("urn:x:3067", nil),
  ])
  func theMembersSpellings(_ name: String, _ expected: String?) {
    let member = JSONValue.object(JSONObject([("type", .string("name")), ("properties", .object(JSONObject([("name", .string(name))])))]))
    #expect(GeoJSONDecoder.declaredReference(member) == expected)
  }

  /// CRS84 names degrees: read as they are, with no warning.
  @Test func crs84IsDegrees() throws {
    let text = #"{"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}, "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [24.9414, 60.1696]}}]}"#
    let p = try plan(#"{"data": \#(text)}"#)
    #expect(p.layers[0].status == [.active] && p.layers[0].drawables.count == 1)
    #expect(reference(p) == .object(JSONObject([("crs", .string("OGC:CRS84")), ("from", .string("file")), ("overrides", .null)])))
  }

  /// The fast reader and the reference decoder read the member alike.
  @Test func bothReadersReadTheMember() throws {
    let bytes = Array(try String(contentsOfFile: try projectedFile(member: "urn:ogc:def:crs:EPSG::3067"), encoding: .utf8).utf8)
    let fast = try #require(GeoJSONFastReader.read(bytes))
    #expect(fast.declaredCRS == "EPSG:3067")
    #expect(SourceLoader._fastReaderDisagreement(bytes) == nil)
    let afterFeatures = Array(#"{"type": "FeatureCollection", "features": [], "crs": {"type": "name", "properties": {"name": "EPSG:2393"}}}"#.utf8)
    #expect(GeoJSONFastReader.read(afterFeatures)?.declaredCRS == "EPSG:2393")
    #expect(SourceLoader._fastReaderDisagreement(afterFeatures) == nil)
  }
}
