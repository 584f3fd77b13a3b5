internal import CSQLite
internal import _LazyLibraries

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
  ///
  /// SQLite opens files by name, so the file is first opened here
  /// (non-blocking, checked to be a regular file, and with `confinement`
  /// checked to be inside the root, as `FileIO.openForReading` does), then
  /// handed to SQLite as that descriptor (`/proc/self/fd/N` through the
  /// `mapsnap-fd` VFS, which does not resolve the name again): what SQLite
  /// reads is the file that was checked, even if a link is swapped meanwhile.
  init(path: String, shown: String, confinement: Confinement? = nil) throws(TileError) {
    let handle = try MBTilesReader.open(path: path, shown: shown, confinement: confinement)
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
      sqlite3_prepare_v2(handle, "SELECT CASE WHEN length(tile_data) <= \(TileSource.maximumTileBytes) THEN tile_data END, length(tile_data) FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3", -1, &tiles, nil)
        == SQLITE_OK, let tiles
    else { throw fail("no MBTiles tiles table") }
    db = handle
    select = tiles
    metadata = meta
  }

  /// Opens the SQLite file `path` read-only as described above; `shown`
  /// names it in errors. The caller closes the connection.
  static func open(path: String, shown: String, confinement: Confinement?) throws(TileError) -> OpaquePointer {
    guard let canonical = FileIO.canonicalPath(path) else { throw .missing(path: shown) }
    let opened: (fd: Int32, size: Int)
    do {
      opened = try FileIO.openForReading(path, confinement: confinement)
    } catch {
      if case .notFound = error { throw .missing(path: shown) }
      throw .unreadable(path: shown, reason: error.reason)
    }
    // SQLite keeps a descriptor of its own once the connection is open.
    defer { close(opened.fd) }
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    let uri: String
    if let vfs = mapsnapFDVFS {
      uri = Self.uri("/proc/self/fd/\(opened.fd)") + "&vfs=" + vfs
    } else {
      uri = Self.uri(canonical)
    }
    guard sqlite3_open_v2(uri, &handle, flags, nil) == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? mapsnap_sqlite_unavailable().map { String(cString: $0) } ?? "out of memory"
      if let handle { sqlite3_close(handle) }
      throw .unreadable(path: shown, reason: reason)
    }
    // A busy or locked file is waited for at most a second.
    sqlite3_busy_timeout(handle, 1000)
    return handle
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
  /// A blob larger than `TileSource.maximumTileBytes` is never loaded (its
  /// length comes from the record header): it reads as `failed`, so the
  /// tile counts as undecodable, as an oversized XYZ tile file does.
  func tile(z: Int, x: Int, tmsY: Int) -> Read {
    Self.step(select, z: z, x: x, row: tmsY)
  }

  /// Runs a prepared tile query (blob, length; bound to level, column, row).
  static func step(_ select: OpaquePointer, z: Int, x: Int, row: Int) -> Read {
    sqlite3_reset(select)
    sqlite3_bind_int64(select, 1, Int64(z))
    sqlite3_bind_int64(select, 2, Int64(x))
    sqlite3_bind_int64(select, 3, Int64(row))
    switch sqlite3_step(select) {
    case SQLITE_ROW:
      if sqlite3_column_int64(select, 1) > Int64(TileSource.maximumTileBytes) { return .failed }
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

/// The name of a SQLite VFS that is the default one except that a file name
/// is used as given (`xFullPathname` copies it), so that `/proc/self/fd/N`
/// opens that descriptor's file rather than a path resolved again from the
/// link's text; nil where there is no `/proc` or it cannot be registered.
let mapsnapFDVFS: String? = {
  #if os(Linux)
    guard let base = sqlite3_vfs_find(nil) else { return nil }
    var stat_ = stat()
    guard stat("/proc/self/fd", &stat_) == 0 else { return nil }
    let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
    vfs.initialize(to: base.pointee)
    vfs.pointee.zName = UnsafePointer(strdup("mapsnap-fd"))
    vfs.pointee.pNext = nil
    vfs.pointee.xFullPathname = { _, name, count, out in
      guard let name, let out else { return SQLITE_CANTOPEN }
      let length = strlen(name)
      guard length + 1 <= Int(count) else { return SQLITE_CANTOPEN }
      memcpy(out, name, length + 1)
      return SQLITE_OK
    }
    // The unix VFS opens a database with O_NOFOLLOW (it expects a name
    // whose links xFullPathname resolved); `/proc/self/fd/N` is a link by
    // nature, so its `open` system call (shared by the unix VFSes, set
    // through SQLite's own hook) drops O_NOFOLLOW for those names only.
    guard let setSystemCall = base.pointee.xSetSystemCall else { return nil }
    let open: @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> Int32 = { path, flags, mode in
      guard let path else { return -1 }
      var flags = flags
      if strncmp(path, "/proc/self/fd/", 14) == 0 { flags &= ~O_NOFOLLOW }
      return Glibc.open(path, flags, mode_t(mode))
    }
    guard setSystemCall(base, "open", unsafeBitCast(open, to: sqlite3_syscall_ptr.self)) == SQLITE_OK else { return nil }
    guard sqlite3_vfs_register(vfs, 0) == SQLITE_OK else { return nil }
    return "mapsnap-fd"
  #else
    return nil
  #endif
}()
