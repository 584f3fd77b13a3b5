internal import CPQ
internal import _LazyLibraries
internal import _MapSnapRaster
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A PostGIS table read with libpq itself, one query per read: GDAL reads a
/// layer through a cursor (DECLARE, FETCH, CLOSE: three round trips, each
/// parsed and planned by the server), which made a batch of thumbnails from
/// PostGIS cost twice the same batch from a GeoPackage (issue 15's target).
/// Here each connection prepares a table's query once and runs it once per
/// read, its spatial filter bound as binary doubles.
///
/// The rules are GDAL's, so a layer reads the same either way (`make
/// test-postgis` renders the Helsinki frame both ways and compares the
/// images and the reports' `ogr` blocks):
///
/// - layers are the tables, views and foreign tables with a `geometry` or
///   `geography` column, named `table` in the current schema and
///   `schema.table` elsewhere;
/// - the FID is the table's primary key, one integer column; the other
///   columns, in their order, become properties;
/// - the reference is the column's SRID (its type modifier), `EPSG:code`
///   from `spatial_ref_sys`;
/// - a spatial filter is `geom && ST_MakeEnvelope(…, srid)`, the bounding
///   box test GDAL sends; features come in FID order (`ORDER BY`);
/// - the count is `count(*)`, asked once per layer.
///
/// Only what those rules cover is read here: a connection string libpq does
/// not parse (GDAL's own options: `schemas=`, `tables=`, `active_schema=`…),
/// a layer the catalog does not list as above (a table without geometry,
/// GDAL opens by name), a table with two geometry columns, a `geography`
/// column, an SRID of 0 or one not in EPSG's register, a key that is not
/// one integer column, or a column of another type than those `Column.Kind`
/// decodes (dates, numerics, arrays…) — all go through GDAL (`OGRDataset`),
/// whose conversions are the reference.
///
/// The connection string's own settings come first, then libpq's
/// environment (`PGHOST`, `PGUSER`, `PGPASSWORD`, `~/.pgpass`…);
/// `connect_timeout` is `OGRSource.connectTimeoutSeconds` unless the string
/// sets it, and the client encoding is UTF-8 (as GDAL sets it). Reads are
/// single statements, each in its own snapshot: no transaction is held.
final class PostGISReader: @unchecked Sendable {
  /// One connection, and the tables whose query it has prepared.
  final class Connection {
    let pg: OpaquePointer
    var prepared: Set<Int> = []
    init(_ pg: OpaquePointer) { self.pg = pg }
  }

  private let connections: HandlePool<Connection>
  /// Each layer asked for (nil: the only one), looked up once: a table, or
  /// nil when GDAL reads it.
  private let tables = Mutex<[String?: Table?]>([:])
  /// Each table's `count(*)`, by `Table.serial`.
  private let counts = Mutex<[Int: Int]>([:])
  private let serials = Atomic<Int>(0)

  private init(connections: HandlePool<Connection>) { self.connections = connections }

  private static let opened = OpenDatasets<PostGISReader>()

  /// The connection string of `source` (`PG:` dropped) when libpq parses it,
  /// else nil: GDAL's own options make it GDAL's to read.
  static func conninfo(_ source: OGRSource) -> String? {
    guard source.isDatabase else { return nil }
    let conninfo = String(source.resolved.dropFirst(3))
    guard let options = PQconninfoParse(conninfo, nil) else { return nil }
    PQconninfoFree(options)
    return conninfo
  }

  /// The reader of the database `conninfo` names, kept open for the
  /// process (`OpenDatasets`), its failure to connect kept for
  /// `OGRSource.failureKeptSeconds`.
  static func shared(_ conninfo: String, source: OGRSource) -> Result<PostGISReader, SourceError> {
    opened.dataset("PG:" + conninfo) {
      connect(conninfo, source: source).map { first in
        PostGISReader(
          connections: HandlePool(
            first: first, open: { connect(conninfo, source: source) }, close: { PQfinish($0.pg) }))
      }
    }
  }

  /// Settings given before the connection string, which its own override.
  static let defaults: [(String, String)] = [
    ("connect_timeout", String(OGRSource.connectTimeoutSeconds)), ("fallback_application_name", "mapsnap"),
  ]

