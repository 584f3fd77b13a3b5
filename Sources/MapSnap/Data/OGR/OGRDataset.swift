internal import _MapSnapRaster
internal import _OGRShims
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

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
  /// (`FeatureReadBuilder.makes`); the collection's `schema` names them all.
  func read(layer name: String?, filter: Rect?, fields: Set<String>? = nil, source: OGRSource) -> Result<FeatureRead<OGRReadInfo>, SourceError> {
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
      var raw = mapsnap_ogr_feature()
      var message = [CChar](repeating: 0, count: 1024)
      // The layer's field names (every feature's, from its definition) and
      // those made properties, taken from its first feature.
      var names: [String] = []
      var made: [Int32] = []
      var features = FeatureReadBuilder(schema: nil)
      while true {
        let status = mapsnap_ogr_next(reader, layer.handle, &raw, &message, Int32(message.count))
        if status == 0 { break }
        if status < 0 {
          return .failure(.ogr(path: source.name, message: String(nulTerminated: message)))
        }
        if features.collection.schema == nil || names.count != Int(raw.field_count) {
          names = (0..<raw.field_count).map { String(cString: mapsnap_ogr_field_name(reader, $0)) }
          made = (0..<raw.field_count).filter { FeatureReadBuilder.makes(names[Int($0)], of: fields) }
          features.setSchema(names)
        }
        features.add(
          fid: Int(raw.fid), properties: Self.properties(reader, names: names, made: made),
          wkb: UnsafeRawBufferPointer(start: raw.wkb, count: raw.wkb == nil ? 0 : Int(raw.wkb_size)))
      }
      // The dataset's order: a spatial filter may return features in the
      // order of its index.
      features.sortByFID()
      return .success(
        features.finish(
          driver: driver, layer: layer.name, reference: layer.reference, source: source,
          featuresInLayer: count >= 0 ? Int(count) : nil, scan: .reason(filter: filter, indexed: indexed)))
    }
  }

  /// The current feature's attributes as properties: integers and reals as
  /// numbers (integers beyond ±2^53 as text, which a number would round),
  /// booleans, text, dates and times as ISO 8601 text, nulls; only the
  /// fields numbered in `made` (`FeatureReadBuilder.makes`), named by `names`.
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
