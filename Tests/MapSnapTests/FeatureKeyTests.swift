import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// One rule keys the features of every source kind (`FeatureKey`): an id,
/// else a digest of geometry and used properties, so that the same data
/// gives the same report keys from any format and in any order; sublayer
/// totals count the features that can reach the frame, for every source kind.
@Suite struct FeatureKeyTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])
  static let data = Repository.root + "/Examples/data/"

  private func plan(_ layers: [String], scale: Double = 4000, center: String = "[24.9412, 60.1704]") throws -> FramePlan {
    let body = #"{"version": 1, "map": {"center": \#(center), "scale": \#(scale), "size": [480, 360]}, "layers": [\#(layers.joined(separator: ","))]}"#
    return try FramePlan.make(try SceneLoader.decode(Array(body.utf8), file: "t.json", baseDirectory: Self.data), fonts: fonts)
  }

  /// (key, part) → text of a layer's report entries (labels, or texts).
  private func keyed(_ report: JSONValue, layer: Int, texts: Bool = false, placedOnly: Bool = false) -> [String: String] {
    let entries = texts ? report["layers"]?[layer]?["texts"] : report["layers"]?[layer]?["labels"]?["entries"]
    guard case .array(let list)? = entries else { return [:] }
    var out: [String: String] = [:]
    for e in list {
      guard case .string(let key)? = e["key"], case .number(let part)? = e["part"], case .string(let text)? = e["text"] else { continue }
      if placedOnly, e["outcome"] == .string("outOfBounds") { continue }
      out["\(key)/\(Int(part))"] = text
    }
    return out
  }

  /// The Golden cases `ogr` and `ogr-geojson` draw the same data from
  /// GeoPackage, Shapefile, File Geodatabase and FlatGeobuf, and from
  /// GeoJSON: every entry the `ogr` frame lists has the key and text the
  /// GeoJSON frame gives it, and both list the same entries that can reach
  /// the image (the GeoJSON frame also lists candidates farther out: it
  /// bounds its reach by the longest text, the `ogr` read by a fixed bound).
  @Test(arguments: [4000.0, 8000])
  func theGoldenFormatsGiveTheSameKeys(_ scale: Double) throws {
    func report(_ name: String) throws -> JSONValue {
      let scene = try SceneLoader.load(path: Repository.root + "/Golden/\(name)/scene.json")
      return try FramePlan.make(scene, overrides: ViewOverrides(scale: scale), fonts: fonts).report
    }
    let ogr = try report("ogr")
    let geojson = try report("ogr-geojson")
    var compared = 0
    for layer in 0..<4 {
      #expect(ogr["layers"]?[layer]?["features"]?["total"] == geojson["layers"]?[layer]?["features"]?["total"])
      let a = keyed(ogr, layer: layer)
      let b = keyed(geojson, layer: layer)
      for (key, text) in a { #expect(b[key] == text, "layer \(layer): \(key)") }
      #expect(Set(keyed(ogr, layer: layer, placedOnly: true).keys) == Set(keyed(geojson, layer: layer, placedOnly: true).keys))
      compared += a.count
    }
    #expect(compared > 300)
  }

  /// FID numbering differs by driver: no `ogr` feature is keyed by it.
  @Test func anOGRFeatureIsNotKeyedByItsFID() throws {
    let layer = #"{"id": "p", "type": "features", "source": {"ogr": "ogr/helsinki_pois.fgb"}, "style": {"marker": {}, "label": {"field": "name"}}}"#
    let r = try plan([layer]).report
    guard case .array(let entries)? = r["layers"]?[0]?["labels"]?["entries"], let first = entries.first else {
      Issue.record("no entries")
      return
    }
    #expect(first["id"] == .null)
    #expect(first["index"] == nil)
    guard case .string(let key)? = first["key"] else {
      Issue.record("no key")
      return
    }
    #expect(key.count == 12 && key.allSatisfy(\.isHexDigit))
  }

  /// The same features in another order get the same keys; features alike
  /// in geometry and used properties are numbered in read order.
  @Test func keysDoNotDependOnOrderAndDuplicatesAreNumbered() throws {
    let features = [
      #"{"type": "Feature", "properties": {"name": "A", "other": 1}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#,
      #"{"type": "Feature", "properties": {"name": "B"}, "geometry": {"type": "Point", "coordinates": [0.0001, 0]}}"#,
      #"{"type": "Feature", "properties": {"name": "A", "other": 2}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#,
      #"{"type": "Feature", "id": 9, "properties": {"name": "C"}, "geometry": {"type": "Point", "coordinates": [0, 0.0001]}}"#,
    ]
    func keys(_ list: [String]) throws -> [String: String] {
      let layer =
        #"{"id": "p", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [\#(list.joined(separator: ","))]}}, "style": {"marker": {}, "label": {"field": "name"}}}"#
      return keyed(try plan([layer], scale: 1000, center: "[0, 0]").report, layer: 0)
    }
    let forward = try keys(features)
    let backward = try keys(features.reversed())
    #expect(forward == backward)
    #expect(forward["9/0"] == "C")
    let a = forward.filter { $0.value == "A" }.keys.sorted()
    #expect(a.count == 2)
    // `other` is used by nothing: the two A are alike, the second numbered.
    #expect(a.count == 2 && a[0] == a[1].replacingOccurrences(of: "/0", with: "-2/0"))
  }

  /// A sublayer counts its features that can reach the frame, from a file
  /// as from an `ogr` read, whatever else the file holds.
  @Test func sublayerTotalsCountWhatCanReachTheFrame() throws {
    func anno(_ source: String) -> String {
      #"{"id": "a", "type": "annotation", "source": \#(source), "textField": "name", "referenceScale": 4000, "sublayers": [{"id": "shops", "where": {"category": "shop"}, "style": {"size": 9}}, {"id": "rest", "style": {"size": 9}}]}"#
    }
    let file = try plan([anno(#"{"geojson": "helsinki_pois.geojson"}"#)]).layers[0]
    let fgb = try plan([anno(#"{"ogr": "ogr/helsinki_pois.fgb"}"#)]).layers[0]
    #expect(file.sublayers.map(\.features.total) == fgb.sublayers.map(\.features.total))
    #expect(file.features.total == 1607 && fgb.features.total == 1607)
    #expect(file.sublayers.map(\.features.total).reduce(0, +) < 1607)
    #expect(file.sublayers[0].features.total > 0)
    let r = try plan([anno(#"{"ogr": "ogr/helsinki_pois.fgb"}"#)]).report
    let g = try plan([anno(#"{"geojson": "helsinki_pois.geojson"}"#)]).report
    let fromFile = keyed(g, layer: 0, texts: true)
    let fromRead = keyed(r, layer: 0, texts: true)
    #expect(fromRead.count > 100)
    for (key, text) in fromRead { #expect(fromFile[key] == text, "\(key)") }
  }
}
