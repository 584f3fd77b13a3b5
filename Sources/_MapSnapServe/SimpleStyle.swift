public import MapSnap

/// The simplestyle-spec properties of a GeoJSON overlay (version 1.1.0, as
/// the Mapbox Static API reads them), turned into mapsnap overlays, one per
/// feature so that each keeps its own style:
///
/// | property | default | drawn as |
/// |---|---|---|
/// | `marker-color` | `#7e7e7e` | a point's pin colour |
/// | `marker-size` | `medium` | `small` 14, `medium` 17, `large` 20 logical pixels |
/// | `marker-symbol` | none | the pin's label: a letter or a number 0–99 (a Maki name is refused) |
/// | `stroke`, `stroke-width`, `stroke-opacity` | `#555555`, 2, 1 | a line's or polygon's outline |
/// | `fill`, `fill-opacity` | `#555555`, 0.6 | a polygon's inside |
public enum SimpleStyle {
  static let markerSizes: [String: Double] = ["small": 14, "medium": 17, "large": 20]

  /// The overlays of a GeoJSON geometry, Feature or FeatureCollection.
  public static func overlays(_ value: JSONValue, part: String) throws(ServeError) -> [JSONValue] {
    guard case .object(let o) = value, case .string(let type)? = o["type"] else {
      throw .badRequest(part, expected: "GeoJSON: an object with a \"type\"")
    }
    switch type {
    case "FeatureCollection":
      guard case .array(let features)? = o["features"] else {
        throw .badRequest(part, expected: "a FeatureCollection with a \"features\" array")
      }
      var out: [JSONValue] = []
      for f in features { out += try overlays(f, part: part) }
      return out
    case "Feature":
      var properties = JSONObject()
      if case .object(let p)? = o["properties"] { properties = p }
      guard let geometry = o["geometry"], case .object(let g) = geometry else {
        throw .badRequest(part, expected: "a Feature with a \"geometry\" object")
      }
      return try feature(geometry: g, properties: properties, part: part)
    default:
      return try feature(geometry: o, properties: JSONObject(), part: part)
    }
  }

  static func feature(geometry g: JSONObject, properties p: JSONObject, part: String) throws(ServeError) -> [JSONValue] {
    func string(_ k: String) -> String? { if case .string(let s)? = p[k] { s } else { nil } }
    func number(_ k: String, in range: ClosedRange<Double>, _ d: Double) throws(ServeError) -> Double {
      guard let v = p[k] else { return d }
      guard case .number(let n) = v, range.contains(n) else {
        throw .badRequest(part, expected: "\"\(k)\": a number from \(range.lowerBound) to \(range.upperBound)")
      }
      return n
    }
    func color(_ k: String, _ d: String, opacity: Double) throws(ServeError) -> String {
      let text = string(k) ?? d
      guard let c = rgba(text, opacity: opacity) else {
        throw .badRequest(part, expected: "\"\(k)\": a colour such as #f00 or #ff0000")
      }
      return c
    }
    switch g["type"] {
    case .string("Point"), .string("MultiPoint"):
      var points: [JSONValue] = []
      if case .string("Point")? = g["type"], let c = g["coordinates"] { points = [c] }
      if case .string("MultiPoint")? = g["type"], case .array(let cs)? = g["coordinates"] { points = cs }
      let size = markerSizes[string("marker-size") ?? "medium"]
      guard let size else { throw .badRequest(part, expected: "\"marker-size\": small, medium or large") }
      let label = try string("marker-symbol").map { (s: String) throws(ServeError) -> String in try StaticOverlayParser.pinLabel(Substring(s), item: part) }
      let c = try color("marker-color", "#7e7e7e", opacity: 1)
      return points.map { at in
        var m: JSONObject = ["marker": at, "size": .number(size), "color": .string(c)]
        if let label { m["label"] = .string(label) }
        return .object(m)
      }
    default:
      let width = try number("stroke-width", in: 0...100, 2)
      var style: JSONObject = [
        "stroke": .string(try color("stroke", "#555555", opacity: try number("stroke-opacity", in: 0...1, 1))),
        "strokeWidth": .number(width), "lineJoin": "round", "lineCap": "round",
      ]
      if case .string(let t)? = g["type"], t.hasSuffix("Polygon") || t == "GeometryCollection" {
        style["fill"] = .string(try color("fill", "#555555", opacity: try number("fill-opacity", in: 0...1, 0.6)))
      }
      return [["geojson": ["type": "Feature", "geometry": .object(g), "properties": [:]], "style": .object(style)]]
    }
  }

  /// `color` (any colour mapsnap reads) with its alpha times `opacity`, as
  /// `rgba(…)`; nil when `color` is not a colour.
  static func rgba(_ color: String, opacity: Double) -> String? {
    guard let c = ColorParser.parse(color) else { return nil }
    let a = Double(c.a) / 255 * opacity
    return "rgba(\(c.r), \(c.g), \(c.b), \((a * 1000).rounded() / 1000))"
  }
}
