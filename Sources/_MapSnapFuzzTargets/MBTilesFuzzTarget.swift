import CSQLite
import MapSnap

/// `mbtiles`: an MBTiles file's `metadata` table, drawn as a `tiles` layer
/// (`MBTilesReader`, `TileSource`, level choice, stitching, attribution).
///
/// The input is the metadata as text, one `name=value` per line (a line
/// without `=` is a name with an empty value; values may hold any bytes but
/// a line break), written with the fixture tiles (`TileFixture`) into a
/// fresh MBTiles file. An input that starts with SQLite's header is written
/// as the file itself instead.
public enum MBTilesFuzzTarget {
  static let sqliteHeader = Array("SQLite format 3\0".utf8)

  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("mbtiles")
    defer { folder.remove() }
    if data.starts(with: sqliteHeader) {
      folder.write(data, to: "set.mbtiles")
    } else {
      guard write(metadata: metadata(data), to: folder.path + "/set.mbtiles") else { return .rejected }
      folder.adopt("set.mbtiles")
    }
    let scene = """
      {"version": 1, "map": {"center": [0, 0], "scale": \(TileFixture.scale), "size": [64, 64], "attribution": true},
       "layers": [{"id": "basemap", "type": "tiles", "tileSize": 64, "source": {"mbtiles": "set.mbtiles"}}]}
      """
    return FrameRenderer.render(json: scene, in: folder.path)
  }

  /// The `name=value` lines of `data`.
  static func metadata(_ data: UnsafeRawBufferPointer) -> [(name: [UInt8], value: [UInt8])] {
    data.split(separator: 10, omittingEmptySubsequences: true).map { line in
      guard let eq = line.firstIndex(of: UInt8(ascii: "=")) else { return (Array(line), []) }
      return (Array(line[..<eq]), Array(line[(eq + 1)...]))
    }
  }

  /// Writes an MBTiles file with `metadata` and the fixture tiles; false
  /// when SQLite refuses (nothing to fuzz then).
  static func write(metadata: [(name: [UInt8], value: [UInt8])], to path: String) -> Bool {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
      if let db { sqlite3_close(db) }
      return false
    }
    defer { sqlite3_close(db) }
    let schema = """
      PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
      CREATE TABLE metadata (name TEXT, value TEXT);
      CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
      """
    guard sqlite3_exec(db, schema, nil, nil, nil) == SQLITE_OK else { return false }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    var insert: OpaquePointer?
    guard sqlite3_prepare_v2(db, "INSERT INTO metadata VALUES (?1, ?2)", -1, &insert, nil) == SQLITE_OK, let insert else { return false }
    for (name, value) in metadata {
      bind(insert, 1, name, transient)
      bind(insert, 2, value, transient)
      _ = sqlite3_step(insert)
      sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    var tile: OpaquePointer?
    guard sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)", -1, &tile, nil) == SQLITE_OK, let tile else { return false }
    for c in TileFixture.coordinates {
      sqlite3_bind_int(tile, 1, Int32(c.z))
      sqlite3_bind_int(tile, 2, Int32(c.x))
      sqlite3_bind_int(tile, 3, Int32((1 << c.z) - 1 - c.y))  // TMS rows
      TileFixture.png.withUnsafeBytes { _ = sqlite3_bind_blob(tile, 4, $0.baseAddress, Int32($0.count), transient) }
      _ = sqlite3_step(tile)
      sqlite3_reset(tile)
    }
    sqlite3_finalize(tile)
    return true
  }

  /// Binds `bytes` as text (any bytes: SQLite keeps them as they are).
  private static func bind(_ statement: OpaquePointer, _ index: Int32, _ bytes: [UInt8], _ destructor: sqlite3_destructor_type) {
    let terminated = bytes + [0]
    terminated.withUnsafeBytes { raw in
      _ = sqlite3_bind_text(statement, index, raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count), destructor)
    }
  }
}