  private static func connect(_ conninfo: String, source: OGRSource) -> Result<Connection, SourceError> {
    let settings = defaults + [("dbname", conninfo), ("client_encoding", "UTF8")]
    let keywords = settings.map { strdup($0.0) }
    let values = settings.map { strdup($0.1) }
    defer {
      keywords.forEach { free($0) }
      values.forEach { free($0) }
    }
    let k = keywords.map { UnsafePointer($0) } + [nil]
    let v = values.map { UnsafePointer($0) } + [nil]
    // expand_dbname: `dbname` is read as a whole connection string or URI.
    guard let pg = PQconnectdbParams(k, v, 1) else {
      return .failure(.database(path: source.name, message: mapsnap_pq_unavailable().map { String(cString: $0) } ?? "out of memory"))
    }
    guard PQstatus(pg) == CONNECTION_OK else {
      let message = Self.message(PQerrorMessage(pg))
      PQfinish(pg)
      return .failure(.database(path: source.name, message: message))
    }
    return .success(Connection(pg))
  }

  /// A libpq message on one line: its lines (libpq indents the second
  /// with a tab) joined as sentences, the trailing newline dropped.
  static func message(_ text: UnsafePointer<CChar>?) -> String {
    guard let text else { return "unknown error" }
    var out = ""
    for line in String(cString: text).split(whereSeparator: { $0 == "\n" || $0 == "\t" }).map({ String($0).trimmedOfSpaces })
    where !line.isEmpty {
      if let last = out.last { out += ".!?:;".contains(last) ? " " : ". " }
      out += line
    }
    return out.isEmpty ? "unknown error" : out
  }

  /// A column the reader decodes, by its type.
  struct Column: Sendable {
    enum Kind: Sendable {
      /// `int2`, `int4`, `int8`: numbers (beyond ±2^53, text).
      case integer(bytes: Int)
      /// `float8`, exact in binary.
      case double
      /// `float4`, read as the server's text and parsed, as GDAL reads it:
      /// `0.1` is 0.1, not the float's 0.100000001490116.
      case floatText
      /// `bool`.
      case boolean
      /// `text`, `varchar`, `bpchar`, `name`: UTF-8.
      case text
    }
    var name: String
    var kind: Kind

    /// The kind of a column of type `typeName`; nil for a type GDAL converts
    /// (dates, numerics, arrays, JSON…).
    static func kind(of typeName: String) -> Kind? {
      switch typeName {
      case "int2": return .integer(bytes: 2)
      case "int4": return .integer(bytes: 4)
      case "int8": return .integer(bytes: 8)
      case "float8": return .double
      case "float4": return .floatText
      case "bool": return .boolean
      case "text", "varchar", "bpchar", "name": return .text
      default: return nil
      }
    }
  }

  /// A table the reader covers: where its key, geometry and columns are.
  struct Table: Sendable {
    /// Names the table's prepared query on each connection.
    var serial: Int
    /// GDAL's name of the layer.
    var name: String
    var schema: String
    var table: String
    var geometry: String
    var fid: String
    var fidBytes: Int
    var srid: Int
    var columns: [Column]
    /// `EPSG:code`.
    var reference: String
    /// A GiST, SP-GiST or BRIN index holds the geometry column.
    var indexed: Bool
    /// The type (OID) of each column of the read's result, as the catalog
    /// gave them: a read whose result has other types (the table was
    /// altered since) is refused, not decoded with the old widths.
    var resultTypes: [UInt32]

    /// `"schema"."table"`.
    var qualified: String { GeoPackageReader.quoted(schema) + "." + GeoPackageReader.quoted(table) }

    /// The read's query: the key, the geometry as WKB (little-endian, as
    /// GDAL's is exported), the columns; filtered by the envelope $1–$4.
    func query(filtered: Bool) -> String {
      let q = GeoPackageReader.quoted
      var select = [q(fid), "ST_AsBinary(\(q(geometry)), 'NDR')"]
      for c in columns {
        if case .floatText = c.kind { select.append("\(q(c.name))::text") } else { select.append(q(c.name)) }
      }
      var sql = "SELECT \(select.joined(separator: ", ")) FROM \(qualified)"
      if filtered { sql += " WHERE \(q(geometry)) && ST_MakeEnvelope($1, $2, $3, $4, \(srid))" }
      return sql + " ORDER BY \(q(fid))"
    }
  }

