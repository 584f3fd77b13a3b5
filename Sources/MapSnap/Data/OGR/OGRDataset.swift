internal import _MapSnapRaster
internal import _OGRShims
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// An `ogr` source (scene format 3.1): a dataset GDAL/OGR reads —
/// GeoPackage, Shapefile, FlatGeobuf, an Esri File Geodatabase folder, or a
/// PostGIS connection `PG:…` — and one of its layers.
public struct OGRSource: Sendable, Hashable {
  /// The dataset as the scene names it.
  public var name: String
  /// A file path resolved against the scene's folder, or the `PG:` string.
  public var resolved: String
  /// The layer; nil when the dataset has exactly one.
  public var layer: String?
  /// The scene's `crs`, overriding the dataset's own reference.
  public var crs: String?

  /// True for a PostGIS connection (`PG:…`), not a file.
  public var isDatabase: Bool { name.hasPrefix("PG:") }

  /// For the reach of labels when only part of a dataset is read: texts
  /// are taken to have at most this many characters on a line and this
  /// many lines (a GeoJSON source measures its own texts instead). A label
  /// of a feature farther outside the frame than such a text reaches is not
  /// considered.
  static let labelTextBound = TextExtent(longestLine: 32, lines: 2)

  /// And their characters are taken to be at most 1 em wide: the widest of
  /// Latin, Greek, Cyrillic and CJK text (an em square). Not the fonts'
  /// widest advance: Noto Sans Arabic's is 7.22 em, one ligature code point
  /// (U+FDFD) no map label is made of, and it would grow the area read for a
  /// labelled layer some fifty-fold.
  static let labelAdvanceBound = 1.0

  /// Seconds a PostGIS connection may take before it fails (libpq's
  /// `connect_timeout`, added to the connection string when it has none).
  static let connectTimeoutSeconds = 5

  /// How long a failure to open a dataset or to connect to it is kept, in
  /// seconds: 10, twice `connectTimeoutSeconds` (libpq's timeout, per
  /// address of the host), so a batch over a database that is down spends
  /// at most about a third of its time waiting to connect, however many
  /// frames it has; then the next frame tries again (`OpenDatasets`,
  /// `HandlePool`).
  static let failureKeptSeconds = 10.0
}

/// What reading an `ogr` layer for a frame found, for the report and
/// `explain`.
public struct OGRReadInfo: Sendable, Equatable {
  /// GDAL's driver (`GPKG`, `ESRI Shapefile`, `FlatGeobuf`, `OpenFileGDB`,
  /// `PostgreSQL`).
  public var driver: String
  public var layer: String
  /// The reference features were read in: `EPSG:3067`, the scene's `crs`,
  /// or `WKT` for a reference without an authority code.
  public var spatialReference: String
  /// Features read for this frame (those whose bounds meet the frame grown
  /// by the layer's reach).
  public var featuresRead: Int
  /// Features in the layer, when the driver knows it cheaply.
  public var featuresInLayer: Int?
  /// Why the layer was read whole rather than through its spatial index
  /// (GeoPackage's R-tree, FlatGeobuf's packed R-tree, a Shapefile's
  /// `.qix`/`.sbn`, PostGIS's GiST); nil when the read went through it.
  public var scan: OGRScan?

  /// True when the driver filtered through a spatial index.
  public var spatialIndex: Bool { scan == nil }
}

/// Why an `ogr` read did not go through the layer's spatial index: the
/// report's `scanned` and `explain`'s words, so that "scanned" never
/// reads as "the file has no index" when it has one.
public enum OGRScan: String, Sendable, Equatable {
  /// No spatial filter: every feature of the layer is wanted (a view
  /// annotation names one of them, or the layer's reach has no bound).
  case everyFeature
  /// The layer has no spatial index (or the driver offers none).
  case noIndex
  /// The filter covers most of the layer: a scan that tests each row reads
  /// the same rows for less than the index would
  /// (`GeoPackageReader.scanCoverage`).
  case mostOfLayer

  /// The reason of a read with `filter` (nil: none) of a layer that has an
  /// index or not, whose filter the driver was told to scan or not; nil
  /// when the index served the read.
  static func reason(filter: Rect?, indexed: Bool, scanned: Bool = false) -> OGRScan? {
    if filter == nil { return .everyFeature }
    if !indexed { return .noIndex }
    return scanned ? .mostOfLayer : nil
  }

