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

  /// Seconds a PostGIS connection may take before it fails (libpq's
  /// `connect_timeout`, added to the connection string when it has none).
  static let connectTimeoutSeconds = 5
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
  /// True when the driver filtered through a spatial index (GeoPackage's
  /// R-tree, FlatGeobuf's packed R-tree, a Shapefile's `.qix`/`.sbn`,
  /// PostGIS's GiST); false when the layer was scanned whole.
  public var spatialIndex: Bool
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

/// One open GDAL dataset, shared by every frame and thread of the process
/// and used by one at a time (a GDAL dataset is not thread-safe): opened on
/// first use, kept open, its failure kept too.
final class OGRDataset: @unchecked Sendable {
  private let handle: UnsafeMutableRawPointer
  private let reader: UnsafeMutableRawPointer
  let driver: String
  private let lock = Mutex<Void>(())

  private init(handle: UnsafeMutableRawPointer, reader: UnsafeMutableRawPointer) {
    self.handle = handle
    self.reader = reader
    driver = String(cString: mapsnap_ogr_driver(handle))
  }

  private static let opened = Mutex<[String: Result<OGRDataset, SourceError>]>([:])

  /// GDAL's version, or why it cannot be loaded.
  static let gdal: Result<String, SourceError> = {
    var message = [CChar](repeating: 0, count: 256)
    guard mapsnap_ogr_load(&message, Int32(message.count)) == 1 else {
      return .failure(.ogrUnavailable(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
    return .success(String(cString: mapsnap_ogr_version()))
  }()

  /// The dataset `source` names, opened once per process.
  static func shared(_ source: OGRSource) -> Result<OGRDataset, SourceError> {
    if case .failure(let e) = gdal { return .failure(e) }
    var name = source.resolved
    if source.isDatabase && !name.contains("connect_timeout") { name += " connect_timeout=\(OGRSource.connectTimeoutSeconds)" }
    return opened.withLock { opened in
      if let hit = opened[name] { return hit }
      var message = [CChar](repeating: 0, count: 1024)
      let result: Result<OGRDataset, SourceError>
      if let h = mapsnap_ogr_open(name, &message, Int32(message.count)), let r = mapsnap_ogr_reader_create() {
        result = .success(OGRDataset(handle: h, reader: r))
      } else {
        result = .failure(.ogr(path: source.name, message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
      }
      opened[name] = result
      return result
    }
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
  /// reference.
  func read(layer name: String?, filter: Rect?, source: OGRSource) -> Result<(FeatureCollection, OGRReadInfo, Layer), SourceError> {
    lock.withLock { _ in
      let layer: Layer
      switch find(name, source: source) {
      case .failure(let e): return .failure(e)
      case .success(let l): layer = l
      }
      let count = mapsnap_ogr_feature_count(layer.handle)
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
      while true {
        let status = mapsnap_ogr_next(reader, layer.handle, &raw, &message, Int32(message.count))
        if status == 0 { break }
        if status < 0 {
          return .failure(.ogr(path: source.name, message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        read += 1
        var feature = Feature(id: .number(Double(raw.fid)), properties: properties(count: Int(raw.field_count)), geometry: Geometry(), index: Int(raw.fid))
        digest.add(
          fid: Int(raw.fid), geometry: UnsafeRawBufferPointer(start: raw.wkb, count: raw.wkb == nil ? 0 : Int(raw.wkb_size)),
          properties: feature.properties)
        guard let wkb = raw.wkb, raw.wkb_size > 0 else {
          c.unlocatedCount += 1
          c.withoutGeometry.append(feature)
          continue
        }
        do throws(WKBReader.Issue) {
          feature.geometry = try WKBReader.geometry(UnsafeRawBufferPointer(start: wkb, count: Int(raw.wkb_size)))
        } catch {
          c.invalidCount += 1
          if c.invalidSamples.count < 3 { c.invalidSamples.append("FID \(raw.fid): \(error.message)") }
          c.withoutGeometry.append(feature)
          continue
        }
        if feature.geometry.isEmpty {
          c.unlocatedCount += 1
          c.withoutGeometry.append(feature)
          continue
        }
        c.features.append(feature)
      }
      // The dataset's order: a spatial filter may return features in the
      // order of its index.
      c.features.sort { $0.index < $1.index }
      c.contentDigest = digest.finish()
      c.withoutGeometry.sort { $0.index < $1.index }
      let info = OGRReadInfo(
        driver: driver, layer: layer.name, spatialReference: OGRReadInfo.referenceName(crs: source.crs, layer: layer.reference),
        featuresRead: read, featuresInLayer: count >= 0 ? Int(count) : nil, spatialIndex: indexed && filter != nil)
      return .success((c, info, layer))
    }
  }

  /// The current feature's attributes as properties: integers and reals as
  /// numbers (integers beyond ±2^53 as text, which a number would round),
  /// booleans, text, dates and times as ISO 8601 text, nulls.
  private func properties(count: Int) -> JSONObject {
    var pairs: [(String, JSONValue)] = []
    pairs.reserveCapacity(count)
    for i in 0..<Int32(count) {
      let name = String(cString: mapsnap_ogr_field_name(reader, i))
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
    lock.withLock { _ in find(name, source: source) }
  }

  private func find(_ name: String?, source: OGRSource) -> Result<Layer, SourceError> {
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
      reference = String(cString: authority) + ":" + String(cString: code)
    } else if let wkt = mapsnap_ogr_layer_wkt(handleOfLayer) {
      reference = String(cString: wkt)
      mapsnap_ogr_free(wkt)
    }
    return .success(Layer(handle: handleOfLayer, name: layerName, reference: reference))
  }
}

/// The digest of what a read of an `ogr` layer returned, feature by
/// feature: its FID, its geometry's bytes as stored (WKB or GeoPackage
/// binary) and its properties (kind and value). The source's part of a
/// frame's `InputDigest`: a database has no file to hash, and a frame reads
/// only part of a dataset.
struct FeatureDigest {
  private var sha = SHA256()
  /// One feature's bytes, gathered to be hashed at once.
  private var buffer: [UInt8] = []

  mutating func add(fid: Int, geometry: UnsafeRawBufferPointer, properties: JSONObject) {
    buffer.removeAll(keepingCapacity: true)
    withUnsafeBytes(of: Int64(fid).littleEndian) { buffer += $0 }
    buffer += geometry
    for (key, value) in properties.pairs {
      buffer += key.utf8
      switch value {
      case .string(let t):
        buffer.append(1)
        buffer += t.utf8
      case .number(let n):
        buffer.append(2)
        withUnsafeBytes(of: n.bitPattern.littleEndian) { buffer += $0 }
      case .bool(let v): buffer += [3, v ? 1 : 0]
      default: buffer.append(0)
      }
    }
    sha.update(buffer)
  }

  func finish() -> String { "sha256:" + sha.hexDigest() }
}

/// An `ogr` source's layer, open: a GeoPackage file through SQLite
/// (`GeoPackageReader`), anything else through GDAL (`OGRDataset`).
enum OGRLayerReader {
  case geoPackage(GeoPackageReader, GeoPackageReader.Table, OGRSource)
  case gdal(OGRDataset, OGRDataset.Layer, OGRSource)

  static func open(_ source: OGRSource, confinement: Confinement?) -> Result<OGRLayerReader, SourceError> {
    if !source.isDatabase && GeoPackageReader.handles(source.resolved) {
      return GeoPackageReader.shared(source, confinement: confinement).flatMap { r in
        r.table(source.layer, source: source).map { .geoPackage(r, $0, source) }
      }
    }
    return OGRDataset.shared(source).flatMap { d in d.layer(source.layer, source: source).map { .gdal(d, $0, source) } }
  }

  /// `AUTHORITY:CODE` or WKT; nil when the layer has no reference.
  var reference: String? {
    switch self {
    case .geoPackage(_, let t, _): return t.reference
    case .gdal(_, let l, _): return l.reference
    }
  }

  var layerName: String {
    switch self {
    case .geoPackage(_, let t, _): return t.name
    case .gdal(_, let l, _): return l.name
    }
  }

  func read(filter: Rect?) -> Result<(FeatureCollection, OGRReadInfo), SourceError> {
    switch self {
    case .geoPackage(let r, let t, let source): return r.read(t, filter: filter, source: source)
    case .gdal(let d, let l, let source): return d.read(layer: l.name, filter: filter, source: source).map { ($0.0, $0.1) }
    }
  }
}
