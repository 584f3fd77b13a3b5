import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif
internal import _MapSnapRaster

/// Loads the sources of a scene's layers, reading each file once even when
/// several layers (or frames, or threads) share it, and projecting it once
/// per spatial reference.
///
/// What it keeps, per file source (a `geojson` path, with its `crs` when it
/// has one): the decoded features in degrees (WGS84, which is also the 4326
/// map's projection), the features projected into each other map projection
/// asked for, and with each a `SourceIndex`: spatial indexes built on first
/// use and the dataset-wide counts and names a report gives. A failure (a
/// missing or broken file) is kept too and reported the same each time.
/// Inline `data` belongs to the scene and is not kept: it is projected each
/// time and scanned (see `SourceIndex`).
///
/// Memory is bounded by `limitBytes`, counted approximately per source
/// (`SourceIndex.approximateBytes`: features, properties, trees): past it,
/// whole sources (every projection of a file) are dropped, least recently
/// used first, and read again if asked for again, with the same results.
/// The source being loaded is never dropped, so one source larger than the
/// limit is still kept until another is loaded.
///
/// Thread-safe: frames rendered in parallel may share one loader. Each
/// source and projection has its own slot, loaded under the slot's lock, so
/// two threads asking for the same file at once decode it once (the second
/// waits for the first), while different files load in parallel.
public final class SourceLoader: Sendable {
  /// The default `limitBytes`: 1 GiB, room for the decoded features of a few
  /// hundred megabytes of GeoJSON (decoded features take one to three times
  /// their file's size), far more than a batch of maps over a city needs.
  public static let defaultLimitBytes = 1 << 30

  /// The default `maximumSourceBytes`: 1 GiB (`--max-source-bytes`).
  public static let defaultMaximumSourceBytes = 1 << 30

  /// The largest GeoJSON file read: a larger one is refused from its
  /// `fstat` size, before any byte is read (the layer is `error`).
  public let maximumSourceBytes: Int

  /// With `--root`: files must resolve inside it (`Confinement`).
  public let confinement: Confinement?

  /// The approximate bytes of decoded sources kept; past it the least
  /// recently used are dropped.
  public let limitBytes: Int

  /// Where GeoJSON files' digests are kept between processes (a file whose
  /// identity has a stored digest is not hashed again), or nil.
  public let digestStore: DigestStore?

  private struct Key: Hashable {
    /// `Source.cacheKey`.
    var path: String
    /// nil for degrees (and for 4326 maps, whose units are degrees).
    var projection: MapProjection?
  }

  /// One source in one projection, loaded once under its own lock.
  private final class Slot: Sendable {
    let value = Mutex<Result<SourceIndex, SourceError>?>(nil)
  }

  private struct Entry {
    let slot: Slot
    /// Approximate bytes once loaded (0 before).
    var bytes = 0
    /// `State.clock` when last asked for.
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var clock: UInt64 = 0
    var bytes = 0
  }

  private let state = Mutex<State>(State())
  private let decodes = Atomic<Int>(0)
  /// The recent reads of `ogr` sources (`ogr(_:near:)`).
  let ogrReads = Mutex(OGRReads())
  /// Numbers the reads, so that an index is kept with the read it was made from.
  let ogrReadSerial = Atomic<Int>(0)

  /// A loader that keeps about `limitBytes` of decoded sources at most.
  /// `maximumSourceBytes` bounds each file read, `confinement` where files
  /// may be.
  public init(
    limitBytes: Int = SourceLoader.defaultLimitBytes, maximumSourceBytes: Int = SourceLoader.defaultMaximumSourceBytes,
    confinement: Confinement? = nil, digestStore: DigestStore? = nil
  ) {
    self.limitBytes = limitBytes
    self.maximumSourceBytes = maximumSourceBytes
    self.confinement = confinement
    self.digestStore = digestStore
  }

  /// The features of `source` in WGS84 degrees (`projection` nil) or in
  /// `projection`'s map units; files are read and decoded on first use.
  public func load(_ source: Source, projection: MapProjection? = nil) -> Result<FeatureCollection, SourceError> {
    indexed(source, projection: projection).map(\.collection)
  }

  /// The features of `source` in `projection`'s map units (degrees when nil)
  /// with their index; kept for file sources, transient for inline data.
  func indexed(_ source: Source, projection: MapProjection?) -> Result<SourceIndex, SourceError> {
    // Degrees are the 4326 map's units: one entry serves both.
    let projection = projection == .geographic ? nil : projection
    guard let path = source.cacheKey else {
      return make(source, projection: projection).map { SourceIndex($0, transient: true) }
    }
    return cached(Key(path: path, projection: projection)) {
      if let projection {
        // Projected from the degrees entry, itself kept.
        return self.indexed(source, projection: nil).map { SourceIndex($0.collection.projected(to: projection)) }
      }
      return self.make(source, projection: nil).map { SourceIndex($0) }
    }
  }

