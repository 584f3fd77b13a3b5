public import _MapSnapJSON

/// One entry of a style's `sources`, with the specification's defaults.
package struct StyleSource: Sendable {
  package enum Kind: String, Sendable {
    case vector, raster, geojson, image, video
    case rasterDEM = "raster-dem"
  }

  package var id: String
  /// Nil for a type the specification does not define (`typeName` holds it).
  package var kind: Kind?
  package var typeName: String
  /// A TileJSON, MBTiles or PMTiles URL (`url`).
  package var url: String?
  /// Tile URL templates (`tiles`).
  package var tiles: [String]
  /// Default 0.
  package var minzoom: Double
  /// Default 22.
  package var maxzoom: Double
  /// `tms` flips the tile row (y = 2^z − 1 − y); default `xyz`.
  package var isTMS: Bool
  /// West, south, east, north in degrees; tiles outside are not requested.
  package var bounds: (west: Double, south: Double, east: Double, north: Double)
  /// Pixel size of a tile at its own zoom: 512 for vector and raster-dem
  /// tiles as the specification defines them; `tileSize` for raster (default 512).
  package var tileSize: Double
  /// raster-dem: `mapbox` (default), `terrarium` or `custom`.
  package var encoding: String
  package var attribution: String?
  /// The whole object, for what the renderer reads itself (geojson `data`,
  /// clustering, image `coordinates`, `promoteId`, DEM factors).
  package var json: JSONObject
  package var path: String { JSONPath().key("sources").key(id).description }
}
