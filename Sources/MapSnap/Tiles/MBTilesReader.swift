internal import CSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// An MBTiles 1.3 file, opened read-only: the `metadata` table and tiles by
/// zoom, column and TMS row. Nothing is ever written beside or into the file:
/// the connection is `SQLITE_OPEN_READONLY` on an `immutable=1` URI, so
/// SQLite takes no locks and creates no journal, `-wal` or `-shm` file even
/// for a WAL-mode database. Only regular files are opened (a FIFO or device
/// would block or never end). Not thread-safe: one caller at a time
/// (`TileCache` serialises it).
final class MBTilesReader {
  private let db: OpaquePointer
  private let select: OpaquePointer
  /// The `metadata` table, name → value.
  let metadata: [String: String]

  /// Opens `path` (resolved) and checks that it is MBTiles; `shown` names it
  /// in errors.
  init(path: String, shown: String) throws(TileError) {
    guard let canonical = FileIO.canonicalPath(path) else { throw .missing(path: shown) }
    var st = stat()
    guard stat(canonical, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
      throw .unreadable(path: shown, reason: "not a regular file")
    }
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    guard sqlite3_open_v2(MBTilesReader.uri(canonical), &handle, flags, nil) == SQLITE_OK, let handle else {
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

  /// A `file:` URI for `path`, read-only and immutable; every byte outside
  /// the unreserved set and `/` is percent-encoded.
  static func uri(_ path: String) -> String {
    var out = "file:"
    for b in path.utf8 {
      let c = Character(Unicode.Scalar(b))
      if c.isASCII && (c.isLetter || c.isNumber || "/-._~".contains(c)) {
        out.append(c)
      } else {
        let hex = String(b, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out + "?mode=ro&immutable=1"
  }

  /// What reading one tile found.
  enum Read {
    case bytes([UInt8])
    case absent
    /// SQLite failed (a corrupt file, an I/O error).
    case failed
  }

  /// The tile at zoom `z`, column `x`, TMS row `tmsY` (row 0 at the south).
  func tile(z: Int, x: Int, tmsY: Int) -> Read {
    sqlite3_reset(select)
    sqlite3_bind_int64(select, 1, Int64(z))
    sqlite3_bind_int64(select, 2, Int64(x))
    sqlite3_bind_int64(select, 3, Int64(tmsY))
    switch sqlite3_step(select) {
    case SQLITE_ROW:
      let count = Int(sqlite3_column_bytes(select, 0))
      guard count > 0, let blob = sqlite3_column_blob(select, 0) else { return .bytes([]) }
      return .bytes(Array(UnsafeRawBufferPointer(start: blob, count: count)))
    case SQLITE_DONE:
      return .absent
    default:
      return .failed
    }
  }
}
