public import _MapSnapJSON

/// A MapLibre / Mapbox GL style (specification v8) as the renderer reads it:
/// its camera, sources and layers in paint order. Built only from a document
/// that can be drawn (`StyleDocumentError` otherwise); every other finding
/// is the validator's warning, and the value in question takes the
/// specification's default.
package struct StyleDocument: Sendable {
  package var name: String?
  /// The style's camera: `center` [lon, lat], `zoom` (MapLibre's, 512-pixel
  /// tiles), `bearing` (degrees clockwise), `pitch` (degrees).
  package var center: (lon: Double, lat: Double)?
  package var zoom: Double?
  package var bearing: Double
  package var pitch: Double
  /// Sources in document order.
  package var sources: [StyleSource]
  package var layers: [StyleLayer]
  /// `sprite` as a list of (id, URL): a plain string is the one sprite `default`.
  package var sprites: [(id: String, url: String)]
  package var glyphs: String?
  /// The whole document.
  package var json: JSONObject

  /// The source named `id`.
  package func source(_ id: String) -> StyleSource? { sources.first { $0.id == id } }

  /// Reads `json`; throws for what makes a style undrawable.
  package init(json value: JSONValue) throws(StyleDocumentError) {
    guard case .object(let root) = value else { throw StyleDocumentError(path: "", .notAnObject) }
    json = root
    switch root["version"] {
    case .number(8): break
    case nil: throw StyleDocumentError(path: "version", .missing(what: "\"version\": 8"))
    case let v?: throw StyleDocumentError(path: "version", .version(found: Self.describe(v)))
    }
    if case .string(let n) = root["name"] { name = n }
    if case .array(let c) = root["center"], c.count == 2, case .number(let lon) = c[0], case .number(let lat) = c[1] {
      center = (lon, lat)
    }
    if case .number(let z) = root["zoom"] { zoom = z }
    bearing = Self.number(root["bearing"]) ?? 0
    pitch = Self.number(root["pitch"]) ?? 0
    if case .string(let g) = root["glyphs"] { glyphs = g }
    sprites = Self.sprites(root["sprite"])
    sources = try Self.sources(root["sources"])
    layers = try Self.layers(root["layers"], sources: sources)
  }

  private static func number(_ v: JSONValue?) -> Double? {
    if case .number(let n) = v { return n }
    return nil
  }

  /// A value as messages show it: its JSON, cut to a short length.
  static func describe(_ v: JSONValue) -> String {
    Echo.escaped(JSONWriter(compact: true).write(v), limit: 40)
  }

  private static func sprites(_ v: JSONValue?) -> [(id: String, url: String)] {
    switch v {
    case .string(let url): return [("default", url)]
    case .array(let items):
      return items.compactMap { item in
        guard case .object(let o) = item, case .string(let id) = o["id"], case .string(let url) = o["url"] else { return nil }
        return (id, url)
      }
    default: return []
    }
  }

  private static func sources(_ v: JSONValue?) throws(StyleDocumentError) -> [StyleSource] {
    guard let v else { throw StyleDocumentError(path: "sources", .missing(what: "\"sources\" (an object of sources by id)")) }
    guard case .object(let o) = v else { throw StyleDocumentError(path: "sources", .wrongType(expected: "an object of sources by id", found: v.typeName)) }
    var out: [StyleSource] = []
    for (id, s) in o.pairs {
      guard case .object(let so) = s else {
        throw StyleDocumentError(path: JSONPath().key("sources").key(id).description, .wrongType(expected: "an object", found: s.typeName))
      }
      out.append(StyleSource(id: id, json: so))
    }
    return out
  }

  private static func layers(_ v: JSONValue?, sources: [StyleSource]) throws(StyleDocumentError) -> [StyleLayer] {
    guard let v else { throw StyleDocumentError(path: "layers", .missing(what: "\"layers\" (an array of layers)")) }
    guard case .array(let items) = v else { throw StyleDocumentError(path: "layers", .wrongType(expected: "an array of layers", found: v.typeName)) }
    var out: [StyleLayer] = []
    var seen = Set<String>()
    let sourceIDs = sources.map(\.id)
    for (i, item) in items.enumerated() {
      let path = "layers[\(i)]"
      guard case .object(let o) = item else { throw StyleDocumentError(path: path, .wrongType(expected: "a layer object", found: item.typeName)) }
      guard case .string(let id)? = o["id"] else { throw StyleDocumentError(path: path + ".id", .missing(what: "the layer's \"id\" (a string)")) }
      guard seen.insert(id).inserted else { throw StyleDocumentError(path: path + ".id", .duplicateLayerID(id)) }
      guard case .string(let type)? = o["type"] else { throw StyleDocumentError(path: path + ".type", .missing(what: "the layer's \"type\" (a string)")) }
      let kind = StyleLayer.Kind(rawValue: type)
      var source: String?
      if case .string(let s) = o["source"] {
        guard sourceIDs.contains(s) else {
          throw StyleDocumentError(path: path + ".source", .unknownSource(s, hint: closestMatch(to: s, in: sourceIDs)))
        }
        source = s
      }
      var sourceLayer: String?
      if case .string(let s) = o["source-layer"] { sourceLayer = s }
      out.append(StyleLayer(
        id: id, kind: kind, typeName: type, source: source, sourceLayer: sourceLayer,
        minzoom: number(o["minzoom"]), maxzoom: number(o["maxzoom"]), filter: o["filter"],
        filterText: o["filter"].map { JSONWriter(compact: true).write($0) },
        layout: object(o["layout"]), paint: object(o["paint"]), index: i))
    }
    return out
  }

  private static func object(_ v: JSONValue?) -> JSONObject {
    if case .object(let o) = v { return o }
    return JSONObject()
  }
}

extension StyleSource {
  /// Reads one source with the specification's defaults.
  init(id: String, json o: JSONObject) {
    self.id = id
    self.json = o
    if case .string(let t) = o["type"] { typeName = t } else { typeName = "" }
    kind = Kind(rawValue: typeName)
    if case .string(let u) = o["url"] { url = u } else { url = nil }
    if case .array(let t) = o["tiles"] {
      tiles = t.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    } else {
      tiles = []
    }
    minzoom = Self.number(o["minzoom"]) ?? 0
    maxzoom = Self.number(o["maxzoom"]) ?? 22
    isTMS = o["scheme"] == .string("tms")
    bounds = (-180, -85.051129, 180, 85.051129)
    if case .array(let b) = o["bounds"], b.count == 4 {
      let n = b.compactMap { v -> Double? in if case .number(let x) = v { return x } else { return nil } }
      if n.count == 4 { bounds = (n[0], n[1], n[2], n[3]) }
    }
    tileSize = kind == .raster || kind == .rasterDEM ? (Self.number(o["tileSize"]) ?? 512) : 512
    if case .string(let e) = o["encoding"] { encoding = e } else { encoding = "mapbox" }
    if case .string(let a) = o["attribution"] { attribution = a } else { attribution = nil }
  }

  private static func number(_ v: JSONValue?) -> Double? {
    if case .number(let n) = v { return n }
    return nil
  }
}
