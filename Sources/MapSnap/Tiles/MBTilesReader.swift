internal import CSQLite

/// An MBTiles 1.3 file, opened read-only: the `metadata` table and tiles by
/// zoom, column and TMS row. Nothing is ever written to the file (the
/// connection is `SQLITE_OPEN_READONLY`). Not thread-safe: one caller at a time
/// (`TileCache` serialises it).
final class MBTilesReader {
  private let db: OpaquePointer
  private let select: OpaquePointer
  /// The `metadata` table, name → value.
  let metadata: [String: String]

  /// Opens `path` (resolved) and checks that it is MBTiles; `shown` names it
  /// in errors.
  init(path: String, shown: String) throws(TileError) {
    guard FileIO.canonicalPath(path) != nil else { throw .missing(path: shown) }
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let handle { sqlite3_close(handle) }
      throw .unreadable(path: shown, reason: reason)
    }
    // A busy or locked file is waited for at most a second.
    sqlite3_busy_timeout(handle, 1000)
    func fail(_ what: String) -> TileError {
      let reason = String(cString: sqlite3_errmsg(handle))
      sqlite3_close(handle)
      return .notTiles(path: shown, reason: "\(what) (\(reason))")
    }
    var meta: [String: String] = [:]
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, "SELECT name, value FROM metadata", -1, &statement, nil) == SQLITE_OK, let statement else {
      throw fail("no MBTiles metadata table")
    }
    while sqlite3_step(statement) == SQLITE_ROW {
      if let n = sqlite3_column_text(statement, 0), let v = sqlite3_column_text(statement, 1) {
        meta[String(cString: n)] = String(cString: v)
      }
    }
    sqlite3_finalize(statement)
    var tiles: OpaquePointer?
    guard
      sqlite3_prepare_v2(handle, "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3", -1, &tiles, nil)
        == SQLITE_OK, let tiles
    else { throw fail("no MBTiles tiles table") }
    db = handle
    select = tiles
    metadata = meta
  }

  deinit {
    sqlite3_finalize(select)
    sqlite3_close(db)
  }

  /// The bytes of the tile at zoom `z`, column `x`, TMS row `tmsY` (row 0 at
  /// the south), or nil when the file has none.
  func tile(z: Int, x: Int, tmsY: Int) -> [UInt8]? {
    sqlite3_reset(select)
    sqlite3_bind_int64(select, 1, Int64(z))
    sqlite3_bind_int64(select, 2, Int64(x))
    sqlite3_bind_int64(select, 3, Int64(tmsY))
    guard sqlite3_step(select) == SQLITE_ROW else { return nil }
    let count = Int(sqlite3_column_bytes(select, 0))
    guard count > 0, let blob = sqlite3_column_blob(select, 0) else { return [] }
    return Array(UnsafeRawBufferPointer(start: blob, count: count))
  }
}
