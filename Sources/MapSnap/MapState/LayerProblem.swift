/// Something wrong with a layer, found while resolving the map: the data, and
/// one message builder. A `source` problem makes the layer `error` (it is not
/// drawn); every other problem makes it `warning` (drawn, with the problem).
/// Each is also printed on standard error.
public enum LayerProblem: Sendable, Equatable {
  /// The source could not be loaded.
  case source(SourceError)
  /// Features skipped for invalid geometry: how many, and the first reasons.
  case invalidFeatures(count: Int, samples: [String])
  /// A key of the layer names a property that no feature of the source has:
  /// `key` is where the layer names it (`rules[1].where`, `label.field`,
  /// `textField`, …), `property` the name, `suggestion` the closest existing
  /// property name, if any is close.
  case unknownProperty(key: String, property: String, suggestion: String?)
  /// A `where` gives a property a value that no feature of the source holds:
  /// `key` is where (`rules[0].where`, several joined by ", "), `suggestion`
  /// the closest value the source holds, if any is close.
  case unmatchedValue(key: String, property: String, value: JSONValue, suggestion: JSONValue?)
  /// A marker icon could not be loaded; markers with it are not drawn.
  case icon(name: String, error: PNGError)
  /// Features skipped because their coordinates could not be re-projected
  /// from the source's `crs`.
  case unprojectable(count: Int, crs: String)
  /// `count` of a GeoJSON source's `total` located features have a
  /// coordinate that cannot be WGS84 degrees (|x| > 180 or |y| > 90), and
  /// neither the scene nor the file names another spatial reference.
  case notDegrees(count: Int, total: Int)
  /// A tile source could not be opened, or is not a tile set.
  case tileSource(TileError)
  /// The tiles are in another spatial reference than the map (EPSG codes).
  case spatialReference(tiles: String, map: String)
  /// Some tiles meeting the frame were absent (filled from a parent level
  /// or not) or could not be decoded.
  case incompleteTiles(fromParent: Int, missing: Int, undecodable: Int)
  /// The frame is beyond the levels the tile set can serve: `levels` below
  /// its coarsest level (`minZoom`), or it would take more than
  /// `TileResolver.maximumMosaicPixels` of tiles.
  case tilesOutOfRange(reason: String)
  /// A budget of the frame (`FrameBudget`) was spent before all of the
  /// layer's content was drawn: `affected` features or texts were drawn
  /// differently (dashes drawn solid) or not at all.
  case budget(FrameBudget.Kind, limit: Int, affected: Int)
  /// A style layer's style: `isError` when it cannot be drawn at all (not
  /// read, not a style), else a finding about one of its layers or sources.
  case style(String, isError: Bool)

  /// True when the problem keeps the whole layer from being drawn.
  public var isError: Bool {
    switch self {
    case .source, .tileSource, .spatialReference: return true
    case .style(_, let isError): return isError
    default: return false
    }
  }

  /// The problem's kind as the report names it.
  public var kind: String {
    switch self {
    case .source: return "source"
    case .invalidFeatures: return "invalidFeatures"
    case .unknownProperty: return "unknownProperty"
    case .unmatchedValue: return "unmatchedValue"
    case .icon: return "icon"
    case .unprojectable: return "unprojectable"
    case .notDegrees: return "notDegrees"
    case .tileSource: return "tileSource"
    case .spatialReference: return "spatialReference"
    case .incompleteTiles: return "incompleteTiles"
    case .tilesOutOfRange: return "tilesOutOfRange"
    case .budget: return "budget"
    case .style: return "style"
    }
  }

  /// The hint, when there is one: `did you mean "status"?`.
  public var hint: String? {
    switch self {
    case .unknownProperty(_, _, let s?): return "did you mean \(Echo.quoted(s))?"
    case .unmatchedValue(_, _, _, let s?): return "did you mean \(Self.shown(s))?"
    case .notDegrees:
      return "give the source the spatial reference its coordinates are in: \"crs\": \"EPSG:3067\" (or the code of yours) beside \"geojson\""
    default: return nil
    }
  }

  /// One sentence saying what is wrong.
  public var message: String {
    switch self {
    case .source(let error):
      return error.description
    case .invalidFeatures(let n, let samples):
      return "skipped \(n) invalid feature\(n == 1 ? "" : "s") (\(samples.joined(separator: "; ")))"
    case .unknownProperty(let key, let property, _):
      return "\(key) names the property \(Echo.quoted(property)), which no feature of the source has" + (hint.map { " (\($0))" } ?? "")
    case .unmatchedValue(let key, let property, let value, _):
      return "\(key) gives the property \(Echo.quoted(property)) the value \(Self.shown(value)), which no feature of the source holds"
        + (hint.map { " (\($0))" } ?? "")
    case .icon(let name, let error):
      // File errors name the resolved path themselves; others get the name.
      switch error {
      case .fileNotFound, .fileReadFailed: return "marker icon: \(error); markers with it are not drawn"
      default: return "marker icon \(name): \(error); markers with it are not drawn"
      }
    case .unprojectable(let n, let crs):
      return crs.isEmpty
        ? "skipped \(n) feature\(n == 1 ? "" : "s") that could not be projected into the map's spatial reference"
        : "skipped \(n) feature\(n == 1 ? "" : "s") that could not be re-projected from \(crs)"
    case .notDegrees(let n, let total):
      return "\(n) of \(total) feature\(total == 1 ? "" : "s") have coordinates that cannot be WGS84 degrees (|longitude| > 180 or |latitude| > 90), "
        + "and neither the scene nor the file names a spatial reference (\"crs\"); read as degrees, they lie off the map"
    case .tileSource(let error):
      return error.description
    case .spatialReference(let tiles, let map):
      return "the tiles are in \(tiles) but the map is in \(map); a tiled layer is drawn only in the map's spatial reference"
    case .incompleteTiles(let parent, let missing, let undecodable):
      var parts: [String] = []
      if parent > 0 { parts.append("\(parent) absent tile\(parent == 1 ? "" : "s") filled from a parent level") }
      if missing > 0 { parts.append("\(missing) absent tile\(missing == 1 ? "" : "s") with no parent either") }
      if undecodable > 0 { parts.append("\(undecodable) tile\(undecodable == 1 ? "" : "s") that could not be decoded") }
      return parts.joined(separator: ", ")
    case .tilesOutOfRange(let reason):
      return reason + "; the layer is not drawn at this scale"
    case .style(let message, _):
      return message
    case .budget(let kind, let limit, let n):
      let what: String
      switch kind {
      case .dashes: what = "\(n) feature\(n == 1 ? "" : "s") drawn with solid lines instead of dashes"
      case .textCharacters: what = "\(n) text\(n == 1 ? "" : "s") not drawn"
      case .edges: what = "\(n) feature\(n == 1 ? "" : "s") not drawn"
      case .imagePixels: what = "\(n) feature\(n == 1 ? "" : "s")' icon markers not drawn"
      }
      return "\(what): the frame's budget of \(limit) \(kind.noun) was spent (see \"Limits\" in the README)"
    }
  }

  /// A `where` value as the scene writes it: a string quoted, a number or
  /// boolean bare.
  static func shown(_ value: JSONValue) -> String {
    switch value {
    case .string(let t): return Echo.quoted(t)
    case .number(let n): return MapResolver.text(.number(n)) ?? "\(n)"
    case .bool(let b): return b ? "true" : "false"
    default: return "null"
    }
  }
}
