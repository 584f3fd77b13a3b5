#if canImport(Glibc)
  import Glibc
#endif

/// A tiling scheme of the OGC Two Dimensional Tile Matrix Set standard
/// (scene format 3.4): for each level, where its tile (0, 0) starts, how
/// many map units one tile pixel spans, and how many tiles there are.
///
/// Rules: coordinates are map units of `crs`, x east and y north whatever
/// the reference's declared axis order; row 0 is at the top (the origin is
/// the top-left corner, `cornerOfOrigin` "topLeft"); a level's number is its
/// matrix `id` when that is a whole number (the `{z}` of a tile path, the
/// `zoom_level` of a GeoPackage), else its position in the list.
public struct TileMatrixSet: Sendable, Hashable {
  /// One level: a grid of equal tiles.
  public struct TileMatrix: Sendable, Hashable {
    /// The level's number (see the rules above).
    public var level: Int
    /// Map units per tile pixel.
    public var cellSize: Double
    /// The top-left corner of tile (0, 0), in map units.
    public var origin: Point
    /// Tile pixels across and down.
    public var tileWidth: Int
    public var tileHeight: Int
    /// Tile columns and rows.
    public var matrixWidth: Int
    public var matrixHeight: Int

    /// The extent of tile column `x`, row `y` (row 0 at the top).
    func bounds(x: Int, y: Int) -> Rect {
      let w = cellSize * Double(tileWidth)
      let h = cellSize * Double(tileHeight)
      return Rect(
        minX: origin.x + Double(x) * w, minY: origin.y - Double(y + 1) * h, maxX: origin.x + Double(x + 1) * w,
        maxY: origin.y - Double(y) * h)
    }
  }

  /// The set's identifier ("WebMercatorQuad", "ETRS-TM35FIN").
  public var id: String
  /// The spatial reference, as `MapProjection.normalizedName` spells it ("EPSG:3067").
  public var crs: String
  /// The levels, coarsest first, their numbers increasing.
  public var matrices: [TileMatrix]

  public init(id: String, crs: String, matrices: [TileMatrix]) {
    self.id = id
    self.crs = crs
    self.matrices = matrices.sorted { $0.level < $1.level }
  }

  /// The level numbered `level`, if the set has it.
  func matrix(_ level: Int) -> TileMatrix? {
    // Levels are usually 0…n in order: try the position first.
    if level >= 0, level < matrices.count, matrices[level].level == level { return matrices[level] }
    return matrices.first { $0.level == level }
  }

  /// The first and last level numbers.
  var levels: ClosedRange<Int> { (matrices.first?.level ?? 0)...(matrices.last?.level ?? 0) }

  /// True when level `coarse` is level `fine` with tiles 2^(fine − coarse)
  /// times larger on the same origin: a tile of `fine` lies inside one tile
  /// of `coarse`, found by shifting its column and row (parents fill absent tiles).
  func nests(_ coarse: Int, in fine: Int) -> Bool {
    guard let a = matrix(coarse), let b = matrix(fine), fine > coarse, fine - coarse < 31 else { return false }
    let ratio = Double(1 << (fine - coarse))
    return a.origin == b.origin && a.tileWidth == b.tileWidth && a.tileHeight == b.tileHeight
      && abs(a.cellSize - b.cellSize * ratio) <= 1e-9 * a.cellSize
  }

  /// A quad tree: its first level has `columns` × `rows` tiles of 256
  /// pixels spanning `tileSpan` map units on a side, and each next level
  /// twice as many tiles each way, half as large.
  static func quad(
    id: String, crs: String, origin: Point, tileSpan: Double, columns: Int, rows: Int, levels: ClosedRange<Int>
  ) -> TileMatrixSet {
    let matrices = levels.map { z in
      let d = z - levels.lowerBound
      return TileMatrix(
        level: z, cellSize: tileSpan / 256 / pow(2, Double(d)), origin: origin, tileWidth: 256, tileHeight: 256,
        matrixWidth: columns << d, matrixHeight: rows << d)
    }
    return TileMatrixSet(id: id, crs: crs, matrices: matrices)
  }

  /// EPSG:3857: one tile at zoom 0 spanning ±20037508.34 m; 2^z × 2^z tiles.
  public static let webMercatorQuad = quad(
    id: "WebMercatorQuad", crs: "EPSG:3857", origin: Point(-WebMercator.halfWorld, WebMercator.halfWorld),
    tileSpan: 2 * WebMercator.halfWorld, columns: 1, rows: 1, levels: 0...30)
  /// EPSG:4326: two tiles at zoom 0 (west and east, 180° each); 2^(z+1) × 2^z.
  public static let worldCRS84Quad = quad(
    id: "WorldCRS84Quad", crs: "EPSG:4326", origin: Point(-180, 90), tileSpan: 180, columns: 2, rows: 1, levels: 0...30)
}
