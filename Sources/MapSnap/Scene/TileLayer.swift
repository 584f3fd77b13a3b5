/// A `tiles` layer (scene format 3.4): a raster tile set drawn under or over
/// the map, from an MBTiles file or an XYZ/TMS folder.
public struct TileLayer: Sendable {
  /// Where the tiles come from.
  public var source: TileSourceSpec
  /// The tiling scheme; nil: the source's (`tiles.json`, a GeoPackage's
  /// tile matrix tables), else WebMercatorQuad.
  public var tileMatrixSet: TileMatrixSetSpec?
  /// Tile side in pixels; nil: 256.
  public var tileSize: Int?
  /// The levels that exist; nil: the source's metadata, else 0 and 22.
  public var minZoom: Int?
  /// The most detailed level that exists; nil: as for `minZoom`.
  public var maxZoom: Int?

  /// A layer of the tiles of `source`, the rest from its metadata.
  public init(source: TileSourceSpec) {
    self.source = source
  }
}

/// A tile matrix set as a scene or `tiles.json` names it: a set of the OGC
/// registry, or an OGC 2.0 JSON file read when the layer is resolved.
public enum TileMatrixSetSpec: Sendable, Hashable {
  case named(TileMatrixSet)
  /// The path as written and resolved.
  case file(path: String, resolved: String)

  /// The spec `text` names: a registry set, else a path ending in `.json`
  /// resolved against `folder`; nil when it is neither.
  static func parse(_ text: String, relativeTo folder: String) -> TileMatrixSetSpec? {
    if let set = TileMatrixSet.registered(text) { return .named(set) }
    guard text.lowercased().hasSuffix(".json") else { return nil }
    return .file(path: text, resolved: FileIO.resolve(text, against: folder))
  }

  /// The set as the scene names it, for messages and the report.
  public var shown: String {
    switch self {
    case .named(let s): return s.id
    case .file(let p, _): return p
    }
  }
}

/// Where a `tiles` layer's tiles come from. Paths resolve against the scene
/// file's folder.
public enum TileSourceSpec: Sendable, Hashable {
  /// An MBTiles 1.3 file (SQLite; TMS rows).
  case mbtiles(path: String, resolved: String)
  /// A path template with `{z}`, `{x}` and `{y}`; `tms` true counts rows from
  /// the south, false from the north; nil: the `tiles.json` `scheme`, else
  /// from the north (xyz).
  case xyz(template: String, resolved: String, tms: Bool?)
  /// A GeoPackage tile pyramid (SQLite; rows from the top), the named table
  /// or, when nil, the file's only pyramid.
  case geopackage(path: String, resolved: String, table: String?)

  /// The source as the scene names it, for messages.
  public var shown: String {
    switch self {
    case .mbtiles(let p, _): return p
    case .xyz(let t, _, _): return t
    case .geopackage(let p, _, let table): return table.map { "\(p) (table \($0))" } ?? p
    }
  }
}
