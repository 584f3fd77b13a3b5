import CSQLite
import MapSnap

/// `gpkg`: a GeoPackage's metadata and rows, drawn as an `ogr` features
/// layer (`GeoPackageReader`: `gpkg_contents`, `gpkg_geometry_columns`,
/// `gpkg_spatial_ref_sys`, the table's columns, its R-tree, the count in
/// `gpkg_ogr_contents`, GeoPackage geometry blobs, typed attributes; then
/// the frame's read through the R-tree and the re-projection).
///
/// The input is text, one `key=value` per line, written into a fresh
/// GeoPackage (`write(_:to:)`): `table`, `kind` (gpkg_contents'
/// data_type), `geometry` (the geometry column), `srs`, `organization`,
/// `code`, `definition`, `column` (`NAME TYPE`, repeatable), `count`,
/// `rtree` (`0`: none), and `row` (`FID|GEOMETRY-HEX|value|…`, repeatable;
/// values as text, `~` for null, numbers as numbers). An input that starts
/// with SQLite's header is written as the file itself instead.
public enum GeoPackageFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("gpkg")
    defer { folder.remove() }
    let lines = MBTilesFuzzTarget.metadata(data).map { (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)) }
    let table = lines.last { $0.0 == "table" }?.1 ?? "features"
    if data.starts(with: MBTilesFuzzTarget.sqliteHeader) {
      folder.write(data, to: "set.gpkg")
    } else {
      guard write(lines, to: folder.path + "/set.gpkg") else { return .rejected }
      folder.adopt("set.gpkg")
    }
    let layer = JSONWriter(compact: true).write(.string(table))
    let scene = """
      {"version": 1, "map": {"center": [24.94, 60.17], "scale": 8000, "size": [64, 64]},
       "layers": [{"id": "f", "type": "features", "source": {"ogr": "set.gpkg", "layer": \(layer)},
                   "style": {"fill": "#ccc", "stroke": "#333", "strokeWidth": 1, "marker": {"shape": "circle", "size": 4, "fill": "#c00"},
                             "label": {"text": "{name}", "size": 10}}}]}
      """
    return FrameRenderer.render(json: scene, in: folder.path)
  }

  /// Writes a GeoPackage as the lines say; false when SQLite refuses
  /// (nothing to fuzz then).
  static func write(_ lines: [(String, String)], to path: String) -> Bool {
    func value(_ key: String, _ fallback: String) -> String { lines.last { $0.0 == key }?.1 ?? fallback }
    let table = value("table", "features")
    let geometry = value("geometry", "geom")
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
      if let db { sqlite3_close(db) }
      return false
    }
    defer { sqlite3_close(db) }
    let columns = lines.filter { $0.0 == "column" }.map(\.1)
    let declared = columns.isEmpty ? ["name TEXT"] : columns
    let q = { (s: String) in "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" }
    let rtree = value("rtree", "1") != "0"
    var sql = """
      PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
      CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT, srs_id INTEGER PRIMARY KEY, organization TEXT, organization_coordsys_id INTEGER, definition TEXT);
      CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY, data_type TEXT, identifier TEXT);
      CREATE TABLE gpkg_geometry_columns (table_name TEXT, column_name TEXT, geometry_type_name TEXT, srs_id INTEGER, z INTEGER, m INTEGER);
      CREATE TABLE gpkg_ogr_contents (table_name TEXT PRIMARY KEY, feature_count INTEGER);
      CREATE TABLE \(q(table)) (fid INTEGER PRIMARY KEY AUTOINCREMENT, \(q(geometry)) BLOB, \(declared.joined(separator: ", ")));
      """
    if rtree { sql += "CREATE VIRTUAL TABLE \(q("rtree_\(table)_\(geometry)")) USING rtree(id, minx, maxx, miny, maxy);" }
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { return false }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    func run(_ statement: String, _ values: [String?]) {
      var s: OpaquePointer?
      guard sqlite3_prepare_v2(db, statement, -1, &s, nil) == SQLITE_OK, let s else { return }
      defer { sqlite3_finalize(s) }
      for (i, v) in values.enumerated() {
        if let v, let n = Double(v), v.first.map({ $0.isNumber || $0 == "-" }) == true {
          sqlite3_bind_double(s, Int32(i + 1), n)
        } else if let v {
          sqlite3_bind_text(s, Int32(i + 1), v, -1, transient)
        }
      }
      _ = sqlite3_step(s)
    }
    run(
      "INSERT INTO gpkg_spatial_ref_sys VALUES ('fuzz', ?1, ?2, ?3, ?4)",
      [value("srs", "4326"), value("organization", "EPSG"), value("code", "4326"), value("definition", "undefined")])
    run("INSERT INTO gpkg_contents VALUES (?1, ?2, ?1)", [table, value("kind", "features")])
    run("INSERT INTO gpkg_geometry_columns VALUES (?1, ?2, 'GEOMETRY', ?3, 0, 0)", [table, geometry, value("srs", "4326")])
    if let count = lines.last(where: { $0.0 == "count" })?.1 { run("INSERT INTO gpkg_ogr_contents VALUES (?1, ?2)", [table, count]) }
    for (key, row) in lines where key == "row" {
      let parts = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
      guard parts.count >= 2, let fid = Int64(parts[0]) else { continue }
      let blob = hex(parts[1])
      var s: OpaquePointer?
      let placeholders = (0..<(1 + declared.count)).map { "?\($0 + 2)" }.joined(separator: ", ")
      guard sqlite3_prepare_v2(db, "INSERT INTO \(q(table)) VALUES (?1, \(placeholders))", -1, &s, nil) == SQLITE_OK, let s else { continue }
      sqlite3_bind_int64(s, 1, fid)
      blob.withUnsafeBytes { _ = sqlite3_bind_blob(s, 2, $0.baseAddress, Int32($0.count), transient) }
      for (i, v) in parts.dropFirst(2).prefix(declared.count).enumerated() where v != "~" {
        if let n = Double(v), v.first.map({ $0.isNumber || $0 == "-" }) == true {
          sqlite3_bind_double(s, Int32(i + 3), n)
        } else {
          sqlite3_bind_text(s, Int32(i + 3), v, -1, transient)
        }
      }
      _ = sqlite3_step(s)
      sqlite3_finalize(s)
      // The R-tree row: the envelope of the blob's header when it has one,
      // else the whole world (the reader must not trust it either way).
      if rtree, let e = envelope(blob) {
        run(
          "INSERT INTO \(q("rtree_\(table)_\(geometry)")) VALUES (?1, ?2, ?3, ?4, ?5)",
          [String(fid), String(e.0), String(e.1), String(e.2), String(e.3)])
      }
    }
    return true
  }

  /// The bytes a hexadecimal string spells (other characters skipped).
  static func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var high: UInt8? = nil
    for c in text.utf8 {
      let v: UInt8
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
      default: continue
      }
      if let h = high {
        out.append(h << 4 | v)
        high = nil
      } else {
        high = v
      }
    }
    return out
  }

  /// minx, maxx, miny, maxy from a GeoPackage blob's xy envelope, else the world.
  static func envelope(_ blob: [UInt8]) -> (Double, Double, Double, Double)? {
    guard blob.count >= 40, blob[0] == 0x47, blob[1] == 0x50, (blob[3] >> 1) & 7 != 0 else { return (-180, 180, -90, 90) }
    let little = blob[3] & 1 == 1
    func d(_ k: Int) -> Double {
      var v: UInt64 = 0
      for i in 0..<8 { v |= UInt64(blob[8 + 8 * k + i]) << (8 * UInt64(i)) }
      return Double(bitPattern: little ? v : v.byteSwapped)
    }
    return (d(0), d(1), d(2), d(3))
  }
}
