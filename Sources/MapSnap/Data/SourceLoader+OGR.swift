import Synchronization

internal import _MapSnapRaster

extension SourceLoader {
  /// A read of an `ogr` source: its filter, the features in degrees, what
  /// the read found, and the features indexed per map projection (made on
  /// first use, shared by the layers and frames the read serves).
  struct OGRRead {
    var serial: Int
    var filter: Rect?
    /// The fields made properties (nil: every one).
    var fields: Set<String>?
    var collection: FeatureCollection
    var info: OGRReadInfo
    var indexes: [MapProjection?: SourceIndex] = [:]
  }

  /// Reads kept per `ogr` source: one per thread that may be reading it at
  /// once (a batch's workers render different frames over one dataset, and
  /// each frame's layers share its own read), two at least.
  static let ogrReadsKept = max(2, activeProcessorCount())
  /// Sources whose reads are kept, the most recently used: more than a
  /// scene's `ogr` layers (a few, a few dozen at most), and a bound on what
  /// a batch over many scenes, each with its own datasets, keeps.
  static let ogrSourcesKept = 64

  /// The reads kept, per source (the newest last, at most `ogrReadsKept`),
  /// for the `ogrSourcesKept` sources used last.
  struct OGRReads {
    var bySource: [OGRSource: [OGRRead]] = [:]
    /// The sources, the least recently used first.
    var order: [OGRSource] = []

    /// The reads of `source`, which becomes the most recently used.
    mutating func use(_ source: OGRSource) -> [OGRRead] {
      guard let reads = bySource[source] else { return [] }
      if order.last != source, let k = order.firstIndex(of: source) { order.append(order.remove(at: k)) }
      return reads
    }

    /// Keeps `read` as `source`'s newest; forgets its oldest beyond
    /// `ogrReadsKept`, and the least recently used source beyond
    /// `ogrSourcesKept`.
    mutating func keep(_ read: OGRRead, of source: OGRSource) {
      var list = use(source)
      if list.isEmpty { order.append(source) }
      list.append(read)
      if list.count > SourceLoader.ogrReadsKept { list.removeFirst(list.count - SourceLoader.ogrReadsKept) }
      bySource[source] = list
      while order.count > SourceLoader.ogrSourcesKept { bySource[order.removeFirst()] = nil }
    }
  }

  /// The sources whose reads are kept now, the least recently used first
  /// (for the tests).
  var ogrSourcesKeptNow: [OGRSource] { ogrReads.withLock { $0.order } }

  /// The features of an `ogr` source whose bounds meet `near` (WGS84
  /// degrees; nil: every feature), re-projected from the layer's reference
  /// (or the source's `crs`) to degrees, in FID order, with what the read
  /// found. The dataset stays open for later frames; a call reads anew
  /// (through the dataset's spatial index when it has one) unless one of
  /// the source's last `ogrReadsKept` reads holds its filter (reads are kept
  /// for the `ogrSourcesKept` sources used last), so a frame costs what it
  /// shows, not what the dataset holds.
  ///
  /// `fields` names the fields made properties (nil: every one): a frame
  /// reads those its layers over the source use (`where`, texts,
  /// `floorField`, `idField`, `angleField`), as the rest would be read,
  /// hashed and dropped. A name that is not a field is left out, as GeoJSON
  /// leaves out a property no feature has; the read's `schema` names every
  /// field, for the layers' checks of their names. A kept read serves a
  /// call when its filter holds `near` and its fields hold `fields`.
  ///
  /// Rules: under `--root` only dataset files inside the root are read (no
  /// `PG:` connection); a layer without a reference and without `crs` is an
  /// error naming both fixes; `near` is turned into the layer's reference by
  /// PROJ from points along its edges (each edge cut in 16), grown by 1 %
  /// of its size for the curvature between them.
  func ogr(_ source: OGRSource, near: Rect?, fields: Set<String>? = nil) -> Result<
    (collection: FeatureCollection, info: OGRReadInfo), SourceError
  > {
    ogrRead(source, near: near, fields: fields).map { ($0.collection, $0.info) }
  }

