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
///   properties: integers as numbers (beyond ±2^53 as text), reals, text
///   (dates and times as stored: ISO 8601 text), columns declared BOOLEAN as
///   booleans, nulls; blobs as null;
/// - geometries are GeoPackage binary: the `GP` header (byte order, envelope,
///   empty flag) then WKB (`WKBReader`);
/// - with a spatial filter, the table's R-tree (`rtree_<table>_<column>`)
///   selects the features whose envelopes meet it; without an R-tree every
///   row is read and its envelope tested (the report says the layer was
///   scanned whole);
/// - features come in FID order; the count is `gpkg_ogr_contents`'s when the
///   file has it.
///
/// Opened read-only and immutable, through the descriptor checked to be a
/// regular file (as `MBTilesReader`). One reader per open file
/// (`OpenDatasets`); its SQLite connections in a `HandlePool`, one per
/// thread reading at once, closed with it.
final class GeoPackageReader: @unchecked Sendable {
  private let connections: HandlePool<OpaquePointer>
  /// Each table asked for (nil: the only one), found once.
  private let tables = Mutex<[String?: Result<Table, SourceError>]>([:])

  private init(connections: HandlePool<OpaquePointer>) { self.connections = connections }

  private static let opened = OpenDatasets<GeoPackageReader>()

  /// True when `path` names a GeoPackage file (by its extension, as GDAL's
  /// driver picks it).
  static func handles(_ path: String) -> Bool { path.lowercased().hasSuffix(".gpkg") }

