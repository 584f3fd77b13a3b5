import Foundation
import _MapSnapTestSupport

/// Small scenes written into a test's temporary directory. The map is around
/// Helsinki at 1:2000: 160×120 logical pixels span about 0.0007° of longitude
/// and 0.00025° of latitude, so the geometry below is well inside the view.
enum Fixture {
  static let center = (lon: 24.94, lat: 60.17)

  /// Two polygons (a square with a hole, and a triangle).
  static let areasGeoJSON = """
    { "type": "FeatureCollection", "features": [
      { "type": "Feature", "id": 1, "properties": { "kind": "park" },
        "geometry": { "type": "Polygon", "coordinates": [
          [[24.9397, 60.1699], [24.9403, 60.1699], [24.9403, 60.1701], [24.9397, 60.1701], [24.9397, 60.1699]],
          [[24.9399, 60.16995], [24.9401, 60.16995], [24.9401, 60.17005], [24.9399, 60.17005], [24.9399, 60.16995]] ] } },
      { "type": "Feature", "id": 2, "properties": { "kind": "water" },
        "geometry": { "type": "Polygon", "coordinates": [
          [[24.9402, 60.16992], [24.9404, 60.16992], [24.9403, 60.17008], [24.9402, 60.16992]] ] } }
    ] }
    """

  /// Three lines, one of them dashed by its rule.
  static let roadsGeoJSON = """
    { "type": "FeatureCollection", "features": [
      { "type": "Feature", "properties": { "highway": "primary" },
        "geometry": { "type": "LineString", "coordinates": [[24.9396, 60.16990], [24.9404, 60.17010]] } },
      { "type": "Feature", "properties": { "highway": "footway" },
        "geometry": { "type": "LineString", "coordinates": [[24.9396, 60.17008], [24.9400, 60.16996], [24.9404, 60.17004]] } },
      { "type": "Feature", "properties": { "highway": "residential" },
        "geometry": { "type": "MultiLineString", "coordinates": [
          [[24.9397, 60.17000], [24.9403, 60.17000]], [[24.94, 60.16991], [24.94, 60.17009]] ] } }
    ] }
    """

  /// Scene JSON: `areas` (data/areas.geojson), `roads` (a file given by
  /// `roadsPath`), and `route` (graphics). `map` entries are spliced into the map block.
  static func sceneJSON(
    roadsPath: String = "data/roads.geojson", size: (Int, Int) = (160, 120), pixelRatio: Double? = nil,
    extraLayers: [String] = []
  ) -> String {
    var map = """
      "center": [\(center.lon), \(center.lat)], "scale": 2000, "size": [\(size.0), \(size.1)], "background": "#f2efe9"
      """
    if let pixelRatio { map += ", \"pixelRatio\": \(pixelRatio)" }
    let layers = [
      """
      { "id": "areas", "type": "features", "source": { "geojson": "data/areas.geojson" },
        "rules": [
          { "where": { "kind": "park" }, "style": { "fill": "#c8e6b0", "fillRule": "evenodd", "stroke": "#6a8f4f", "strokeWidth": 1 } },
          { "where": { "kind": "water" }, "style": { "fill": "rgba(80, 140, 220, 0.7)" } } ] }
      """,
      """
      { "id": "roads", "type": "features", "source": { "geojson": "\(roadsPath)" },
        "rules": [
          { "where": { "highway": "primary" }, "style": { "stroke": "#f4a", "strokeWidth": 6, "lineCap": "round", "lineJoin": "round" } },
          { "where": { "highway": "footway" }, "style": { "stroke": "#888", "strokeWidth": 1.5, "strokeDash": [3, 2] } },
          { "style": { "stroke": "#ccc", "strokeWidth": 3, "lineJoin": "bevel" } } ] }
      """,
      """
      { "id": "route", "type": "graphics", "opacity": 0.8, "graphics": [
        { "id": "g1", "geometry": { "type": "LineString", "coordinates": [[24.9397, 60.16993], [24.9400, 60.17006], [24.9403, 60.16993]] },
          "style": { "stroke": "#06f", "strokeWidth": 4, "lineCap": "round" } },
        { "id": "g2", "geometry": { "type": "Point", "coordinates": [24.94, 60.17] },
          "style": { "marker": { "shape": "circle", "size": 10, "fill": "#e63946", "stroke": "#ffffff", "strokeWidth": 1.5 } } } ] }
      """,
    ] + extraLayers
    return """
      {
        "version": 1,
        "map": { \(map) },
        "layers": [
      \(layers.joined(separator: ",\n"))
        ]
      }

      """
  }

  /// Writes `scene.json` plus `data/areas.geojson` and `data/roads.geojson`
  /// into `directory`; returns the scene's path.
  @discardableResult
  static func write(
    in directory: String, name: String = "scene.json", roadsPath: String = "data/roads.geojson",
    size: (Int, Int) = (160, 120), pixelRatio: Double? = nil, writeRoads: Bool = true
  ) throws -> String {
    try Files.write(areasGeoJSON, to: directory + "/data/areas.geojson")
    if writeRoads { try Files.write(roadsGeoJSON, to: directory + "/data/roads.geojson") }
    let path = directory + "/" + name
    try Files.write(sceneJSON(roadsPath: roadsPath, size: size, pixelRatio: pixelRatio), to: path)
    return path
  }

  /// The example scene shipped with the package (real data, several layers).
  static var helsinkiExample: String { Repository.root + "/Examples/helsinki.json" }
}