  /// The table of layer `name` (nil: the only one); nil when GDAL reads it.
  /// What the catalog says is kept; a failure is not (the next frame asks
  /// again: a server restarting is not a table missing for good).
  func table(_ name: String?, source: OGRSource) -> Result<Table?, SourceError> {
    if let hit = tables.withLock({ $0[name] }) { return .success(hit) }
    let found = connections.with { c in lookUp(c.pg, name, source: source) }
    if case .success(let table) = found { tables.withLock { _ = $0.updateValue(table, forKey: name) } }
    return found
  }

  /// A layer of the catalog: one geometry or geography column of a table.
  struct CatalogEntry: Equatable {
    var schema: String
    var table: String
    var column: String
    var relation: String
    var attnum: String
    var type: String
    var srid: Int
  }

  /// GDAL's names of the catalog's layers: `table` in the current schema,
  /// `schema.table` elsewhere, and `(column)` after either for a table with
  /// several geometry columns.
  static func layerNames(_ entries: [CatalogEntry], currentSchema: String) -> [String] {
    entries.map { e in
      let base = e.schema == currentSchema ? e.table : e.schema + "." + e.table
      let columns = entries.filter { $0.relation == e.relation }.count
      return columns > 1 ? base + "(" + e.column + ")" : base
    }
  }

  private func lookUp(_ pg: OpaquePointer, _ name: String?, source: OGRSource) -> Result<Table?, SourceError> {
    // Any query failing on a connection that still works: GDAL's to read
    // (it says what is wrong in its own words, e.g. a database without
    // PostGIS).
    func failed() -> Result<Table?, SourceError> {
      PQstatus(pg) == CONNECTION_OK ? .success(nil) : .failure(.database(path: source.name, message: Self.message(PQerrorMessage(pg))))
    }
    guard
      let catalog = Self.rows(
        pg,
        """
        SELECT n.nspname::text, c.relname::text, a.attname::text, c.oid::text, a.attnum::text, t.typname::text,
          postgis_typmod_srid(a.atttypmod)::text, current_schema()::text
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        JOIN pg_type t ON t.oid = a.atttypid AND t.typname IN ('geometry', 'geography')
        WHERE c.relkind IN ('r', 'v', 'm', 'f') AND NOT (n.nspname = 'public' AND c.relname = 'raster_columns')
        ORDER BY c.oid, a.attnum
        """, [])
    else { return failed() }
    let entries = catalog.map { r in
      CatalogEntry(
        schema: r[0] ?? "", table: r[1] ?? "", column: r[2] ?? "", relation: r[3] ?? "", attnum: r[4] ?? "", type: r[5] ?? "",
        srid: Int(r[6] ?? "") ?? 0)
    }
    let names = Self.layerNames(entries, currentSchema: catalog.first?[7] ?? "public")
    let index: Int
    if let name {
      // A name the catalog lacks may still be a table GDAL opens (one
      // without geometry); GDAL also words the error for one that is not.
      guard let i = names.firstIndex(of: name) else { return .success(nil) }
      index = i
    } else {
      guard names.count == 1 else { return .failure(.ogrLayer(path: source.name, layer: nil, layers: names)) }
      index = 0
    }
    let entry = entries[index]
    guard entry.type == "geometry", entry.srid > 0, entries.filter({ $0.relation == entry.relation }).count == 1 else { return .success(nil) }
    guard let keys = Self.rows(
        pg,
        """
        SELECT a.attname::text, t.typname::text FROM pg_index i
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        JOIN pg_type t ON t.oid = a.atttypid
        WHERE i.indrelid = $1::oid AND i.indisprimary
        """, [entry.relation]),
      let attributes = Self.rows(
        pg,
        """
        SELECT a.attname::text, t.typname::text, a.atttypid::text FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
        """, [entry.relation]),
      let spatialIndex = Self.rows(
        pg,
        """
        SELECT EXISTS (SELECT 1 FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_am am ON am.oid = x.relam
          WHERE i.indrelid = $1::oid AND am.amname IN ('gist', 'spgist', 'brin') AND $2::int2 = ANY(i.indkey))::text
        """, [entry.relation, entry.attnum]),
      let reference = Self.rows(pg, "SELECT auth_name::text, auth_srid::text FROM spatial_ref_sys WHERE srid = $1::int4", [String(entry.srid)])
    else { return failed() }
    guard keys.count == 1, let fid = keys[0][0], case .integer(let fidBytes)? = keys[0][1].flatMap(Column.kind(of:)) else { return .success(nil) }
    guard reference.count == 1, reference[0][0]?.uppercased() == "EPSG", let code = reference[0][1] else { return .success(nil) }
    var columns: [Column] = []
    var fidType: UInt32 = 0
    var types: [UInt32] = []
    for a in attributes {
      guard let column = a[0], column != entry.column else { continue }
      let type = a[2].flatMap { UInt32($0) } ?? 0
      if column == fid {
        fidType = type
        continue
      }
      guard let kind = a[1].flatMap(Column.kind(of:)) else { return .success(nil) }
      columns.append(Column(name: column, kind: kind))
      // float4 is read as text.
      if case .floatText = kind { types.append(Self.textType) } else { types.append(type) }
    }
    return .success(
      Table(
        serial: serials.add(1, ordering: .relaxed).newValue, name: names[index], schema: entry.schema, table: entry.table,
        geometry: entry.column, fid: fid, fidBytes: fidBytes, srid: entry.srid, columns: columns, reference: "EPSG:" + code,
        indexed: spatialIndex.first?[0] == "true", resultTypes: [fidType, Self.byteaType] + types))
  }