  /// How `explain` says it.
  public var explanation: String {
    switch self {
    case .everyFeature: return "read whole (every feature is wanted: a view annotation names one, or the layer's reach has no bound)"
    case .noIndex: return "scanned whole (the layer has no spatial index)"
    case .mostOfLayer: return "scanned whole (the frame covers most of the layer, where a scan reads the same rows for less than its spatial index)"
    }
  }
}

extension OGRReadInfo {
  /// How the report names the reference features were read in: the
  /// scene's `crs`, else the layer's `AUTHORITY:CODE`, else `WKT` for a
  /// reference given only as WKT, else `none`.
  static func referenceName(crs: String?, layer reference: String?) -> String {
    crs ?? reference.map { $0.contains("[") ? "WKT" : $0 } ?? "none"
  }
}

/// An attribute integer as a property: a number, or text beyond ±2^53
/// (where a number would round it).
func ogrInteger(_ v: Int64) -> JSONValue {
  v.magnitude <= 1 << 53 ? .number(Double(v)) : .string(String(v))
}

/// A GDAL dataset, shared by every frame and thread of the process: opened
/// on first use, kept open (`OpenDatasets`), its failure kept for a while too. A GDAL
/// dataset handle is not thread-safe, so the dataset keeps its handles in a
/// `HandlePool`, one per thread reading at once (for PostGIS, one
/// connection each), closed with it.
final class OGRDataset: @unchecked Sendable {
  /// One open handle of the dataset, with its feature reader.
  struct Handle {
    var dataset: UnsafeMutableRawPointer
    var reader: UnsafeMutableRawPointer
  }

  private let handles: HandlePool<Handle>
  let driver: String

  private init(first: Handle, open: @escaping @Sendable () -> Result<Handle, SourceError>) {
    driver = String(cString: mapsnap_ogr_driver(first.dataset))
    handles = HandlePool(
      first: first, open: open,
      close: { h in
        mapsnap_ogr_reader_destroy(h.reader)
        mapsnap_ogr_close(h.dataset)
      })
  }

  private static let opened = OpenDatasets<OGRDataset>()

  /// GDAL's version, or why it cannot be loaded.
  static let gdal: Result<String, SourceError> = {
    // GDAL starts SQLite for its own drivers: mapsnap's settings go first.
    GeoPackageReader.configureSQLite()
    var message = [CChar](repeating: 0, count: 256)
    guard mapsnap_ogr_load(&message, Int32(message.count)) == 1 else {
      return .failure(.ogrUnavailable(reason: String(nulTerminated: message)))
    }
    return .success(String(cString: mapsnap_ogr_version()))
  }()

  /// The dataset `source` names, kept open for the process (`OpenDatasets`:
  /// the 32 most recently opened).
  static func shared(_ source: OGRSource) -> Result<OGRDataset, SourceError> {
    if case .failure(let e) = gdal { return .failure(e) }
    var name = source.resolved
    if source.isDatabase && !name.contains("connect_timeout") { name += " connect_timeout=\(OGRSource.connectTimeoutSeconds)" }
    return opened.dataset(name) {
      open(name, source: source).map { [name] first in OGRDataset(first: first) { open(name, source: source) } }
    }
  }

  /// A new handle of the dataset `name`, or GDAL's message.
  private static func open(_ name: String, source: OGRSource) -> Result<Handle, SourceError> {
    var message = [CChar](repeating: 0, count: 1024)
    guard let h = mapsnap_ogr_open(name, &message, Int32(message.count)) else {
      return .failure(.ogr(path: source.name, message: String(nulTerminated: message)))
    }
    guard let r = mapsnap_ogr_reader_create() else {
      mapsnap_ogr_close(h)
      return .failure(.ogr(path: source.name, message: "out of memory"))
    }
    // GDAL reads a PostGIS layer through a cursor, which needs a
    // transaction: without one of ours it wraps every read in BEGIN and
    // COMMIT, two of a read's five round trips. One held open instead (READ
    // COMMITTED: each read still sees what was committed before it; no
    // snapshot is held between reads). A handle whose read fails is closed
    // (`HandlePool`), which also ends a transaction a server has cut.
    if String(cString: mapsnap_ogr_driver(h)) == "PostgreSQL" { _ = mapsnap_ogr_begin(h) }
    return .success(Handle(dataset: h, reader: r))
  }

  /// Each layer's feature count (−1: the driver cannot count it cheaply),
  /// asked once per layer, not per read: a driver may count by querying
  /// (PostGIS runs `count(*)`).
  private let counts = Mutex<[String: Int64]>([:])

