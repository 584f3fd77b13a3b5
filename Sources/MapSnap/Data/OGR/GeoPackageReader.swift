internal import CSQLite
internal import _LazyLibraries
internal import _MapSnapRaster
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A GeoPackage (OGC 12-128r18) read with SQLite itself: a GeoPackage *is*
/// an SQLite file, and reading it this way spares a scene GDAL's start-up
/// (libgdal loads some 140 shared libraries: 60–100 ms before the first
/// feature). The rules are GDAL's, so a layer reads the same either way:
///
/// - layers are the `features` tables of `gpkg_contents`; a table's
///   geometry column and spatial reference come from `gpkg_geometry_columns`
///   and `gpkg_spatial_ref_sys` (`EPSG:code` when the organisation is EPSG,
///   else the definition's WKT; srs_id 0 and −1 are undefined);
/// - the FID is the table's integer primary key; the other columns become
///   properties (those a frame's layers use: `SourceLoader.ogr`): integers
///   as numbers (beyond ±2^53 as text), reals, text (dates and times as
///   stored: ISO 8601 text), columns declared BOOLEAN as booleans, nulls;
///   blobs as null;
/// - geometries are GeoPackage binary: the `GP` header (byte order, envelope,
///   empty flag) then WKB (`WKBReader`);
/// - with a spatial filter, the table's R-tree (`rtree_<table>_<column>`)
///   selects the features whose envelopes meet it; without an R-tree, or
///   when the filter covers most of the table (`scanCoverage`), every row
///   is read and its envelope tested by the R-tree's own rule (`meets`), so
///   either way reads the same rows (the report says the layer was scanned
///   whole); a row without a geometry is not read through a filter, as it
///   is in no R-tree, and is unlocated without one;
/// - features come in FID order; the count is `gpkg_ogr_contents`'s when the
///   file has it.
///
/// Opened read-only and immutable, through the descriptor checked to be a
/// regular file (as `MBTilesReader`). One reader per open file
/// (`OpenDatasets`); its SQLite connections in a `HandlePool`, one per
/// thread reading at once, closed with it.
final class GeoPackageReader: @unchecked Sendable {
  private let connections: HandlePool<OpaquePointer>
  /// What the file's metadata tables say of its features tables, read
  /// once when the file is opened.
  private let catalog: Catalog
  /// Each table asked for (nil: the only one), found once.
  private let tables = Mutex<[String?: Result<Table, SourceError>]>([:])

  private init(connections: HandlePool<OpaquePointer>, catalog: Catalog) {
    self.connections = connections
    self.catalog = catalog
  }

  private static let opened = OpenDatasets<GeoPackageReader>()

  /// True when `path` names a GeoPackage file (by its extension, as GDAL's
  /// driver picks it).
  static func handles(_ path: String) -> Bool { path.lowercased().hasSuffix(".gpkg") }

  /// True when `source` is read by this reader (a GeoPackage file), not
  /// through libpq or GDAL.
  static func reads(_ source: OGRSource) -> Bool { !source.isDatabase && handles(source.resolved) }

  /// The reader of the file at `resolved`, kept open for the process
  /// (`OpenDatasets`: the 32 most recently opened files).
  static func shared(_ source: OGRSource, confinement: Confinement?) -> Result<GeoPackageReader, SourceError> {
    guard let canonical = FileIO.canonicalPath(source.resolved) else {
      return .failure(.missing(path: source.name, resolvedPath: source.resolved))
    }
    return opened.dataset(canonical) {
      connect(source, canonical: canonical, confinement: confinement).flatMap { db -> Result<GeoPackageReader, SourceError> in
        guard let catalog = Catalog(db) else {
          sqlite3_close(db)
          return .failure(.ogr(path: source.name, message: "not a GeoPackage (no gpkg_contents table)"))
        }
        let pool = HandlePool(first: db, open: { connect(source, canonical: canonical, confinement: confinement) }, close: { sqlite3_close($0) })
        return .success(GeoPackageReader(connections: pool, catalog: catalog))
      }
    }
  }

