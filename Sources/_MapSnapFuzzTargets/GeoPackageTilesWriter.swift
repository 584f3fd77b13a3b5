import CSQLite
import MapSnap

/// The `gpkgtiles` target's text form, written into a fresh GeoPackage: one
/// `key=value` per line, each row's fields split at `|`, `~` for null.
///
/// - `contents=TABLE|DATA_TYPE`: a `gpkg_contents` row; none given is one
///   row `tiles|tiles`. Every table named here gets a pyramid table
///   (`zoom_level`, `tile_column`, `tile_row`, `tile_data`).
/// - `set=TABLE|MIN_X|MAX_Y|SRS_ID`: a `gpkg_tile_matrix_set` row; none
///   given is the first table's, on Web Mercator's top-left corner in 3857.
/// - `srs=SRS_ID|ORGANIZATION|ORGANIZATION_COORDSYS_ID|DEFINITION`: a
///   `gpkg_spatial_ref_sys` row (the definition runs to the line's end);
///   none given is `3857|EPSG|3857|undefined`.
/// - `level=TABLE|ZOOM|MATRIX_WIDTH|MATRIX_HEIGHT|TILE_WIDTH|TILE_HEIGHT|PIXEL_X|PIXEL_Y`:
///   a `gpkg_tile_matrix` row (none by default).
/// - `tile=TABLE|ZOOM|COLUMN|ROW|DATA`: a tile; `DATA` is hexadecimal, or
///   a built-in valid tile: `png` (64 × 64), `png1` (1 × 1), `png256`
///   (256 × 256) or `jpeg` (64 × 64).
/// - `drop=NAME`: that table (a `gpkg_` table or a pyramid's) is not made.
/// - `table=NAME`: the table the source names (none: the file's only one).
///
/// An empty `TABLE` field is the first `contents` table. Numeric fields
/// are bound as integers or reals when they parse as such, else as text.
/// The tables have no keys or constraints: a file may lack them, so a
/// zoom_level may appear twice. Bounded: at most `maximumRows` lines of
/// each row key, and tile blobs of at most `maximumBlob` bytes.
enum GeoPackageTilesWriter {
  static let maximumRows = 16
  static let maximumBlob = 8_192