  /// PostgreSQL's type OIDs of `bytea` (ST_AsBinary's result) and `text`.
  static let byteaType: UInt32 = 17
  static let textType: UInt32 = 25

  /// The features of `table` whose bounding boxes meet `filter` (nil: all),
  /// in FID order, in the table's reference, with the columns in `fields`
  /// as properties (`FeatureReadBuilder.makes`; the query still fetches them
  /// all, so that each table has one prepared query). After a failed read the table
  /// is looked up afresh by the next one (it may have been altered).
  func read(_ table: Table, filter: Rect?, fields: Set<String>? = nil, source: OGRSource) -> Result<FeatureRead<OGRReadInfo>, SourceError> {
    let result = readRows(table, filter: filter, fields: fields, source: source)
    if case .failure = result { tables.withLock { $0 = $0.filter { $0.value?.serial != table.serial } } }
    return result
  }

  private func readRows(_ table: Table, filter: Rect?, fields: Set<String>?, source: OGRSource) -> Result<FeatureRead<OGRReadInfo>, SourceError> {
    connections.with { c -> Result<FeatureRead<OGRReadInfo>, SourceError> in
      let count: Int
      if let known = counts.withLock({ $0[table.serial] }) {
        count = known
      } else {
        guard let r = Self.rows(c.pg, "SELECT count(*)::text FROM \(table.qualified)", []), let n = r.first?[0].flatMap({ Int($0) }) else {
          return .failure(.database(path: source.name, message: Self.message(PQerrorMessage(c.pg))))
        }
        counts.withLock { $0[table.serial] = n }
        count = n
      }
      guard let result = Self.execute(c, table, filter: filter) else {
        return .failure(.database(path: source.name, message: Self.message(PQerrorMessage(c.pg))))
      }
      defer { PQclear(result) }
      guard PQresultStatus(result) == PGRES_TUPLES_OK else {
        return .failure(.database(path: source.name, message: Self.message(PQresultErrorMessage(result))))
      }
      guard Int(PQnfields(result)) == table.resultTypes.count,
        table.resultTypes.indices.allSatisfy({ PQftype(result, Int32($0)) == table.resultTypes[$0] })
      else {
        return .failure(
          .database(
            path: source.name,
            message: "table \(Echo.quoted(table.name)) changed while it was being read (its columns' types are not those it had); it is looked up again on the next read"))
      }
      return .success(
        Self.decode(result, table, fields: fields).finish(
          driver: "PostgreSQL", layer: table.name, reference: table.reference, source: source, featuresInLayer: count,
          scan: .reason(filter: filter, indexed: table.indexed)))
    }
  }