  /// The count of the whole `layer`, with no spatial filter set (a filter
  /// left by the handle's last read would make it that read's count).
  private func featureCount(_ layer: Layer) -> Int64 {
    if let known = counts.withLock({ $0[layer.name] }) { return known }
    mapsnap_ogr_start(layer.handle, 0, 0, 0, 0, 0)
    let count = mapsnap_ogr_feature_count(layer.handle)
    counts.withLock { $0[layer.name] = count }
    return count
  }

  /// A layer of the dataset: its handle, name and reference.
  struct Layer {
    var handle: UnsafeMutableRawPointer
    var name: String
    /// `AUTHORITY:CODE` when the reference has one, else its WKT; nil when
    /// the layer has no reference.
    var reference: String?
  }

  /// The features of `layer` (nil: the only one) whose envelopes meet
  /// `filter` (in the layer's reference; nil: all), in FID order, with what
  /// the reading found. Features keep their coordinates in the layer's
  /// reference. Only the fields in `fields` become properties
  /// (`OGRLayerReader.makes`); the collection's `schema` names them all.
  func read(layer name: String?, filter: Rect?, fields: Set<String>? = nil, source: OGRSource) -> Result<
    (FeatureCollection, OGRReadInfo, Layer), SourceError
  > {
    handles.with { h in
      let reader = h.reader
      let layer: Layer
      switch Self.find(h.dataset, name, source: source) {
      case .failure(let e): return .failure(e)
      case .success(let l): layer = l
      }
      let count = featureCount(layer)
      let indexed = mapsnap_ogr_has_spatial_index(layer.handle) == 1
      if let f = filter {
        mapsnap_ogr_start(layer.handle, 1, f.minX, f.minY, f.maxX, f.maxY)
      } else {
        mapsnap_ogr_start(layer.handle, 0, 0, 0, 0, 0)
      }
      var c = FeatureCollection()
      var raw = mapsnap_ogr_feature()
      var message = [CChar](repeating: 0, count: 1024)
      var read = 0
      var digest = FeatureDigest()
      // The layer's field names (every feature's, from its definition) and
      // those made properties, taken from its first feature.
      var names: [String] = []
      var made: [Int32] = []
      while true {
        let status = mapsnap_ogr_next(reader, layer.handle, &raw, &message, Int32(message.count))
        if status == 0 { break }
        if status < 0 {
          return .failure(.ogr(path: source.name, message: String(nulTerminated: message)))
        }
        read += 1
        if c.schema == nil || names.count != Int(raw.field_count) {
          names = (0..<raw.field_count).map { String(cString: mapsnap_ogr_field_name(reader, $0)) }
          made = (0..<raw.field_count).filter { OGRLayerReader.makes(names[Int($0)], of: fields) }
          c.schema = names
        }
        let feature = Feature(
          id: .number(Double(raw.fid)), properties: Self.properties(reader, names: names, made: made), geometry: Geometry(), index: Int(raw.fid))
        digest.add(
          fid: Int(raw.fid), geometry: UnsafeRawBufferPointer(start: raw.wkb, count: raw.wkb == nil ? 0 : Int(raw.wkb_size)),
          properties: feature.properties)
        c.add(feature, wkb: UnsafeRawBufferPointer(start: raw.wkb, count: raw.wkb == nil ? 0 : Int(raw.wkb_size)))
      }
      // The dataset's order: a spatial filter may return features in the
      // order of its index.
      c.features.sort { $0.index < $1.index }
      c.content = digest.finish()
      c.withoutGeometry.sort { $0.index < $1.index }
      let info = OGRReadInfo(
        driver: driver, layer: layer.name, spatialReference: OGRReadInfo.referenceName(crs: source.crs, layer: layer.reference),
        featuresRead: read, featuresInLayer: count >= 0 ? Int(count) : nil, scan: .reason(filter: filter, indexed: indexed))
      return .success((c, info, layer))
    }
  }

