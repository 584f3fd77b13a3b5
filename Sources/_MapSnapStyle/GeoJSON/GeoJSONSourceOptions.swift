package import _MapSnapJSON

/// A geojson source's options, as the style specification defines them,
/// with its defaults. Sizes are in the units MapLibre gives them: pixels of
/// a 512-pixel tile. `attribution` is not read.
package struct GeoJSONSourceOptions: Sendable {
  /// `maxzoom`: the deepest tile zoom the source is cut at (deeper frames
  /// draw its tiles larger, unsimplified); default 18.
  package var maxzoom = 18
  /// `buffer`: how far each tile's geometry reaches past its edges, in
  /// pixels of the 512-pixel tile (0…512); default 128.
  package var buffer = 128.0
  /// `tolerance`: the Douglas–Peucker tolerance, in pixels of the tile at
  /// the tile's zoom; default 0.375.
  package var tolerance = 0.375
  /// `lineMetrics`: keep each line vertex's distance along its line, for
  /// `line-progress` (`line-gradient`).
  package var lineMetrics = false
  /// `filter`: the features the source keeps, evaluated at zoom 0 before
  /// anything else (ids, tiling, clustering).
  package var filter: StyleExpression?
  /// `promoteId`: the property whose value is the feature's id (for
  /// `["id"]` and feature state); nil when not given.
  package var promoteId: String?
  /// `generateId`: features are numbered 0, 1, 2… in the order the filter
  /// keeps them (`promoteId` wins over it).
  package var generateId = false
  package var cluster = false
  /// `clusterRadius`: points closer than this, in pixels of a 512-pixel
  /// tile at the clustering zoom, join; default 50.
  package var clusterRadius = 50.0
  /// `clusterMaxZoom`: the deepest zoom with clusters; default `maxzoom` − 1.
  package var clusterMaxZoom: Int
  /// `clusterMinPoints`: the fewest points that make a cluster; default 2.
  package var clusterMinPoints = 2
  /// `clusterProperties`: what each cluster sums up from its points.
  package var clusterProperties: [ClusterProperty] = []

  /// The name MapLibre gives the one layer of a GeoJSON source's tiles: the
  /// key a `promoteId` object names the property by.
  package static let sourceLayerName = "_geojsonTileLayer"
  /// The deepest `maxzoom` a source may give: tile coordinates at zoom 24 in
  /// 8192 units still fit 32 bits.
  package static let deepestZoom = 24

  /// The defaults.
  package init() { clusterMaxZoom = maxzoom - 1 }

  /// Reads the options of the geojson source `source` (at `path`); a member
  /// of the wrong type or range is reported and its default used.
  package init(_ source: JSONObject, path: JSONPath, problems: inout [GeoJSONOptionProblem]) {
    self.init()
    func number(_ key: String, min lo: Double, max hi: Double, default d: Double) -> Double {
      guard let v = source[key] else { return d }
      if case .number(let n) = v, n >= lo, n <= hi { return n }
      let range = hi == .infinity ? "a number ≥ \(Self.text(lo))" : "a number from \(Self.text(lo)) to \(Self.text(hi))"
      problems.append(GeoJSONOptionProblem(path: path.key(key), expected: range, found: Self.found(v), fallback: "the default \(Self.text(d)) is used"))
      return d
    }
    func bool(_ key: String) -> Bool {
      guard let v = source[key] else { return false }
      if case .bool(let b) = v { return b }
      problems.append(GeoJSONOptionProblem(path: path.key(key), expected: "true or false", found: Self.found(v), fallback: "false is used"))
      return false
    }
    maxzoom = Int(number("maxzoom", min: 0, max: Double(Self.deepestZoom), default: 18).rounded(.down))
    buffer = number("buffer", min: 0, max: 512, default: 128)
    tolerance = number("tolerance", min: 0, max: .infinity, default: 0.375)
    lineMetrics = bool("lineMetrics")
    generateId = bool("generateId")
    cluster = bool("cluster")
    clusterRadius = number("clusterRadius", min: 0, max: .infinity, default: 50)
    clusterMaxZoom = Int(number("clusterMaxZoom", min: 0, max: Double(Self.deepestZoom), default: Double(maxzoom - 1)).rounded(.down))
    clusterMinPoints = max(2, Int(number("clusterMinPoints", min: 0, max: .infinity, default: 2).rounded(.down)))
    switch source["promoteId"] {
    case nil, .null?: break
    case .string(let name)?: promoteId = name
    case .object(let byLayer)?:
      if case .string(let name)? = byLayer[Self.sourceLayerName] { promoteId = name }
    case let v?:
      problems.append(GeoJSONOptionProblem(
        path: path.key("promoteId"), expected: "a property name or {\"\(Self.sourceLayerName)\": name}", found: Self.found(v),
        fallback: "features keep their own ids"))
    }
    if let f = source["filter"], f != .null {
      switch StyleFilter.compile(f) {
      case .success(let e): filter = e
      case .failure(let errors):
        let why = errors.errors.map { ($0.key.isEmpty ? "" : $0.key + ": ") + $0.message }.joined(separator: "; ")
        problems.append(GeoJSONOptionProblem(path: path.key("filter"), expected: "a boolean expression", found: why, fallback: "the filter is ignored"))
      }
    }
    if let cp = source["clusterProperties"] {
      guard case .object(let members) = cp else {
        problems.append(GeoJSONOptionProblem(
          path: path.key("clusterProperties"), expected: "an object of [operator, map] pairs", found: Self.found(cp),
          fallback: "clusters carry no summed properties"))
        return
      }
      for (name, value) in members.pairs {
        switch ClusterProperty.parse(name: name, value) {
        case .success(let p): clusterProperties.append(p)
        case .failure(let why):
          problems.append(GeoJSONOptionProblem(
            path: path.key("clusterProperties").key(name), expected: "[operator or reduce expression, map expression]", found: why.description,
            fallback: "the property is left out"))
        }
      }
    }
  }

  /// The id a kept feature has: the `promoteId` property's value (a
  /// boolean as 0 or 1), else with `generateId` its place `index` among the
  /// kept features, else its own `id` as MapLibre reads a GeoJSON id: a
  /// number's integer part, or the integer a string starts with.
  package func featureID(properties: [String: StyleValue], id: JSONValue?, index: Int) -> StyleValue? {
    if let promoteId {
      switch properties[promoteId] {
      case .bool(let b)?: return .number(b ? 1 : 0)
      case let v?: return v == .null ? nil : v
      case nil: return nil
      }
    }
    if generateId { return .number(Double(index)) }
    switch id {
    case .number(let n)? where n.isFinite: return .number(n.rounded(.towardZero))
    case .string(let s)?:
      let t = s.drop { $0 == " " }
      var digits = t.prefix { $0.isNumber && $0.isASCII }
      if digits.isEmpty, t.first == "-" || t.first == "+" { digits = t.dropFirst().prefix { $0.isNumber && $0.isASCII } }
      guard !digits.isEmpty, let n = Double(String(digits)) else { return nil }
      return .number(t.first == "-" ? -n : n)
    default: return nil
    }
  }

  /// Whether the source's `filter` keeps `feature` (evaluated at zoom 0).
  package func keeps(_ feature: EvaluationFeature) -> Bool {
    guard let filter else { return true }
    return filter.evaluate(EvaluationContext(zoom: 0), feature) == .bool(true)
  }

  private static func text(_ n: Double) -> String { n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n) }

  private static func found(_ v: JSONValue) -> String {
    switch v {
    case .number(let n): return "\(text(n))"
    case .string(let s): return Echo.quoted(s)
    default: return v.typeName
    }
  }
}