  /// The lines of `data` as (key, value) strings.
  static func lines(_ data: UnsafeRawBufferPointer) -> [(key: String, value: String)] {
    MBTilesFuzzTarget.metadata(data).map { (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)) }
  }

  /// The `table` line's value, the last one given; nil without one.
  static func sourceTable(_ lines: [(key: String, value: String)]) -> String? {
    lines.last { $0.key == "table" }?.value
  }

  /// Writes the GeoPackage the lines describe at `path`; false when SQLite
  /// refuses (nothing to fuzz then).
  static func write(_ lines: [(key: String, value: String)], to path: String) -> Bool {
    func rows(_ key: String, _ fields: Int) -> [[String]] {
      lines.filter { $0.key == key }.prefix(maximumRows).map {
        $0.value.split(separator: "|", maxSplits: fields - 1, omittingEmptySubsequences: false).map(String.init)
      }
    }
    var contents = rows("contents", 2)
    if contents.isEmpty { contents = [["tiles", "tiles"]] }
    let first = contents[0][0]
    let named = { (s: String) in s.isEmpty ? first : s }
    let dropped = Set(lines.filter { $0.key == "drop" }.prefix(maximumRows).map(\.value))
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
      if let db { sqlite3_close(db) }
      return false
    }
    defer { sqlite3_close(db) }
    // One transaction for the whole file: each statement on its own would write it again.
    guard sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;", nil, nil, nil) == SQLITE_OK else { return false }
    let q = { (s: String) in "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" }
    var schema = [
      ("gpkg_spatial_ref_sys", "srs_name TEXT, srs_id INTEGER, organization TEXT, organization_coordsys_id INTEGER, definition TEXT"),
      ("gpkg_contents", "table_name TEXT, data_type TEXT, identifier TEXT"),
      ("gpkg_tile_matrix_set", "table_name TEXT, srs_id INTEGER, min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE"),
      (
        "gpkg_tile_matrix",
        "table_name TEXT, zoom_level INTEGER, matrix_width INTEGER, matrix_height INTEGER, tile_width INTEGER, tile_height INTEGER, "
          + "pixel_x_size DOUBLE, pixel_y_size DOUBLE"
      ),
    ]
    var pyramids: [String] = []
    for c in contents where !pyramids.contains(c[0]) && !schema.contains(where: { $0.0 == c[0] }) { pyramids.append(c[0]) }
    for p in pyramids {
      schema.append((p, "id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB"))
    }
    for (table, columns) in schema where !dropped.contains(table) {
      // A name SQLite refuses (sqlite_…) leaves the table out, as drop= does.
      _ = sqlite3_exec(db, "CREATE TABLE \(q(table)) (\(columns))", nil, nil, nil)
    }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// Runs `statement` with `values`: `.text` always as text, `.number`
    /// as an integer or a real when it parses as one; `~` is null.
    func run(_ statement: String, _ values: [Field]) {
      var s: OpaquePointer?
      guard sqlite3_prepare_v2(db, statement, -1, &s, nil) == SQLITE_OK, let s else { return }
      defer { sqlite3_finalize(s) }
      for (i, field) in values.enumerated() {
        let n = Int32(i + 1)
        switch field {
        case .text("~"), .number("~"): continue
        case .text(let v): sqlite3_bind_text(s, n, v, -1, transient)
        case .number(let v):
          if let i = Int64(v) {
            sqlite3_bind_int64(s, n, i)
          } else if let d = Double(v) {
            sqlite3_bind_double(s, n, d)
          } else {
            sqlite3_bind_text(s, n, v, -1, transient)
          }
        case .blob(let b): b.withUnsafeBytes { _ = sqlite3_bind_blob(s, n, $0.baseAddress, Int32($0.count), transient) }
        }
      }
      _ = sqlite3_step(s)
    }
    func field(_ row: [String], _ i: Int) -> String { i < row.count ? row[i] : "~" }
    var srs = rows("srs", 4)
    if srs.isEmpty { srs = [["3857", "EPSG", "3857", "undefined"]] }
    for r in srs {
      run(
        "INSERT INTO gpkg_spatial_ref_sys VALUES ('fuzz', ?1, ?2, ?3, ?4)",
        [.number(field(r, 0)), .text(field(r, 1)), .number(field(r, 2)), .text(field(r, 3))])
    }
    for c in contents { run("INSERT INTO gpkg_contents VALUES (?1, ?2, ?1)", [.text(c[0]), .text(field(c, 1))]) }
    let half = "20037508.342789244"
    var sets = rows("set", 4)
    if sets.isEmpty { sets = [[first, "-" + half, half, "3857"]] }
    for r in sets {
      run(
        "INSERT INTO gpkg_tile_matrix_set VALUES (?1, ?4, ?2, 0, 0, ?3)",
        [.text(named(r[0])), .number(field(r, 1)), .number(field(r, 2)), .number(field(r, 3))])
    }
    for r in rows("level", 8) {
      run("INSERT INTO gpkg_tile_matrix VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", [.text(named(r[0]))] + (1...7).map { .number(field(r, $0)) })
    }
    for r in rows("tile", 5) {
      run(
        "INSERT INTO \(q(named(r[0]))) (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)",
        [.number(field(r, 1)), .number(field(r, 2)), .number(field(r, 3)), .blob(blob(field(r, 4)))])
    }
    return sqlite3_exec(db, "COMMIT", nil, nil, nil) == SQLITE_OK
  }

  enum Field {
    case text(String)
    case number(String)
    case blob([UInt8])
  }

  /// A tile row's data: a built-in tile by name, else the bytes its
  /// hexadecimal spells, at most `maximumBlob` of them.
  static func blob(_ text: String) -> [UInt8] {
    switch text {
    case "png": TileFixture.png
    case "png1": png1
    case "png256": png256
    case "jpeg": jpeg
    default: Array(GeoPackageFuzzTarget.hex(text).prefix(maximumBlob))
    }
  }

  static let png1 = flatPNG(side: 1)
  static let png256 = flatPNG(side: 256)

  /// A PNG of `side` × `side` pixels of one opaque colour.
  static func flatPNG(side: Int) -> [UInt8] {
    let pixels = [UInt32](repeating: 0xFF5A_B4C8, count: side * side)
    do {
      return try pixels.withUnsafeBufferPointer { p throws(PNGError) in
        try PNGEncoder.encode(premultipliedRGBA: p, width: side, height: side)
      }
    } catch {
      fatalError("mapsnap-fuzz: cannot encode a \(side) × \(side) tile: \(error)")
    }
  }

  /// A baseline JPEG of 64 × 64 pixels (two flat halves, quality 40).
  static let jpeg = GeoPackageFuzzTarget.hex(
    [
      "ffd8ffe000104a46494600010100000100010000ffdb004300140e0f120f0d14121012171514181e32211e1c1c1e3d2c2e243249404c4b47",
      "404645505a736250556d5645466488656d777b8182814e608d978c7d96737e817cffdb0043011517171e1a1e3b21213b7c5346537c7c7c7c",
      "7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7cffc00011080040004003",
      "012200021101031101ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b510000201030302040305",
      "0504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a2526272829",
      "2a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a9293949596979899",
      "9aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9",
      "faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b5110002010204040304070504040001027700",
      "0102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a3536373839",
      "3a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6",
      "a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c030100",
      "02110311003f00d3a28a2bcd360a28a280390a28a2bd939028a28a00ebe8a28af18eb0a28a280390a28a2bd939028a28a00ebe8a28af18eb",
      "0a28a280390a28a2bd939028a28a00ebe8a28af18eb0a28a280390a28a2bd939028a28a00fffd9",
    ].joined())
}