  /// A new read-only connection to the file, opened through a descriptor
  /// checked against `confinement`.
  private static func connect(_ source: OGRSource, canonical: String, confinement: Confinement?) -> Result<OpaquePointer, SourceError> {
    let opened: (fd: Int32, size: Int)
    do {
      opened = try FileIO.openForReading(source.resolved, confinement: confinement)
    } catch {
      if case .notFound = error { return .failure(.missing(path: source.name, resolvedPath: source.resolved)) }
      return .failure(.unreadable(path: source.name, resolvedPath: source.resolved, reason: error.reason))
    }
    defer { close(opened.fd) }
    var handle: OpaquePointer?
    let uri: String
    if let vfs = mapsnapFDVFS {
      uri = MBTilesReader.uri("/proc/self/fd/\(opened.fd)") + "&vfs=" + vfs
    } else {
      uri = MBTilesReader.uri(canonical)
    }
    guard sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil) == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? mapsnap_sqlite_unavailable().map { String(cString: $0) } ?? "out of memory"
      if let handle { sqlite3_close(handle) }
      return .failure(.ogr(path: source.name, message: reason))
    }
    sqlite3_busy_timeout(handle, 1000)
    return .success(handle)
  }

  /// Loads SQLite, if it can be, and gives it mapsnap's process-wide
  /// settings (`sqlite_forward.c`: it does not count its memory under a
  /// mutex), which SQLite takes only before it starts: called before PROJ
  /// or GDAL, which start it themselves, are loaded.
  static func configureSQLite() { _ = mapsnap_sqlite_unavailable() }

  /// True when SQLite counts the memory it allocates, for the tests: asked
  /// while a connection of its own holds some.
  static var sqliteCountsMemory: Bool {
    var db: OpaquePointer?
    guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else { return false }
    defer { sqlite3_close(db) }
    return sqlite3_memory_used() > 0
  }

  /// A features table: its columns and where its geometry, FID, reference
  /// and R-tree are.
  struct Table {
    var name: String
    var geometry: String
    var fid: String
    var columns: [(name: String, boolean: Bool)]
    var reference: String?
    var rtree: String?
    var count: Int?
    /// The table's bounds as `gpkg_contents` gives them (informative: a
    /// read's rows are tested either way), nil when it gives none.
    var extent: Rect? = nil
  }

  /// The file's features tables as its metadata tables describe them, read
  /// in five queries when the file is opened rather than six per table as
  /// each is asked for (each query is parsed and planned by SQLite: a
  /// tenth of a millisecond apiece). A table's columns are read when it is
  /// asked for (`PRAGMA table_info`).
  struct Catalog {
    /// The `features` tables of `gpkg_contents`, in its order.
    var names: [String]
    /// Each table's first row in `gpkg_geometry_columns`: its geometry
    /// column and spatial reference (nil: undefined).
    var geometry: [String: (column: String, reference: String?)]
    /// Every name in `sqlite_master`: the R-trees present.
    var schema: Set<String>
    /// `gpkg_ogr_contents`'s counts, when the file has that table.
    var counts: [String: Int]
    /// `gpkg_contents`'s bounds of each table that has them.
    var extents: [String: Rect]

    /// The catalog of the file `db`; nil when it has no `gpkg_contents`.
    init?(_ db: OpaquePointer) {
      schema = Set(rows(db, "SELECT name FROM sqlite_master", []).compactMap { $0[0].text })
      guard schema.contains("gpkg_contents") else { return nil }
      names = []
      extents = [:]
      // The bounds columns are the standard's, but a file without them is
      // still read (without bounds).
      let contents =
        query(db, "SELECT table_name, min_x, min_y, max_x, max_y FROM gpkg_contents WHERE data_type = 'features' ORDER BY rowid", [])
        ?? rows(db, "SELECT table_name, NULL, NULL, NULL, NULL FROM gpkg_contents WHERE data_type = 'features' ORDER BY rowid", [])
      for r in contents {
        guard let name = r[0].text else { continue }
        names.append(name)
        let b = r[1...4].map { $0.real ?? .nan }
        let extent = Rect(minX: b[0], minY: b[1], maxX: b[2], maxY: b[3])
        if !extent.isEmpty && b.allSatisfy(\.isFinite) && extents[name] == nil { extents[name] = extent }
      }
      // srs_id 0 and -1 are the undefined references (OGC 12-128r18,
      // 1.1.2.1.2); an EPSG one is named by its code, another by its WKT.
      var references: [Int64: String] = [:]
      let srsSQL = """
        SELECT srs_id, organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys \
        WHERE srs_id IN (SELECT srs_id FROM gpkg_geometry_columns) AND srs_id NOT IN (0, -1)
        """
      for r in rows(db, srsSQL, []) {
        guard let id = r[0].integer else { continue }
        if r[1].text?.uppercased() == "EPSG", let code = r[2].integer {
          references[id] = "EPSG:\(code)"
        } else if let wkt = r[3].text, wkt.lowercased() != "undefined" {
          references[id] = wkt
        }
      }
      geometry = [:]
      for g in rows(db, "SELECT table_name, column_name, srs_id FROM gpkg_geometry_columns ORDER BY rowid", []) {
        guard let table = g[0].text, let column = g[1].text, geometry[table] == nil else { continue }
        geometry[table] = (column, g[2].integer.flatMap { references[$0] })
      }
      counts = [:]
      if schema.contains("gpkg_ogr_contents") {
        for r in rows(db, "SELECT table_name, feature_count FROM gpkg_ogr_contents", []) {
          if let table = r[0].text, let n = r[1].integer, counts[table] == nil { counts[table] = Int(n) }
        }
      }
    }
  }

  /// The feature count `gpkg_ogr_contents` gives for the features table
  /// `name` (nil: the only one); nil when it gives none or there is no such
  /// table.
  func featureCount(_ name: String?) -> Int? {
    guard let table = name ?? (catalog.names.count == 1 ? catalog.names[0] : nil), catalog.names.contains(table) else { return nil }
    return catalog.counts[table]
  }

  /// The table `name` (nil: the only features table).
  func table(_ name: String?, source: OGRSource) -> Result<Table, SourceError> {
    if let hit = tables.withLock({ $0[name] }) { return hit }
    let found = connections.with { db in Self.findTable(db, name, in: catalog, source: source) }
    tables.withLock { $0[name] = found }
    return found
  }

  private static func findTable(_ db: OpaquePointer, _ name: String?, in catalog: Catalog, source: OGRSource) -> Result<Table, SourceError> {
    let names = catalog.names
    let chosen: String
    if let name {
      guard names.contains(name) else { return .failure(.ogrLayer(path: source.name, layer: name, layers: names)) }
      chosen = name
    } else {
      guard names.count == 1 else { return .failure(.ogrLayer(path: source.name, layer: nil, layers: names)) }
      chosen = names[0]
    }
    guard let (geometry, reference) = catalog.geometry[chosen] else {
      return .failure(.ogr(path: source.name, message: "table \(Echo.quoted(chosen)) has no row in gpkg_geometry_columns"))
    }
    var fid: String? = nil
    var columns: [(String, Bool)] = []
    for c in rows(db, "PRAGMA table_info(\(Self.quoted(chosen)))", []) {
      guard let column = c[1].text else { continue }
      let type = (c[2].text ?? "").uppercased()
      if (c[5].integer ?? 0) == 1 && type == "INTEGER" && fid == nil {
        fid = column
      } else if column != geometry {
        columns.append((column, type == "BOOLEAN"))
      }
    }
    let rtreeName = "rtree_\(chosen)_\(geometry)"
    return .success(
      Table(
        name: chosen, geometry: geometry, fid: fid ?? "rowid", columns: columns, reference: reference,
        rtree: catalog.schema.contains(rtreeName) ? rtreeName : nil, count: catalog.counts[chosen], extent: catalog.extents[chosen]))
  }

  /// A read whose filter covers at least this fraction of its table's
  /// extent (`gpkg_contents`) scans the table in FID order, testing each
  /// row's envelope, rather than going through the R-tree (a subquery, then
  /// a lookup per row found): when most rows are wanted the scan reads the
  /// same rows for less. Measured on the Helsinki 1:8000 frame, which wants
  /// 88–100 % of each layer: SQLite's share of the read fell by a third.
  static let scanCoverage = 0.5

  /// True when a read filtered by `filter` should scan `table` rather than
  /// use its R-tree: it has none, or `filter` covers `scanCoverage` of the
  /// extent the file gives (an extent of no area: when it holds it).
  static func scans(_ table: Table, filter: Rect) -> Bool {
    guard table.rtree != nil else { return true }
    guard let e = table.extent else { return false }
    let w = min(e.maxX, filter.maxX) - max(e.minX, filter.minX)
    let h = min(e.maxY, filter.maxY) - max(e.minY, filter.minY)
    guard w >= 0, h >= 0 else { return false }
    let area = e.width * e.height
    return area > 0 ? w * h >= scanCoverage * area : (w == e.width && h == e.height)
  }

  /// The R-tree's rule for a row of a scan: the row's envelope, as the
  /// R-tree would hold it, meets `filter`. SQLite's R-tree of a GeoPackage
  /// keeps 32-bit floats rounded outward (`rtreeValueDown`, `rtreeValueUp`:
  /// the nearest float, and when that falls inside, the value scaled by
  /// 1 ∓ 2⁻²³ away from the envelope's inside), so a scan takes exactly the
  /// rows the R-tree would return (checked against GDAL's R-trees of every
  /// layer in the tests).
  static func meets(_ b: Rect, _ filter: Rect) -> Bool {
    down(b.minX) <= filter.maxX && up(b.maxX) >= filter.minX && down(b.minY) <= filter.maxY && up(b.maxY) >= filter.minY
  }

  /// The most features a read makes room for ahead, whatever count the file
  /// gives.
  static let reservedFeaturesLimit = 1 << 16

  /// One part in 2^23: a 32-bit float's precision.
  private static let floatStep = 1.0 / 8_388_608

  private static func down(_ d: Double) -> Double {
    let f = Float(d)
    return Double(f) > d ? Double(Float(d * (d < 0 ? 1 + floatStep : 1 - floatStep))) : Double(f)
  }

  private static func up(_ d: Double) -> Double {
    let f = Float(d)
    return Double(f) < d ? Double(Float(d * (d < 0 ? 1 - floatStep : 1 + floatStep))) : Double(f)
  }

  /// The features of `table` whose envelopes meet `filter` (nil: all), in
  /// FID order, in the table's reference, with the columns in `fields` as
  /// properties (`FeatureReadBuilder.makes`; the others are not selected). `scan`
  /// overrides `scans` (for the tests).
  func read(_ table: Table, filter: Rect?, fields: Set<String>? = nil, source: OGRSource, scan: Bool? = nil) -> Result<
    FeatureRead<OGRReadInfo>, SourceError
  > {
    let made = table.columns.filter { FeatureReadBuilder.makes($0.name, of: fields) }
    return connections.with { db in
      let q = Self.quoted
      let columns = ([table.fid, table.geometry] + made.map(\.name)).map(q).joined(separator: ", ")
      var sql = "SELECT \(columns) FROM \(q(table.name))"
      var bindings: [Double] = []
      let indexed = filter.map { f in table.rtree != nil && !(scan ?? Self.scans(table, filter: f)) } ?? false
      if let f = filter, let rtree = table.rtree, indexed {
        sql += " WHERE \(q(table.fid)) IN (SELECT id FROM \(q(rtree)) WHERE minx <= ?3 AND maxx >= ?1 AND miny <= ?4 AND maxy >= ?2)"
        bindings = [f.minX, f.minY, f.maxX, f.maxY]
      }
      sql += " ORDER BY \(q(table.fid))"
      var statement: OpaquePointer?
      guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
        return .failure(.ogr(path: source.name, message: String(cString: sqlite3_errmsg(db))))
      }
      defer { sqlite3_finalize(statement) }
      for (i, b) in bindings.enumerated() { sqlite3_bind_double(statement, Int32(i + 1), b) }
      var features = FeatureReadBuilder(schema: table.columns.map(\.name))
      // A read of the whole table, or of most of it (a planned scan), makes
      // room for its features at once, as many as the file says it holds
      // (bounded: the count is the file's word, not a measure).
      if filter == nil || (table.rtree != nil && !indexed), let n = table.count, n > 0 {
        features.reserve(min(n, Self.reservedFeaturesLimit))
      }
      // A table's column names are unique (SQLite refuses a repeated one),
      // so every feature's properties share one key index (built only past
      // `JSONObject.linearSearchLimit` columns) instead of checking their
      // keys and building an index each.
      let names = made.map(\.name)
      let booleans = made.map(\.boolean)
      let keyIndex: [String: Int]? =
        made.count > JSONObject.linearSearchLimit
        ? Dictionary(uniqueKeysWithValues: made.enumerated().map { ($0.element.name, $0.offset) }) : nil
      while true {
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { break }
        guard step == SQLITE_ROW else { return .failure(.ogr(path: source.name, message: String(cString: sqlite3_errmsg(db)))) }
        let fid = Int(sqlite3_column_int64(statement, 0))
        // The geometry first: a scan skips the rows outside its filter
        // before their properties are made.
        let blob = sqlite3_column_blob(statement, 1)
        let size = Int(sqlite3_column_bytes(statement, 1))
        let bytes = blob.map { UnsafeRawBufferPointer(start: $0, count: size) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        // Scanning, the filter is the R-tree's test itself, on the header's
        // envelope (which the R-tree holds) before the geometry is parsed.
        let scanned = filter != nil && !indexed
        let envelope = scanned ? GeoPackageGeometry.envelope(bytes) : nil
        if let f = filter, let e = envelope, !Self.meets(e, f) { continue }
        // The feature is made once, with its geometry moved in: each copy
        // of a feature or geometry costs a retain and a release per array
        // it holds (a fifth of the read, measured on the Helsinki layers).
        var geometry: Geometry? = nil
        var bounds: Rect? = nil
        var issue: WKBReader.Issue? = nil
        if sqlite3_column_type(statement, 1) != SQLITE_NULL {
          do throws(WKBReader.Issue) { (geometry, bounds) = try GeoPackageGeometry.parse(bytes) } catch { issue = error }
        }
        // A row without a header envelope is tested on its geometry's
        // bounds; one without either (no geometry, an empty one) is not in
        // the R-tree.
        if let f = filter, scanned, envelope == nil, issue == nil {
          guard let b = bounds, Self.meets(b, f) else { continue }
        }
        // A feature with a geometry that does not parse is not hashed; the
        // others' bytes are gathered for the digest as their properties are
        // made.
        if issue == nil { features.beginDigest(fid: fid, geometry: bytes) }
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(names.count)
        for k in names.indices {
          let value = Self.value(statement, Int32(k + 2), boolean: booleans[k])
          if issue == nil { features.digestProperty(names[k], value) }
          pairs.append((names[k], value))
        }
        features.add(fid: fid, properties: JSONObject(uniquePairs: pairs, index: keyIndex), geometry: geometry, issue: issue)
      }
      return .success(
        features.finish(
          driver: "GPKG", layer: table.name, reference: table.reference, source: source, featuresInLayer: table.count,
          scan: .reason(filter: filter, indexed: table.rtree != nil, scanned: !indexed)))
    }
  }

  private static func value(_ s: OpaquePointer, _ i: Int32, boolean: Bool) -> JSONValue {
    switch sqlite3_column_type(s, i) {
    case SQLITE_INTEGER:
      let v = sqlite3_column_int64(s, i)
      return boolean ? .bool(v != 0) : ogrInteger(v)
    case SQLITE_FLOAT: return .number(sqlite3_column_double(s, i))
    case SQLITE_TEXT:
      // Up to its first NUL, as GDAL reads it; its length from SQLite.
      guard let text = sqlite3_column_text(s, i) else { return .string("") }
      let n = strnlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), Int(sqlite3_column_bytes(s, i)))
      return .string(String(decoding: UnsafeBufferPointer(start: text, count: n), as: UTF8.self))
    default: return .null
    }
  }

  /// An identifier in double quotes, its quotes doubled.
  static func quoted(_ name: String) -> String {
    var out = "\""
    for c in name {
      if c == "\"" { out.append("\"") }
      out.append(c)
    }
    return out + "\""
  }

  /// One value of a metadata row.
  struct Cell {
    var text: String?
    var integer: Int64?
    var real: Double?
  }

  /// The rows of a small metadata query, `bindings` bound as text; none
  /// when SQLite cannot prepare it (a table or column missing).
  fileprivate static func rows(_ db: OpaquePointer, _ sql: String, _ bindings: [String]) -> [[Cell]] {
    query(db, sql, bindings) ?? []
  }

  /// The same, nil when SQLite cannot prepare the query.
  fileprivate static func query(_ db: OpaquePointer, _ sql: String, _ bindings: [String]) -> [[Cell]]? {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
    defer { sqlite3_finalize(statement) }
    for (i, b) in bindings.enumerated() { sqlite3_bind_text(statement, Int32(i + 1), b, -1, Self.transient) }
    var out: [[Cell]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      var row: [Cell] = []
      for c in 0..<sqlite3_column_count(statement) {
        let text = sqlite3_column_text(statement, c).map { String(cString: $0) }
        let type = sqlite3_column_type(statement, c)
        let integer = type == SQLITE_INTEGER ? sqlite3_column_int64(statement, c) : nil
        let real = type == SQLITE_INTEGER || type == SQLITE_FLOAT ? sqlite3_column_double(statement, c) : nil
        row.append(Cell(text: text, integer: integer, real: real))
      }
      out.append(row)
    }
    return out
  }

  /// SQLITE_TRANSIENT: SQLite copies the bound text.
  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
