/// A tiling scheme of the OGC Two Dimensional Tile Matrix Set standard
/// (scene format 3.4): how a zoom level cuts the world into square tiles.
public enum TileMatrixSet: String, Sendable, CaseIterable {
  /// EPSG:3857: one tile at zoom 0 spanning ±20037508.34 m; 2^z × 2^z tiles.
  case webMercatorQuad = "WebMercatorQuad"
  /// EPSG:4326: two tiles at zoom 0 (west and east, 180° each); 2^(z+1) × 2^z.
  case worldCRS84Quad = "WorldCRS84Quad"

  /// The spatial reference (EPSG code) the tiles are in.
  public var spatialReference: Int {
    switch self {
    case .webMercatorQuad: return 3857
    case .worldCRS84Quad: return 4326
    }
  }

  /// Tile columns and rows at zoom `z`.
  func matrixSize(_ z: Int) -> (columns: Int, rows: Int) {
    switch self {
    case .webMercatorQuad: return (1 << z, 1 << z)
    case .worldCRS84Quad: return (2 << z, 1 << z)
    }
  }

  /// The side of one tile at zoom `z`, in map units (metres, or degrees).
  func tileSpan(_ z: Int) -> Double {
    switch self {
    case .webMercatorQuad: return 2 * WebMercator.halfWorld / Double(1 << z)
    case .worldCRS84Quad: return 180 / Double(1 << z)
    }
  }

  /// The top-left corner of tile (0, 0), in map units.
  var origin: Point {
    switch self {
    case .webMercatorQuad: return Point(-WebMercator.halfWorld, WebMercator.halfWorld)
    case .worldCRS84Quad: return Point(-180, 90)
    }
  }

  /// The extent of tile column `x`, row `y` (row 0 at the top) at zoom `z`.
  func bounds(z: Int, x: Int, y: Int) -> Rect {
    let s = tileSpan(z)
    let o = origin
    return Rect(minX: o.x + Double(x) * s, minY: o.y - Double(y + 1) * s, maxX: o.x + Double(x + 1) * s, maxY: o.y - Double(y) * s)
  }
}