  /// The same read, its features in `projection`'s map units and indexed:
  /// layers of a frame over one dataset layer share the index as they
  /// share the read.
  func ogrIndexed(_ source: OGRSource, near: Rect?, fields: Set<String>? = nil, projection: MapProjection?) -> Result<
    (index: SourceIndex, info: OGRReadInfo), SourceError
  > {
    let projection = projection == .geographic ? nil : projection
    return ogrRead(source, near: near, fields: fields).map { read in
      if let hit = read.indexes[projection] { return (hit, read.info) }
      // Indexed outside the lock (reads of other sources go on meanwhile),
      // then kept with its read while the read is kept.
      let index = SourceIndex(projection.map { read.collection.projected(to: $0) } ?? read.collection)
      ogrReads.withLock { reads in
        if let k = reads.bySource[source]?.firstIndex(where: { $0.serial == read.serial }) {
          reads.bySource[source]![k].indexes[projection] = index
        }
      }
      return (index, read.info)
    }
  }

  /// A kept read of `source` whose filter holds `near` and whose fields
  /// hold `fields`, else a new read.
  /// The dataset is read outside any lock of the loader, so threads read
  /// different sources, and different parts of one, at once.
  private func ogrRead(_ source: OGRSource, near: Rect?, fields: Set<String>?) -> Result<OGRRead, SourceError> {
    // The layer's reference first (the filter is in it), then the read.
    if let refused = ogrRefused(source) { return .failure(refused) }
    let reader: any LayerReader
    switch OGRLayerReader.open(source, confinement: confinement) {
    case .failure(let e): return .failure(e)
    case .success(let r): reader = r
    }
    guard let crs = source.crs ?? reader.reference else {
      return .failure(.ogrNoReference(path: source.name, layer: reader.layerName))
    }
    let geographic = Self.isWGS84(crs)
    var transform: CRSTransform? = nil
    if !geographic {
      switch CRSTransform.to84(from: crs) {
      case .failure(let e): return .failure(.crs(e))
      case .success(let t): transform = t
      }
    }
    var filter: Rect? = nil
    if let near, near.minX.isFinite, near.maxX.isFinite, near.minY.isFinite, near.maxY.isFinite {
      filter = geographic ? near : transform.flatMap { Self.bounds(of: near, in: $0) }
    }
    // Layers of one frame that share a dataset layer read it once: a read
    // whose filter holds this one serves it (the resolver keeps only what
    // each layer's reach needs).
    let kept = ogrReads.withLock { $0.use(source) }
    if let hit = kept.last(where: { Self.holds($0.filter, filter) && Self.holds($0.fields, fields) }) { return .success(hit) }
    // Read a tenth beyond what was asked on every side: the other layers
    // of the frame over this dataset layer reach a few pixels farther or
    // less, and are then served by this read.
    var wanted = filter.map { f in
      Rect(
        minX: f.minX - (f.maxX - f.minX) * Self.readMargin,
        minY: f.minY - (f.maxY - f.minY) * Self.readMargin,
        maxX: f.maxX + (f.maxX - f.minX) * Self.readMargin,
        maxY: f.maxY + (f.maxY - f.minY) * Self.readMargin)
    }
    var wantedFields = fields
    // A frame next to the last one read (a pan) reads both together when
    // that costs at most twice the larger, with the fields of both.
    if let last = kept.last, let a = last.filter, let b = wanted,
      Self.area(Self.union(a, b)) <= 2 * max(Self.area(a), Self.area(b))
    {
      wanted = Self.union(a, b)
      wantedFields = last.fields.flatMap { f in fields.map { f.union($0) } }
    }
    switch reader.read(filter: wanted, fields: wantedFields) {
    case .failure(let e): return .failure(e)
    case .success(let read):
      var c = read.collection
      c.idsAreFIDs = true
      if let transform { c = c.toWGS84(transform) }
      let entry = OGRRead(
        serial: ogrReadSerial.add(1, ordering: .relaxed).newValue, filter: wanted, fields: wantedFields, collection: c, info: read.info)
      ogrReads.withLock { $0.keep(entry, of: source) }
      return .success(entry)
    }
  }

