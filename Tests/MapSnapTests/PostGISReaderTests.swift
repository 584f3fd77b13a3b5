import Testing

@testable import MapSnap

/// The parts of the libpq PostGIS reader that need no server: which
/// connection strings and columns it takes (the rest goes through GDAL),
/// GDAL's layer names, its query, and the decoding of binary results. The
/// reads themselves run against a real server in `make test-postgis`,
/// which compares them with GDAL's.
@Suite struct PostGISReaderTests {
  static func source(_ name: String) -> OGRSource { OGRSource(name: name, resolved: name, layer: nil, crs: nil) }

  /// libpq's strings and URIs are read here; GDAL's own options and
  /// anything that is not `PG:` are GDAL's.
  @Test func connectionStringsLibpqParsesAreReadWithLibpq() {
    #expect(PostGISReader.conninfo(Self.source("PG:dbname=gis")) == "dbname=gis")
    #expect(PostGISReader.conninfo(Self.source("PG:host=/tmp dbname=gis connect_timeout=2")) == "host=/tmp dbname=gis connect_timeout=2")
    #expect(PostGISReader.conninfo(Self.source("PG:postgresql://mapsnap@/gis")) == "postgresql://mapsnap@/gis")
    #expect(PostGISReader.conninfo(Self.source("PG:dbname=gis active_schema=public")) == nil)
    #expect(PostGISReader.conninfo(Self.source("PG:dbname=gis tables=roads")) == nil)
    #expect(PostGISReader.conninfo(Self.source("roads.gpkg")) == nil)
  }

  /// A server that cannot be reached is the database's own message, on one
  /// line, at once (a socket folder that does not exist), and is kept:
  /// the next frame does not try again.
  @Test func anUnreachableServerIsTheDatabasesMessage() throws {
    let source = Self.source("PG:host=/nonexistent-mapsnap-socket-folder dbname=gis")
    let conninfo = try #require(PostGISReader.conninfo(source))
    guard case .failure(let e) = PostGISReader.shared(conninfo, source: source) else {
      Issue.record("connected to a server that is not there")
      return
    }
    guard case .database(let path, let message) = e else {
      Issue.record("not a database error: \(e)")
      return
    }
    #expect(path == source.name)
    #expect(message.contains("/nonexistent-mapsnap-socket-folder/.s.PGSQL.5432"), "\(message)")
    #expect(!message.contains("\n") && !message.contains("\t"), "\(message)")
    #expect(e.description.hasPrefix("PG:host=/nonexistent-mapsnap-socket-folder dbname=gis: PostgreSQL: connection to server"), "\(e)")
    #expect(HandlePool<Int>.breaks(e), "a connection a database error came from is not reused")
  }

  @Test func messagesJoinLibpqsLinesAsSentences() {
    let text = "connection to server failed: No such file or directory\n\tIs the server running locally?\n"
    #expect(PostGISReader.message(text) == "connection to server failed: No such file or directory. Is the server running locally?")
    #expect(PostGISReader.message("ERROR:  relation \"x\" does not exist\nLINE 1: SELECT\n") == "ERROR:  relation \"x\" does not exist. LINE 1: SELECT")
    #expect(PostGISReader.message("\n") == "unknown error")
  }

  /// GDAL's names: the table in the current schema, `schema.table`
  /// elsewhere, `(column)` after a table with two geometry columns.
  @Test func layersAreNamedAsGDALNamesThem() {
    func entry(_ schema: String, _ table: String, _ column: String, _ relation: String) -> PostGISReader.CatalogEntry {
      .init(schema: schema, table: table, column: column, relation: relation, attnum: "2", type: "geometry", srid: 4326)
    }
    let entries = [
      entry("public", "roads", "geom", "1"), entry("city", "roads", "geom", "2"), entry("public", "two", "a", "3"),
      entry("public", "two", "b", "3"),
    ]
    #expect(PostGISReader.layerNames(entries, currentSchema: "public") == ["roads", "city.roads", "two(a)", "two(b)"])
    #expect(PostGISReader.layerNames(entries, currentSchema: "city") == ["public.roads", "roads", "public.two(a)", "public.two(b)"])
  }

  /// The types decoded here; any other column sends the table to GDAL.
  @Test func columnTypesTheReaderDecodes() {
    for (type, decoded) in [
      ("int2", true), ("int4", true), ("int8", true), ("float4", true), ("float8", true), ("bool", true), ("text", true),
      ("varchar", true), ("bpchar", true), ("name", true), ("numeric", false), ("date", false), ("timestamptz", false),
      ("time", false), ("_int4", false), ("json", false), ("uuid", false), ("bytea", false), ("geography", false),
    ] {
      #expect((PostGISReader.Column.kind(of: type) != nil) == decoded, "\(type)")
    }
  }

  /// One query per read: the key, the geometry as little-endian WKB, the
  /// columns (float4 as the server's text), the envelope test GDAL sends,
  /// FID order; names quoted.
  @Test func theReadsQuery() {
    let table = PostGISReader.Table(
      serial: 1, name: "we\"ird", schema: "public", table: "we\"ird", geometry: "geom", fid: "ogc_fid", fidBytes: 4, srid: 3067,
      columns: [.init(name: "name", kind: .text), .init(name: "width", kind: .floatText)], reference: "EPSG:3067", indexed: true,
      resultTypes: [23, 17, 25, 25])
    #expect(
      table.query(filtered: true)
        == #"SELECT "ogc_fid", ST_AsBinary("geom", 'NDR'), "name", "width"::text FROM "public"."we""ird" WHERE "geom" && ST_MakeEnvelope($1, $2, $3, $4, 3067) ORDER BY "ogc_fid""#
    )
    #expect(
      table.query(filtered: false)
        == #"SELECT "ogc_fid", ST_AsBinary("geom", 'NDR'), "name", "width"::text FROM "public"."we""ird" ORDER BY "ogc_fid""#)
  }

  /// Binary values as the server sends them (big-endian), as properties
  /// equal to GDAL's.
  @Test func binaryValuesDecodeAsGDALReadsThem() {
    func value(_ bytes: [UInt8], _ kind: PostGISReader.Column.Kind) -> JSONValue {
      let chars = bytes.map { CChar(bitPattern: $0) } + [0]
      return chars.withUnsafeBufferPointer { PostGISReader.value($0.baseAddress, length: bytes.count, kind) }
    }
    #expect(value([0xFF, 0xF9], .integer(bytes: 2)) == .number(-7))
    #expect(value([0x00, 0x01, 0xE2, 0x40], .integer(bytes: 4)) == .number(123456))
    #expect(value([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xD6], .integer(bytes: 8)) == .number(-42))
    #expect(value([0x00, 0x20, 0, 0, 0, 0, 0, 0x01], .integer(bytes: 8)) == .string("9007199254740993"), "beyond 2^53 as text")
    #expect(value([0x3E, 0x90, 0xC6, 0xF7, 0xA0, 0xB5, 0xED, 0x8D], .double) == .number(2.5e-7))
    #expect(value(Array("0.1".utf8), .floatText) == .number(0.1), "float4 0.1 is 0.1, not 0.100000001490116")
    #expect(value(Array("3.4028235e+38".utf8), .floatText) == .number(3.4028235e38))
    #expect(value([1], .boolean) == .bool(true) && value([0], .boolean) == .bool(false))
    #expect(value(Array("Töölö".utf8), .text) == .string("Töölö"))
  }
}