  /// How many files have been read and decoded (successfully or not) so far.
  var decodeCount: Int { decodes.load(ordering: .relaxed) }

  /// The approximate bytes of the sources kept now.
  var keptBytes: Int { state.withLock { $0.bytes } }

  /// The collection of `source` in `projection` (nil: degrees), made now.
  private func make(_ source: Source, projection: MapProjection?) -> Result<FeatureCollection, SourceError> {
    let degrees: Result<FeatureCollection, SourceError>
    switch source {
    case .inline, .file:
      degrees = asWritten(source).flatMap { Self.inDegrees($0, sceneCRS: nil) }
    case .ogr(let o):
      degrees = ogr(o, near: nil).map(\.collection)
    case .reprojected(let inner, let crs):
      degrees = asWritten(inner).flatMap { Self.inDegrees($0, sceneCRS: crs) }
    }
    guard let projection else { return degrees }
    return degrees.map { $0.projected(to: projection) }
  }

  /// The features of an inline or file source in the coordinates written.
  private func asWritten(_ source: Source) -> Result<FeatureCollection, SourceError> {
    switch source {
    case .inline(let collection):
      return .success(collection)
    case .file(let shown, let resolved):
      decodes.add(1, ordering: .relaxed)
      let file = GeoJSONFileReader(
        shown: shown, resolved: resolved, maximumBytes: maximumSourceBytes, confinement: confinement, digestStore: digestStore)
      return file.read(filter: nil, fields: nil).map(\.collection)
    case .reprojected(let inner, _):
      return asWritten(inner)
    case .ogr(let o):
      return ogr(o, near: nil).map(\.collection)
    }
  }

  /// The entry for `key`, made by `make` on first use (by one thread; any
  /// other asking meanwhile waits for it), then kept within the limit.
  private func cached(_ key: Key, _ make: () -> Result<SourceIndex, SourceError>) -> Result<SourceIndex, SourceError> {
    let slot = state.withLock { s in
      s.clock += 1
      if var e = s.entries[key] {
        e.lastUse = s.clock
        s.entries[key] = e
        return e.slot
      }
      let slot = Slot()
      s.entries[key] = Entry(slot: slot, lastUse: s.clock)
      return slot
    }
    var made = false
    let result = slot.value.withLock { value in
      if let value { return value }
      let r = make()
      value = r
      made = true
      return r
    }
    if made {
      let bytes: Int
      switch result {
      case .success(let index): bytes = index.approximateBytes(countingProperties: key.projection == nil)
      case .failure: bytes = 256
      }
      keep(key, slot: slot, bytes: bytes)
    }
    return result
  }

  /// Counts the bytes of a loaded entry (unless it was dropped meanwhile),
  /// then drops least recently used sources, other than `key`'s, until
  /// the kept bytes are within the limit.
  private func keep(_ key: Key, slot: Slot, bytes: Int) {
    state.withLock { s in
      guard var e = s.entries[key], e.slot === slot else { return }
      e.bytes = bytes
      s.entries[key] = e
      s.bytes += bytes
      while s.bytes > limitBytes {
        // A source's last use is its most recently used projection's.
        var lastUse: [String: UInt64] = [:]
        for (k, e) in s.entries where k.path != key.path { lastUse[k.path] = max(lastUse[k.path] ?? 0, e.lastUse) }
        guard let oldest = lastUse.min(by: { $0.value < $1.value })?.key else { break }
        for (k, e) in s.entries where k.path == oldest {
          s.bytes -= e.bytes
          s.entries[k] = nil
        }
      }
    }
  }
}

extension Source {
  /// The canonical path of a file source, or nil for inline data.
  var cacheKey: String? {
    switch self {
    case .file(_, let resolved): return FileIO.canonicalPath(resolved) ?? resolved
    case .inline: return nil
    case .reprojected(let inner, let crs): return inner.cacheKey.map { $0 + "\u{0}" + crs }
    // Read per frame (`SourceLoader.ogr`), never through the cache.
    case .ogr: return nil
    }
  }

  /// The size of a file source's file (`stat`, which reads nothing), an
  /// estimate of the time it takes to load; 0 when unknown.
  var fileBytes: Int {
    switch self {
    case .file(_, let resolved):
      var st = stat()
      return stat(resolved, &st) == 0 && st.st_mode & S_IFMT == S_IFREG ? Int(st.st_size) : 0
    case .reprojected(let inner, _): return inner.fileBytes
    case .inline, .ogr: return 0
    }
  }
}