  /// The read's result (binary), through the table's query prepared on the
  /// connection the first time; nil when libpq has none to give (out of
  /// memory, a connection lost).
  private static func execute(_ c: Connection, _ table: Table, filter: Rect?) -> OpaquePointer? {
    guard let f = filter else {
      return PQexecParams(c.pg, table.query(filtered: false), 0, nil, nil, nil, nil, 1)
    }
    let statement = "mapsnap_\(table.serial)"
    if !c.prepared.contains(table.serial) {
      // float8 (OID 701) for the four bounds.
      guard let p = PQprepare(c.pg, statement, table.query(filtered: true), 4, [701, 701, 701, 701]) else { return nil }
      // A preparation that failed is the read's result: its error is the read's.
      guard PQresultStatus(p) == PGRES_COMMAND_OK else { return p }
      PQclear(p)
      c.prepared.insert(table.serial)
    }
    // The envelope as float8 in binary (big-endian): exact, as GDAL's
    // 18 significant digits are.
    var bytes = [f.minX, f.minY, f.maxX, f.maxY].map { $0.bitPattern.bigEndian }
    return bytes.withUnsafeMutableBytes { raw -> OpaquePointer? in
      let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
      let values: [UnsafePointer<CChar>?] = (0..<4).map { UnsafePointer(base + 8 * $0) }
      return PQexecPrepared(c.pg, statement, 4, values, [8, 8, 8, 8], [1, 1, 1, 1], 1)
    }
  }

  /// The rows of a result in binary format as features, as `OGRDataset`
  /// makes them from GDAL's.
  private static func decode(_ result: OpaquePointer, _ table: Table, fields: Set<String>?) -> FeatureReadBuilder {
    var features = FeatureReadBuilder(schema: table.columns.map(\.name))
    // The result's column of each property made.
    let made = table.columns.indices.filter { FeatureReadBuilder.makes(table.columns[$0].name, of: fields) }
    let keyIndex: [String: Int]? =
      made.count > JSONObject.linearSearchLimit
      ? Dictionary(uniqueKeysWithValues: made.enumerated().map { (table.columns[$0.element].name, $0.offset) }) : nil
    for row in 0..<PQntuples(result) {
      let fid = Int(integer(PQgetvalue(result, row, 0), bytes: table.fidBytes))
      var pairs: [(key: String, value: JSONValue)] = []
      pairs.reserveCapacity(made.count)
      for k in made {
        let column = table.columns[k]
        let i = Int32(k + 2)
        pairs.append((column.name, PQgetisnull(result, row, i) == 1 ? .null : value(PQgetvalue(result, row, i), length: Int(PQgetlength(result, row, i)), column.kind)))
      }
      let wkb =
        PQgetisnull(result, row, 1) == 1
        ? UnsafeRawBufferPointer(start: nil, count: 0)
        : UnsafeRawBufferPointer(start: PQgetvalue(result, row, 1), count: Int(PQgetlength(result, row, 1)))
      features.add(fid: fid, properties: JSONObject(uniquePairs: pairs, index: keyIndex), wkb: wkb)
    }
    return features
  }

  /// A big-endian integer of `bytes` bytes (2, 4 or 8), sign-extended.
  static func integer(_ p: UnsafePointer<CChar>?, bytes: Int) -> Int64 {
    guard let p else { return 0 }
    let raw = UnsafeRawPointer(p)
    switch bytes {
    case 2: return Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self)))
    case 4: return Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self)))
    default: return Int64(bigEndian: raw.loadUnaligned(as: Int64.self))
    }
  }

  /// A non-null value of a binary result.
  static func value(_ p: UnsafePointer<CChar>?, length: Int, _ kind: Column.Kind) -> JSONValue {
    guard let p else { return .null }
    switch kind {
    case .integer(let bytes): return ogrInteger(integer(p, bytes: bytes))
    case .double: return .number(Double(bitPattern: UInt64(bigEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))))
    case .floatText: return .number(strtod(p, nil))
    case .boolean: return .bool(p.pointee != 0)
    case .text: return .string(String(decoding: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self))
    }
  }

  /// The rows of a small catalog query (text in, text out; nil for SQL
  /// NULL), or nil when it fails.
  private static func rows(_ pg: OpaquePointer, _ sql: String, _ parameters: [String]) -> [[String?]]? {
    let copies = parameters.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let values = copies.map { UnsafePointer($0) }
    guard let result = PQexecParams(pg, sql, Int32(parameters.count), nil, values, nil, nil, 0) else { return nil }
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_TUPLES_OK else { return nil }
    return (0..<PQntuples(result)).map { r in
      (0..<PQnfields(result)).map { i in PQgetisnull(result, r, i) == 1 ? nil : String(cString: PQgetvalue(result, r, i)) }
    }
  }
}
