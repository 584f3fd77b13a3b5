internal import _MapSnapRaster
import Dispatch
import Synchronization

extension MapResolver {
  /// Loads the distinct file sources of the frame's layers (GeoJSON files,
  /// re-projected or not) side by side, the largest first, through
  /// `sources` in the map's projection, and returns them by
  /// `Source.cacheKey` for the layers, resolved next: each file is decoded
  /// once per frame at most, even when `sources` has no room to keep them
  /// all (the frame holds what it draws). A failure is reported by each
  /// layer over the file. The largest first: a file takes about its size in
  /// time, and a worker left with the last small one waits least. On one
  /// thread (`threads` 1), or with one file, nothing is loaded here: the
  /// layers load their files as they come to them.
  func loadFiles(sources: SourceLoader, threads: Int) -> [String: Result<SourceIndex, SourceError>] {
    guard threads != 1 else { return [:] }
    var seen = Set<String>()
    var files: [(key: String, source: Source, bytes: Int)] = []
    for layer in scene.layers {
      let source: Source
      switch layer.content {
      case .features(let s, _): source = s
      case .annotation(let anno): source = anno.source
      case .graphics, .tiles, .style: continue
      }
      guard let key = source.cacheKey, seen.insert(key).inserted else { continue }
      files.append((key, source, source.fileBytes))
    }
    guard files.count >= 2 else { return [:] }
    files.sort { $0.bytes > $1.bytes }
    let largestFirst = files.map { (key: $0.key, source: $0.source) }
    let projection = viewport.projection
    let results = Mutex<[String: Result<SourceIndex, SourceError>]>([:])
    DispatchQueue.concurrentPerform(iterations: largestFirst.count) { i in
      let r = sources.indexed(largestFirst[i].source, projection: projection)
      results.withLock { $0[largestFirst[i].key] = r }
    }
    return results.withLock { $0 }
  }

  /// Reads the frame's `ogr` datasets side by side before its layers are
  /// resolved in order: each distinct source once, at the farthest reach of
  /// the layers over it, with the fields any of them uses. A read serves
  /// every filter and fields it holds, so each layer then finds its
  /// features read (`SourceLoader.ogr`); a failed read is tried again, and
  /// reported, by its layer. Each layer's reach and fields are those it
  /// started with (`LayerResolver.init`), worked out once for the read and
  /// the layer. The reads are the same on one thread
  /// (`threads` 1) as on several, and so is what each layer reports.
  func readOGR(_ layers: UnsafeMutableBufferPointer<LayerResolver>, sources: SourceLoader, threads: Int) {
    var order: [OGRSource] = []
    var reach: [OGRSource: Double] = [:]
    var fields: [OGRSource: Set<String>] = [:]
    for layer in layers {
      guard let source = layer.ogrSource else { continue }
      fields[source, default: []].formUnion(LayerResolver.fields(layer.names))
      if let known = reach[source] {
        reach[source] = LayerResolver.farther(known, layer.reach)
      } else {
        order.append(source)
        reach[source] = layer.reach
      }
    }
    var inOrder = order.map { (source: $0, near: ogrNear(reach: reach[$0]!), fields: fields[$0]!) }
    if threads != 1 && inOrder.count > 2 {
      // Largest first, so that the longest read is not the one left to
      // start last: layers whose size the dataset tells cheaply (a
      // GeoPackage's counts, read as it opens) by count, most features
      // first, after those it does not (a database or GDAL, whose opening
      // is slow enough to be started first).
      let counts = inOrder.map { sources.ogrFeatureCountHint($0.source) ?? Int.max }
      inOrder = inOrder.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }.map { inOrder[$0] }
    }
    let reads = inOrder
    let projection = viewport.projection
    if threads == 1 || reads.count < 2 {
      for r in reads { _ = sources.ogrIndexed(r.source, near: r.near, fields: r.fields, projection: projection) }
      return
    }
    DispatchQueue.concurrentPerform(iterations: reads.count) { i in
      _ = sources.ogrIndexed(reads[i].source, near: reads[i].near, fields: reads[i].fields, projection: projection)
    }
  }

  /// The degrees an `ogr` read covers for a layer reaching `reach` logical
  /// pixels beyond the frame: the frame grown by it (`Viewport.degrees`),
  /// clamped to the world; nil (everything) for a NaN reach or a frame PROJ
  /// cannot place.
  func ogrNear(reach: Double) -> Rect? {
    guard reach.isFinite else { return nil }
    let b = viewport.degrees(of: viewport.extent.insetBy(-(reach * viewport.unitsPerPixel)))
    guard b.west.isFinite else { return nil }
    return Rect(minX: max(-180, b.west), minY: max(-90, b.south), maxX: min(180, b.east), maxY: min(90, b.north))
  }
}