  /// Why `source` may not be opened under `--root` (a `PG:` connection, a
  /// file outside the root); nil when it may.
  private func ogrRefused(_ source: OGRSource) -> SourceError? {
    guard let confinement else { return nil }
    if source.isDatabase { return .ogrDatabaseUnderRoot(path: source.name) }
    do {
      _ = try confinement.resolve(source.resolved)
    } catch {
      return .unreadable(path: source.name, resolvedPath: source.resolved, reason: error.reason)
    }
    return nil
  }

  /// The number of features in the layer of `source` when opening its
  /// dataset costs little and tells it: a GeoPackage file, whose
  /// `gpkg_ogr_contents` is read as it opens (`GeoPackageReader.Catalog`;
  /// the layer's own table is not looked into: each read does that, side
  /// by side).
  /// Nil for anything else (a PostGIS connection or GDAL's start-up is
  /// not paid for a hint) and for a layer that fails to open (its read
  /// reports that).
  func ogrFeatureCountHint(_ source: OGRSource) -> Int? {
    guard GeoPackageReader.reads(source), ogrRefused(source) == nil,
      case .success(let reader) = GeoPackageReader.shared(source, confinement: confinement)
    else { return nil }
    return reader.featureCount(source.layer)
  }

  /// How far beyond its filter an `ogr` read reaches, as a fraction of the
  /// filter's width and height on each side.
  static let readMargin = 0.1

  /// True when a read of the fields `cached` (nil: every one) made
  /// properties of every field in `wanted`.
  private static func holds(_ cached: Set<String>?, _ wanted: Set<String>?) -> Bool {
    guard let cached else { return true }
    guard let wanted else { return false }
    return wanted.isSubset(of: cached)
  }

  /// True when a read filtered by `cached` (nil: everything) holds every
  /// feature a read filtered by `wanted` would.
  private static func holds(_ cached: Rect?, _ wanted: Rect?) -> Bool {
    guard let cached else { return true }
    guard let wanted else { return false }
    return cached.minX <= wanted.minX && cached.minY <= wanted.minY && cached.maxX >= wanted.maxX
      && cached.maxY >= wanted.maxY
  }

  private static func union(_ a: Rect, _ b: Rect) -> Rect {
    Rect(
      minX: min(a.minX, b.minX), minY: min(a.minY, b.minY), maxX: max(a.maxX, b.maxX),
      maxY: max(a.maxY, b.maxY))
  }

  private static func area(_ r: Rect) -> Double {
    max(0, r.maxX - r.minX) * max(0, r.maxY - r.minY)
  }

  /// True for references whose coordinates are WGS84 longitude and latitude
  /// as mapsnap reads them.
  static func isWGS84(_ crs: String) -> Bool {
    ["EPSG:4326", "OGC:CRS84", "CRS:84"].contains(crs.uppercased())
  }

  /// The bounds, in `transform`'s reference, of the degrees `r`: its edges
  /// sampled 16 times each, grown by 1 %; nil when PROJ cannot transform
  /// them (then everything is read).
  static func bounds(of r: Rect, in transform: CRSTransform) -> Rect? {
    var points = r.edgePoints(cuts: ViewReference.edgeSamples)
    guard transform.fromWGS84(&points) else { return nil }
    var b = Rect.empty
    for p in points { b.include(p) }
    let gx = (b.maxX - b.minX) * 0.01
    let gy = (b.maxY - b.minY) * 0.01
    return Rect(minX: b.minX - gx, minY: b.minY - gy, maxX: b.maxX + gx, maxY: b.maxY + gy)
  }
}
