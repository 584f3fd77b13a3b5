/// A `tiles` layer (scene format 3.4): a raster tile set drawn under or over
/// the map, from an MBTiles file or an XYZ/TMS folder.
public struct TileLayer: Sendable {
  /// Where the tiles come from.
  public var source: TileSourceSpec
  /// The tiling scheme; nil: the source's (`tiles.json`), else WebMercatorQuad.
  public var tileMatrixSet: TileMatrixSet?
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

/// Where a `tiles` layer's tiles come from. Paths resolve against the scene
/// file's folder.
public enum TileSourceSpec: Sendable, Hashable {
  /// An MBTiles 1.3 file (SQLite; TMS rows).
  case mbtiles(path: String, resolved: String)
  /// A path template with `{z}`, `{x}` and `{y}`; `tms` true counts rows from
  /// the south, false from the north; nil: the `tiles.json` `scheme`, else
  /// from the north (xyz).
  case xyz(template: String, resolved: String, tms: Bool?)

  /// The source as the scene names it, for messages.
  public var shown: String {
    switch self {
    case .mbtiles(let p, _): return p
    case .xyz(let t, _, _): return t
    }
  }
}