  /// The current feature's attributes as properties: integers and reals as
  /// numbers (integers beyond ±2^53 as text, which a number would round),
  /// booleans, text, dates and times as ISO 8601 text, nulls; only the
  /// fields numbered in `made` (`OGRLayerReader.makes`), named by `names`.
  private static func properties(_ reader: UnsafeMutableRawPointer, names: [String], made: [Int32]) -> JSONObject {
    var pairs: [(String, JSONValue)] = []
    pairs.reserveCapacity(made.count)
    for i in made {
      let name = names[Int(i)]
      let value: JSONValue
      switch mapsnap_ogr_field_kind(reader, i) {
      case Int32(MAPSNAP_OGR_INTEGER):
        value = ogrInteger(mapsnap_ogr_field_integer(reader, i))
      case Int32(MAPSNAP_OGR_REAL): value = .number(mapsnap_ogr_field_real(reader, i))
      case Int32(MAPSNAP_OGR_BOOLEAN): value = .bool(mapsnap_ogr_field_integer(reader, i) != 0)
      case Int32(MAPSNAP_OGR_STRING): value = .string(String(cString: mapsnap_ogr_field_text(reader, i)))
      default: value = .null
      }
      pairs.append((name, value))
    }
    return JSONObject(pairs)
  }

  /// The layer `name` (nil: the only one) with its reference.
  func layer(_ name: String?, source: OGRSource) -> Result<Layer, SourceError> {
    handles.with { h in Self.find(h.dataset, name, source: source) }
  }

  /// The layer `name` of the dataset `handle`: a layer's handle belongs to
  /// its dataset's handle and is used only with it.
  private static func find(_ handle: UnsafeMutableRawPointer, _ name: String?, source: OGRSource) -> Result<Layer, SourceError> {
    let count = Int(mapsnap_ogr_layer_count(handle))
    let names = (0..<count).map { String(cString: mapsnap_ogr_layer_name(handle, Int32($0))) }
    let handleOfLayer: UnsafeMutableRawPointer
    let layerName: String
    if let name {
      guard let h = mapsnap_ogr_layer(handle, name) else {
        return .failure(.ogrLayer(path: source.name, layer: name, layers: names))
      }
      handleOfLayer = h
      layerName = name
    } else {
      guard count == 1, let h = mapsnap_ogr_layer(handle, names[0]) else {
        return .failure(.ogrLayer(path: source.name, layer: nil, layers: names))
      }
      handleOfLayer = h
      layerName = names[0]
    }
    var authority = [CChar](repeating: 0, count: 64)
    var code = [CChar](repeating: 0, count: 64)
    var reference: String? = nil
    if mapsnap_ogr_layer_authority(handleOfLayer, &authority, 64, &code, 64) == 1 {
      reference = String(nulTerminated: authority) + ":" + String(nulTerminated: code)
    } else if let wkt = mapsnap_ogr_layer_wkt(handleOfLayer) {
      reference = String(cString: wkt)
      mapsnap_ogr_free(wkt)
    }
    return .success(Layer(handle: handleOfLayer, name: layerName, reference: reference))
  }
}

extension FeatureCollection {
  /// A feature read from a dataset, its geometry given as WKB (empty:
  /// none). Without a geometry, or with an empty one, it is unlocated; with
  /// WKB that does not parse, invalid (the first three kept as samples,
  /// named by FID); else it is drawn. `feature.index` is its FID.
  mutating func add(_ feature: Feature, wkb: UnsafeRawBufferPointer) {
    guard wkb.count > 0 else {
      unlocatedCount += 1
      withoutGeometry.append(feature)
      return
    }
    var feature = feature
    do throws(WKBReader.Issue) {
      feature.geometry = try WKBReader.geometry(wkb)
    } catch {
      invalidCount += 1
      if invalidSamples.count < 3 { invalidSamples.append("FID \(feature.index): \(error.message)") }
      withoutGeometry.append(feature)
      return
    }
    if feature.geometry.isEmpty {
      unlocatedCount += 1
      withoutGeometry.append(feature)
      return
    }
    features.append(feature)
  }
}

/// The digest of what a read of an `ogr` layer returned, feature by
/// feature: its FID, its geometry's bytes as stored (WKB or GeoPackage
/// binary) and its properties (kind and value). The source's part of a
/// frame's `InputDigest`: a database has no file to hash, and a frame reads
/// only part of a dataset.
///
/// The pieces are gathered in order (`ContentDigest.Pending`) and hashed
/// later (`ContentDigest`: off the read, when a worker is free), up to
/// `Pending.keptLimit` bytes; past that the gathered bytes are hashed as the
/// read goes, so a read of a whole large table holds at most that much
/// besides its features. A feature's pieces are short (an 8-byte FID, a
/// key, a tag byte), so they are copied together rather than each handed
/// to `SHA256` (that cost more than reading the feature). The bytes hashed,
/// and so the digest, are the same whichever way.
struct FeatureDigest: ~Copyable {
  private var pending = ContentDigest.Pending()

