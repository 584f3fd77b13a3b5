internal import CSQLite

/// A tile pyramid of a GeoPackage (OGC 12-128r18, its tiles part), opened
/// read-only as `MBTilesReader` opens MBTiles: the tile matrix set from
/// `gpkg_tile_matrix_set` (its reference, and the top-left corner of every
/// level at `min_x`, `max_y`) and `gpkg_tile_matrix` (one row per level,
/// a `zoom_level` given twice refused: matrix and tile sizes, `pixel_x_size`
/// map units per pixel), and the tiles by `zoom_level`, `tile_column` and
/// `tile_row` (row 0 at the top), PNG or JPEG. Not thread-safe: one caller
/// at a time (`TileCache` serialises it).
final class GeoPackageTileReader {
  private let db: OpaquePointer
  private let select: OpaquePointer
  /// The pyramid's table.
  let table: String
  /// Its levels.
  let tileMatrixSet: TileMatrixSet

  /// The most levels read from `gpkg_tile_matrix`.
  static let maximumLevels = 64

  /// Opens `path` (resolved), the pyramid `table` or, when nil, the file's
  /// only one; `shown` names the file in errors.
  init(path: String, shown: String, table: String?, confinement: Confinement? = nil) throws(TileError) {
    let handle = try MBTilesReader.open(path: path, shown: shown, confinement: confinement)
    var prepared: [OpaquePointer] = []
    func close() {
      for s in prepared { sqlite3_finalize(s) }
      sqlite3_close(handle)
    }
    func query(_ sql: String, _ bind: [String] = []) -> OpaquePointer? {
      var s: OpaquePointer?
      guard sqlite3_prepare_v2(handle, sql, -1, &s, nil) == SQLITE_OK, let s else { return nil }
      prepared.append(s)
      for (i, b) in bind.enumerated() { sqlite3_bind_text(s, Int32(i + 1), b, -1, GeoPackageReader.transient) }
      return s
    }
    func text(_ s: OpaquePointer, _ column: Int32) -> String? { sqlite3_column_text(s, column).map { String(cString: $0) } }
    func bad(_ at: String, _ expected: String, _ found: String, hint: String? = nil) -> TileError {
      close()
      return .badTileMatrixSet(path: shown, at: at, expected: expected, found: found, hint: hint)
    }
    /// Not a GeoPackage tile store at all: what was missing, and SQLite's reason.
    func notTiles(_ what: String) -> TileError {
      let reason = String(cString: sqlite3_errmsg(handle))
      close()
      return .notTiles(path: shown, reason: "\(what) (\(reason))")
    }
    // The pyramid: the one named, else the only one.
    guard let contents = query("SELECT table_name FROM gpkg_contents WHERE data_type = 'tiles' ORDER BY table_name") else {
      throw notTiles("no GeoPackage gpkg_contents table")
    }
    var pyramids: [String] = []
    while sqlite3_step(contents) == SQLITE_ROW, pyramids.count < 1000 { if let t = text(contents, 0) { pyramids.append(t) } }
    let chosen: String
    let listed = Echo.list(pyramids.map { Echo.quoted($0) })
    if let table {
      guard pyramids.contains(table) else {
        close()
        throw .notTiles(
          path: shown, reason: "it has no tile pyramid named \(Echo.quoted(table)) (\(pyramids.isEmpty ? "it has none" : "it has \(listed)"))")
      }
      chosen = table
    } else {
      guard pyramids.count == 1 else {
        close()
        throw .notTiles(
          path: shown,
          reason: pyramids.isEmpty
            ? "the GeoPackage has no tile pyramid (no gpkg_contents row of data_type 'tiles')"
            : "it has \(pyramids.count) tile pyramids (\(listed)): the source's \"table\" names the one to draw")
      }
      chosen = pyramids[0]
    }
    // Its reference and corner.
    guard
      let set = query(
        "SELECT m.min_x, m.max_y, s.organization, s.organization_coordsys_id, s.definition FROM gpkg_tile_matrix_set m "
          + "LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = m.srs_id WHERE m.table_name = ?1", [chosen])
    else { throw notTiles("no readable gpkg_tile_matrix_set and gpkg_spatial_ref_sys tables") }
    guard sqlite3_step(set) == SQLITE_ROW else { throw bad("gpkg_tile_matrix_set", "a row for \(Echo.quoted(chosen))", "none") }
    let origin = Point(sqlite3_column_double(set, 0), sqlite3_column_double(set, 1))
    guard origin.x.isFinite, origin.y.isFinite, abs(origin.x) < 1e15, abs(origin.y) < 1e15 else {
      throw bad("gpkg_tile_matrix_set.min_x", "finite min_x and max_y", "\(origin.x), \(origin.y)")
    }
    let organization = (text(set, 2) ?? "").trimmedOfSpaces
    let definition = (text(set, 4) ?? "").trimmedOfSpaces
    let crs: String
    if !organization.isEmpty, organization.uppercased() != "NONE", sqlite3_column_int64(set, 3) > 0 {
      crs = "\(organization.uppercased()):\(sqlite3_column_int64(set, 3))"
    } else if !definition.isEmpty, definition != "undefined" {
      crs = definition
    } else {
      throw bad("gpkg_spatial_ref_sys", "the pyramid's reference (an organization and code, or a WKT definition)", "none")
    }
    // Its levels.
    guard
      let rows = query(
        "SELECT zoom_level, matrix_width, matrix_height, tile_width, tile_height, pixel_x_size, pixel_y_size FROM gpkg_tile_matrix "
          + "WHERE table_name = ?1 ORDER BY zoom_level", [chosen])
    else { throw notTiles("no readable gpkg_tile_matrix table") }
    var matrices: [TileMatrixSet.TileMatrix] = []
    var seen: Set<Int64> = []
    while sqlite3_step(rows) == SQLITE_ROW {
      let z = sqlite3_column_int64(rows, 0)
      let at = "gpkg_tile_matrix (zoom_level \(z))"
      guard matrices.count < Self.maximumLevels else { throw bad(at, "at most \(Self.maximumLevels) levels", "more") }
      let n = (1...4).map { Int(clamping: sqlite3_column_int64(rows, Int32($0))) }
      let px = sqlite3_column_double(rows, 5)
      let py = sqlite3_column_double(rows, 6)
      guard (0...(1 << 20)).contains(z) else { throw bad(at, "a zoom_level from 0", "\(z)") }
      // One row per level: the schema's key (table_name, zoom_level) says so, but a file may lack it.
      guard seen.insert(z).inserted else { throw bad(at, "one row per zoom_level", "\(z) again") }
      guard n[0] >= 1, n[1] >= 1, n[0] <= 1 << 31, n[1] <= 1 << 31 else { throw bad(at, "matrix_width and matrix_height of 1 or more", "\(n[0]) × \(n[1])") }
      guard n[2] == n[3], (1...TileMatrixSetDecoder.maximumTileSide).contains(n[2]) else {
        throw bad(at, "square tiles of 1 to \(TileMatrixSetDecoder.maximumTileSide) pixels", "\(n[2]) × \(n[3])")
      }
      guard px > 0, px.isFinite, abs(px - py) <= 1e-9 * px else { throw bad(at, "square pixels (pixel_x_size = pixel_y_size > 0)", "\(px) × \(py)") }
      matrices.append(
        TileMatrixSet.TileMatrix(
          level: Int(z), cellSize: px, origin: origin, tileWidth: n[2], tileHeight: n[3], matrixWidth: n[0], matrixHeight: n[1]))
    }
    guard !matrices.isEmpty else { throw bad("gpkg_tile_matrix", "a row per level of \(Echo.quoted(chosen))", "none") }
    // Finer levels have higher numbers: the level choice and zoom count on it.
    for (coarse, fine) in zip(matrices, matrices.dropFirst()) where !(fine.cellSize < coarse.cellSize) {
      throw bad(
        "gpkg_tile_matrix (zoom_level \(fine.level))", "a pixel_x_size below zoom_level \(coarse.level)'s (\(coarse.cellSize))", "\(fine.cellSize)")
    }
    // The pyramid's table: its name is an identifier, quoted as SQL quotes them.
    let quoted = "\"" + chosen.replacing("\"", with: "\"\"") + "\""
    var tiles: OpaquePointer?
    guard
      sqlite3_prepare_v2(
        handle,
        "SELECT CASE WHEN length(tile_data) <= \(TileSource.maximumTileBytes) THEN tile_data END, length(tile_data) FROM \(quoted) "
          + "WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3", -1, &tiles, nil) == SQLITE_OK, let tiles
    else {
      let reason = String(cString: sqlite3_errmsg(handle))
      close()
      throw .notTiles(path: shown, reason: "the tile table \(Echo.quoted(chosen)) cannot be read (\(reason))")
    }
    for s in prepared { sqlite3_finalize(s) }
    db = handle
    select = tiles
    self.table = chosen
    tileMatrixSet = TileMatrixSet(id: chosen, crs: MapProjection.normalizedName(crs), matrices: matrices)
  }

  deinit {
    sqlite3_finalize(select)
    sqlite3_close(db)
  }

  /// The tile at level `z`, column `x`, row `y` (row 0 at the top); the same
  /// limits as `MBTilesReader.tile`.
  func tile(z: Int, x: Int, y: Int) -> MBTilesReader.Read {
    MBTilesReader.step(select, z: z, x: x, row: y)
  }
}