  /// The reader of the file at `resolved`, kept open for the process
  /// (`OpenDatasets`: the 32 most recently opened files).
  static func shared(_ source: OGRSource, confinement: Confinement?) -> Result<GeoPackageReader, SourceError> {
    guard let canonical = FileIO.canonicalPath(source.resolved) else {
      return .failure(.missing(path: source.name, resolvedPath: source.resolved))
    }
    return opened.dataset(canonical) {
      connect(source, canonical: canonical, confinement: confinement).flatMap { db -> Result<GeoPackageReader, SourceError> in
        guard rows(db, "SELECT 1 FROM sqlite_master WHERE name = 'gpkg_contents'", []).count == 1 else {
          sqlite3_close(db)
          return .failure(.ogr(path: source.name, message: "not a GeoPackage (no gpkg_contents table)"))
        }
        let pool = HandlePool(first: db, open: { connect(source, canonical: canonical, confinement: confinement) }, close: { sqlite3_close($0) })
        return .success(GeoPackageReader(connections: pool))
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
  }

  /// The table `name` (nil: the only features table).
  func table(_ name: String?, source: OGRSource) -> Result<Table, SourceError> {
    if let hit = tables.withLock({ $0[name] }) { return hit }
    let found = connections.with { db in Self.findTable(db, name, source: source) }
    tables.withLock { $0[name] = found }
    return found
  }

  private static func findTable(_ db: OpaquePointer, _ name: String?, source: OGRSource) -> Result<Table, SourceError> {
    let names = rows(db, "SELECT table_name FROM gpkg_contents WHERE data_type = 'features' ORDER BY rowid", []).compactMap { $0.first?.text }
    let chosen: String
    if let name {
      guard names.contains(name) else { return .failure(.ogrLayer(path: source.name, layer: name, layers: names)) }
      chosen = name
    } else {
      guard names.count == 1 else { return .failure(.ogrLayer(path: source.name, layer: nil, layers: names)) }
      chosen = names[0]
    }
    guard let g = rows(db, "SELECT column_name, srs_id FROM gpkg_geometry_columns WHERE table_name = ?1", [chosen]).first,
      let geometry = g[0].text
    else { return .failure(.ogr(path: source.name, message: "table \(Echo.quoted(chosen)) has no row in gpkg_geometry_columns")) }
    let srs = g[1].integer ?? 0
    var reference: String? = nil
    if srs != 0 && srs != -1, let r = rows(db, "SELECT organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?1", [String(srs)]).first {
      if r[0].text?.uppercased() == "EPSG", let code = r[1].integer {
        reference = "EPSG:\(code)"
      } else if let wkt = r[2].text, wkt.lowercased() != "undefined" {
        reference = wkt
      }
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
    let rtree = rows(db, "SELECT 1 FROM sqlite_master WHERE name = ?1", [rtreeName]).isEmpty ? nil : rtreeName
    var count: Int? = nil
    if !rows(db, "SELECT 1 FROM sqlite_master WHERE name = 'gpkg_ogr_contents'", []).isEmpty {
      count = rows(db, "SELECT feature_count FROM gpkg_ogr_contents WHERE table_name = ?1", [chosen]).first?[0].integer.map(Int.init)
    }
    return .success(
      Table(name: chosen, geometry: geometry, fid: fid ?? "rowid", columns: columns, reference: reference, rtree: rtree, count: count))
  }

  /// The features of `table` whose envelopes meet `filter` (nil: all), in
  /// FID order, in the table's reference.
  func read(_ table: Table, filter: Rect?, source: OGRSource) -> Result<(FeatureCollection, OGRReadInfo), SourceError> {
    connections.with { db in
      let q = Self.quoted
      let columns = ([table.fid, table.geometry] + table.columns.map(\.name)).map(q).joined(separator: ", ")
      var sql = "SELECT \(columns) FROM \(q(table.name))"
      var bindings: [Double] = []
      let indexed = filter != nil && table.rtree != nil
      if let f = filter, let rtree = table.rtree {
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
      var c = FeatureCollection()
      var read = 0
      var digest = FeatureDigest()
      // A table's column names are unique (SQLite refuses a repeated one),
      // so every feature's properties share one key index (built only past
      // `JSONObject.linearSearchLimit` columns) instead of checking their
      // keys and building an index each.
      let keyIndex: [String: Int]? =
        table.columns.count > JSONObject.linearSearchLimit
        ? Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($0.element.name, $0.offset) }) : nil
      while true {
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { break }
        guard step == SQLITE_ROW else { return .failure(.ogr(path: source.name, message: String(cString: sqlite3_errmsg(db)))) }
        let fid = Int(sqlite3_column_int64(statement, 0))
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(table.columns.count)
        for (k, column) in table.columns.enumerated() {
          pairs.append((column.name, Self.value(statement, Int32(k + 2), boolean: column.boolean)))
        }
        var feature = Feature(id: .number(Double(fid)), properties: JSONObject(uniquePairs: pairs, index: keyIndex), geometry: Geometry(), index: fid)
        let blob = sqlite3_column_blob(statement, 1)
        let size = Int(sqlite3_column_bytes(statement, 1))
        let bytes = blob.map { UnsafeRawBufferPointer(start: $0, count: size) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let geometry: GeoPackageGeometry
        do throws(WKBReader.Issue) {
          geometry = try GeoPackageGeometry(bytes)
        } catch {
          read += 1
          c.invalidCount += 1
          if c.invalidSamples.count < 3 { c.invalidSamples.append("FID \(fid): \(error.message)") }
          c.withoutGeometry.append(feature)
          continue
        }
        // Without an R-tree, the filter is the envelope test itself.
        if let f = filter, !indexed, let b = geometry.bounds, !(b.minX <= f.maxX && b.maxX >= f.minX && b.minY <= f.maxY && b.maxY >= f.minY) {
          continue
        }
        read += 1
        digest.add(fid: fid, geometry: bytes, properties: feature.properties)
        guard let g = geometry.geometry, !g.isEmpty else {
          c.unlocatedCount += 1
          c.withoutGeometry.append(feature)
          continue
        }
        feature.geometry = g
        c.features.append(feature)
      }
      c.contentDigest = digest.finish()
      let info = OGRReadInfo(
        driver: "GPKG", layer: table.name,
        spatialReference: OGRReadInfo.referenceName(crs: source.crs, layer: table.reference), featuresRead: read,
        featuresInLayer: table.count, spatialIndex: indexed)
      return .success((c, info))
    }
  }

  private static func value(_ s: OpaquePointer, _ i: Int32, boolean: Bool) -> JSONValue {
    switch sqlite3_column_type(s, i) {
    case SQLITE_INTEGER:
      let v = sqlite3_column_int64(s, i)
      return boolean ? .bool(v != 0) : ogrInteger(v)
    case SQLITE_FLOAT: return .number(sqlite3_column_double(s, i))
    case SQLITE_TEXT: return .string(String(cString: sqlite3_column_text(s, i)))
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
  }

  /// The rows of a small metadata query, `bindings` bound as text.
  private static func rows(_ db: OpaquePointer, _ sql: String, _ bindings: [String]) -> [[Cell]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [] }
    defer { sqlite3_finalize(statement) }
    for (i, b) in bindings.enumerated() { sqlite3_bind_text(statement, Int32(i + 1), b, -1, Self.transient) }
    var out: [[Cell]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      var row: [Cell] = []
      for c in 0..<sqlite3_column_count(statement) {
        let text = sqlite3_column_text(statement, c).map { String(cString: $0) }
        let integer = sqlite3_column_type(statement, c) == SQLITE_INTEGER ? sqlite3_column_int64(statement, c) : nil
        row.append(Cell(text: text, integer: integer))
      }
      out.append(row)
    }
    return out
  }

  /// SQLITE_TRANSIENT: SQLite copies the bound text.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A GeoPackage geometry blob (OGC 12-128r18, 2.1.3): `GP`, a version, a
/// flags byte (bit 0 byte order of the header, bits 1–3 the envelope's
/// kind: none, xy, xyz, xym, xyzm; bit 4 empty; bit 5 an extension type,
/// not read), the srs_id, the envelope, then the geometry as WKB.
struct GeoPackageGeometry {
  var geometry: Geometry?
  /// The header's envelope, or the geometry's bounds.
  var bounds: Rect?

  init(_ blob: UnsafeRawBufferPointer) throws(WKBReader.Issue) {
    guard blob.count >= 8, blob[0] == 0x47, blob[1] == 0x50 else { throw WKBReader.Issue(message: "not a GeoPackage geometry (no GP header)") }
    let flags = blob[3]
    guard flags & 0x20 == 0 else { throw WKBReader.Issue(message: "an extended GeoPackage geometry type") }
    let little = flags & 1 == 1
    let envelopeDoubles: Int
    switch (flags >> 1) & 7 {
    case 0: envelopeDoubles = 0
    case 1: envelopeDoubles = 4
    case 2, 3: envelopeDoubles = 6
    case 4: envelopeDoubles = 8
    default: throw WKBReader.Issue(message: "an unknown GeoPackage envelope kind")
    }
    let start = 8 + 8 * envelopeDoubles
    guard blob.count >= start else { throw WKBReader.Issue(message: "a GeoPackage geometry shorter than its header") }
    if envelopeDoubles > 0 {
      func d(_ k: Int) -> Double {
        let v = blob.loadUnaligned(fromByteOffset: 8 + 8 * k, as: UInt64.self)
        return Double(bitPattern: little ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
      }
      bounds = Rect(minX: d(0), minY: d(2), maxX: d(1), maxY: d(3))
    }
    if flags & 0x10 != 0 {
      geometry = nil
      return
    }
    let g = try WKBReader.geometry(UnsafeRawBufferPointer(rebasing: blob[start...]))
    geometry = g
    if bounds == nil && !g.isEmpty { bounds = g.bounds }
  }
}
