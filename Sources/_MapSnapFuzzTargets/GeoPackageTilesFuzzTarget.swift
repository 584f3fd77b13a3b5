import CSQLite
import MapSnap

/// `gpkgtiles`: a GeoPackage opened as a `tiles` layer's `geopackage`
/// source opens it (`GeoPackageTileReader`, through `_TileProbe`:
/// `gpkg_contents`, `gpkg_tile_matrix_set`, `gpkg_spatial_ref_sys`,
/// `gpkg_tile_matrix`, the pyramid's table), then at most `tilesRead` tiles
/// read and decoded as the tile cache decodes them (`TileCache.decode`, at
/// most `largestDecodedSide` pixels a side).
///
/// The input is text, one `key=value` per line, written into a fresh
/// GeoPackage (`GeoPackageTilesWriter`: its tables' rows, tiles, and the
/// `table` the source names). An input that starts with SQLite's header is
/// written as the file itself instead, opened without a `table`.
///
/// The tiles read are the pyramid table's first rows (listed here through
/// SQLite, so that tiles that exist are reached), then the first and the
/// last tile of each level's matrix. A file SQLite finds corrupt must be
/// refused with an error; a pyramid opened must hold what the tile
/// resolver relies on (`TileMatrixSetFuzzTarget.check`).
public enum GeoPackageTilesFuzzTarget {
  /// Tiles read per input: enough for every level of a small pyramid, few
  /// enough to keep an input fast.
  static let tilesRead = 16
  /// Tiles are decoded at their level's tile size, but at most this: a
  /// tile of 4096 × 4096 pixels would take 64 MiB and seconds under ASan.
  static let largestDecodedSide = 256

  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("gpkgtiles")
    defer { folder.remove() }
    let path = folder.path + "/set.gpkg"
    var table: String? = nil
    if data.starts(with: MBTilesFuzzTarget.sqliteHeader) {
      folder.write(data, to: "set.gpkg")
    } else {
      let lines = GeoPackageTilesWriter.lines(data)
      table = GeoPackageTilesWriter.sourceTable(lines)
      folder.adopt("set.gpkg")  // removed even when SQLite made it and then refused
      guard GeoPackageTilesWriter.write(lines, to: path) else { return .rejected }
    }
    let pyramid: _TileProbe.GeoPackage
    do {
      pyramid = try _TileProbe.GeoPackage(path: path, shown: "set.gpkg", table: table)
    } catch {
      _ = error.description
      return .rejected
    }
    let set = pyramid.tileMatrixSet
    TileMatrixSetFuzzTarget.check(set)
    var coordinates = rows(of: pyramid.table, in: path, limit: tilesRead / 2)
    for m in set.matrices where coordinates.count < tilesRead {
      coordinates.append((m.level, 0, 0))
      coordinates.append((m.level, m.matrixWidth - 1, m.matrixHeight - 1))
    }
    for c in coordinates.prefix(tilesRead) {
      guard let bytes = pyramid.tile(z: c.z, x: c.x, y: c.y) else { continue }
      let side = min(set.matrices.first { $0.level == c.z }?.tileWidth ?? largestDecodedSide, largestDecodedSide)
      if let pixels = _TileProbe.decodedTilePixels(bytes, size: side) {
        precondition(pixels == side * side, "a tile of \(side) × \(side) pixels decoded as \(pixels) pixels")
      }
    }
    return .accepted
  }

  /// The level, column and row of the first `limit` rows of the pyramid's
  /// table `table` in the file at `path` (opened read-only and immutable,
  /// as the reader opens it); none when SQLite cannot list them.
  static func rows(of table: String, in path: String, limit: Int) -> [(z: Int, x: Int, y: Int)] {
    var db: OpaquePointer?
    guard sqlite3_open_v2("file:\(percentEncoded(path))?mode=ro&immutable=1", &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK, let db else {
      if let db { sqlite3_close(db) }
      return []
    }
    defer { sqlite3_close(db) }
    let quoted = "\"" + table.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    var select: OpaquePointer?
    guard sqlite3_prepare_v2(db, "SELECT zoom_level, tile_column, tile_row FROM \(quoted) LIMIT \(limit)", -1, &select, nil) == SQLITE_OK,
      let select
    else { return [] }
    defer { sqlite3_finalize(select) }
    var out: [(z: Int, x: Int, y: Int)] = []
    while out.count < limit, sqlite3_step(select) == SQLITE_ROW {
      out.append((Int(sqlite3_column_int64(select, 0)), Int(sqlite3_column_int64(select, 1)), Int(sqlite3_column_int64(select, 2))))
    }
    return out
  }

  /// `path` with every byte but ASCII letters, digits and `/-._~`
  /// percent-encoded, for a `file:` URI.
  static func percentEncoded(_ path: String) -> String {
    let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-._~".utf8)
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for b in path.utf8 {
      if kept.contains(b) { out.append(b) } else { out += [UInt8(ascii: "%"), digits[Int(b >> 4)], digits[Int(b & 15)]] }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