  init() {}

  deinit { pending.deallocate() }

  /// Adds the feature's pieces, each kind of value tagged so that no two
  /// features hash alike by shifting bytes between fields.
  mutating func add(fid: Int, geometry: UnsafeRawBufferPointer, properties: JSONObject) {
    begin(fid: fid, geometry: geometry)
    for (key, value) in properties.pairs { property(key, value) }
  }

  /// The first pieces of a feature, before its properties (`property`, in
  /// their order): what `add` hashes, for a reader that hashes properties
  /// as it makes them.
  mutating func begin(fid: Int, geometry: UnsafeRawBufferPointer) {
    pending.append(Int64(fid).littleEndian)
    pending.append(geometry)
  }

  /// One property of the feature begun last.
  mutating func property(_ key: String, _ value: JSONValue) {
    text(key)
    switch value {
    case .string(let t):
      pending.append(UInt8(1))
      text(t)
    case .number(let n):
      pending.append(UInt8(2))
      pending.append(n.bitPattern.littleEndian)
    case .bool(let v):
      pending.append(UInt8(3))
      pending.append(UInt8(v ? 1 : 0))
    default: pending.append(UInt8(0))
    }
  }

  /// A string's UTF-8 bytes.
  private mutating func text(_ text: String) {
    var text = text
    text.withUTF8 { pending.append(UnsafeRawBufferPointer($0)) }
  }

  /// The digest, its gathered bytes handed over to be hashed when asked.
  consuming func finish() -> ContentDigest {
    let handed = pending
    pending = ContentDigest.Pending()
    return ContentDigest(pending: handed)
  }
}

/// An `ogr` source's layer, open: a GeoPackage file through SQLite
/// (`GeoPackageReader`), a PostGIS table through libpq (`PostGISReader`)
/// when its rules cover it, anything else through GDAL (`OGRDataset`).
enum OGRLayerReader {
  case geoPackage(GeoPackageReader, GeoPackageReader.Table, OGRSource)
  case postGIS(PostGISReader, PostGISReader.Table, OGRSource)
  case gdal(OGRDataset, OGRDataset.Layer, OGRSource)

  static func open(_ source: OGRSource, confinement: Confinement?) -> Result<OGRLayerReader, SourceError> {
    if GeoPackageReader.reads(source) {
      return GeoPackageReader.shared(source, confinement: confinement).flatMap { r in
        r.table(source.layer, source: source).map { .geoPackage(r, $0, source) }
      }
    }
    if let conninfo = PostGISReader.conninfo(source) {
      switch PostGISReader.shared(conninfo, source: source).flatMap({ r in r.table(source.layer, source: source).map { (r, $0) } }) {
      case .failure(let e): return .failure(e)
      case .success((let r, let table?)): return .success(.postGIS(r, table, source))
      case .success((_, nil)): break  // GDAL's to read
      }
    }
    return OGRDataset.shared(source).flatMap { d in d.layer(source.layer, source: source).map { .gdal(d, $0, source) } }
  }

  /// `AUTHORITY:CODE` or WKT; nil when the layer has no reference.
  var reference: String? {
    switch self {
    case .geoPackage(_, let t, _): return t.reference
    case .postGIS(_, let t, _): return t.reference
    case .gdal(_, let l, _): return l.reference
    }
  }

  var layerName: String {
    switch self {
    case .geoPackage(_, let t, _): return t.name
    case .postGIS(_, let t, _): return t.name
    case .gdal(_, let l, _): return l.name
    }
  }

  /// The features whose envelopes meet `filter` (nil: all), with the
  /// fields in `fields` as properties (`makes`) and every field's name as
  /// the collection's `schema`.
  func read(filter: Rect?, fields: Set<String>?) -> Result<(FeatureCollection, OGRReadInfo), SourceError> {
    switch self {
    case .geoPackage(let r, let t, let source): return r.read(t, filter: filter, fields: fields, source: source)
    case .postGIS(let r, let t, let source): return r.read(t, filter: filter, fields: fields, source: source)
    case .gdal(let d, let l, let source):
      return d.read(layer: l.name, filter: filter, fields: fields, source: source).map { ($0.0, $0.1) }
    }
  }

  /// Rule: a read asked for `fields` makes a property of the field `name`
  /// when `fields` names it; nil asks for every field.
  static func makes(_ name: String, of fields: Set<String>?) -> Bool { fields?.contains(name) ?? true }
}
