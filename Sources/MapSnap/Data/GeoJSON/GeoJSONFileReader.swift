import Synchronization

internal import _MapSnapRaster

/// A GeoJSON file source (scene format 3.1) opened for reading: read
/// whole, every property kept (the loader keeps the features for every
/// frame and layer that uses the file), its digest the SHA-256 of its bytes.
struct GeoJSONFileReader: FeatureReader {
  /// The file as the scene names it (what messages show).
  var shown: String
  /// Where it is read from.
  var resolved: String
  /// The largest file read (`SourceLoader.maximumSourceBytes`).
  var maximumBytes: Int
  /// With `--root`: the file must resolve inside it, and messages quote no
  /// content of it.
  var confinement: Confinement?
  /// Where digests are kept between processes, or nil.
  var digestStore: DigestStore?

  /// Reads and decodes the file, whole (`filter` and `fields` are not
  /// used: the features serve every frame). The file is read into one buffer
  /// of its `fstat` size (`FileIO.read`, bounded by `maximumBytes`)
  /// and hashed; `GeoJSONFastReader` reads the features straight from it,
  /// or, when it gives up, the buffer is parsed to JSON in place and
  /// released before `GeoJSONDecoder` decodes the features (the reference
  /// way, whose results and messages the fast reader never changes). The
  /// bytes are held once and never copied.
  func read(filter: Rect?, fields: Set<String>?) -> Result<FeatureRead<Void>, SourceError> {
    let parsed: (content: ParsedFile, digest: String)
    switch Self.parse(resolved, maximumBytes: maximumBytes, confinement: confinement, store: digestStore) {
    case .failure(.file(let error)):
      switch error {
      case .notFound: return .failure(.missing(path: shown, resolvedPath: resolved))
      case .isDirectory, .failed: return .failure(.unreadable(path: shown, resolvedPath: resolved, reason: error.reason))
      }
    case .failure(.syntax(let error)):
      // Under --root, messages quote no content of the files read.
      return .failure(.syntax(path: shown, line: error.line, column: error.column, message: error.message(quotingContent: confinement == nil)))
    case .success(let p):
      parsed = p
    }
    do {
      var collection: FeatureCollection
      switch parsed.content {
      case .features(let read): collection = read
      case .json(let json): collection = try GeoJSONDecoder.decodeDocument(json)
      }
      collection.contentDigest = parsed.digest
      // Under --root, messages quote no content of the files read.
      if confinement != nil { collection.invalidSamples = collection.invalidSamplesWithoutContent }
      return .success(FeatureRead(collection: collection, info: ()))
    } catch {
      return .failure(
        .notGeoJSON(
          path: shown, jsonPath: error.path.description, expected: error.expected, found: confinement == nil ? error.found : nil,
          hint: confinement == nil ? error.hint : nil))
    }
  }

  enum ParseFailure: Error {
    case file(FileError)
    case syntax(JSONSyntaxError)
  }

  /// What `parse` made of a file's bytes.
  enum ParsedFile {
    /// The features, read by `GeoJSONFastReader`.
    case features(FeatureCollection)
    /// The JSON, for `GeoJSONDecoder.decodeDocument`: the fast reader gave
    /// up, and this reference way decides (results and messages).
    case json(JSONValue)
  }

  /// The features (`GeoJSONFastReader`) or else the JSON of the file at
  /// `path`, and the SHA-256 of its bytes; the bytes live only inside this
  /// call. With `store`, the digest of a file whose identity was the same
  /// before and after the read is taken from the store when it holds one
  /// (`DigestStore`'s rule), and stored otherwise.
  static func parse(_ path: String, maximumBytes: Int, confinement: Confinement?, store: DigestStore? = nil) -> Result<
    (content: ParsedFile, digest: String), ParseFailure
  > {
    let bytes: [UInt8]
    let identity: DigestStore.Identity?
    do {
      (bytes, identity) = try FileIO.readIdentified(path, maximumBytes: maximumBytes, limitName: "--max-source-bytes", confinement: confinement)
    } catch {
      return .failure(.file(error))
    }
    let digest: String
    let fast: FeatureCollection?
    if let store, let identity, let stored = store.digest(of: path, identity: identity) {
      (digest, fast) = (stored, GeoJSONFastReader.read(bytes))
    } else {
      (digest, fast) = hashAndRead(bytes)
      if let store, let identity { store.store(digest, of: path, identity: identity) }
    }
    if let collection = fast {
      return .success((.features(collection), digest))
    }
    do {
      return .success((.json(try JSONParser.parse(bytes)), digest))
    } catch {
      return .failure(.syntax(error))
    }
  }

  /// Files at least this large are hashed on a second thread while
  /// `GeoJSONFastReader` reads them (a 2 MB file: about 1 ms of SHA-256 out
  /// of 4); smaller ones are not worth the hand-over.
  static let concurrentHashBytes = 256 << 10

  /// The SHA-256 of `bytes` and what `GeoJSONFastReader` reads of them.
  /// The hash runs on a thread of its own (`PipelineThread`), not one of
  /// Dispatch's workers: early in a process those start a few milliseconds
  /// late, and this thread then hashed first and read after (nyc, 1.9 MB).
  /// A file the reader reads in two halves (`GeoJSONFastReader.splitBytes`)
  /// keeps two threads busy already: it is hashed after.
  static func hashAndRead(_ bytes: [UInt8]) -> (digest: String, fast: FeatureCollection?) {
    guard bytes.count >= concurrentHashBytes, bytes.count < GeoJSONFastReader.splitBytes, activeProcessorCount() > 1 else {
      let fast = GeoJSONFastReader.read(bytes)
      return (SHA256.hex(of: bytes), fast)
    }
    let digest = Mutex("")
    let hasher = PipelineThread()
    hasher.start {
      let d = SHA256.hex(of: bytes)
      digest.withLock { $0 = d }
    }
    let fast = GeoJSONFastReader.read(bytes)
    hasher.wait()
    hasher.stop()
    return (digest.withLock { $0 }, fast)
  }
}

extension SourceLoader {
  /// For the fuzz target and tests (not API): nil when `GeoJSONFastReader`
  /// gives up on `bytes` or reads exactly what the reference way
  /// (`JSONParser.parse`, then `GeoJSONDecoder.decodeDocument`) reads;
  /// otherwise what differs.
  package static func _fastReaderDisagreement(_ bytes: [UInt8]) -> String? {
    guard let fast = GeoJSONFastReader.read(bytes) else { return nil }
    let reference: FeatureCollection
    do {
      reference = try GeoJSONDecoder.decodeDocument(try JSONParser.parse(bytes))
    } catch {
      return "the fast reader read \(fast.features.count) features where the reference fails: \(error)"
    }
    var differences: [String] = []
    if fast.features != reference.features {
      let common = min(fast.features.count, reference.features.count)
      let i = (0..<common).first { fast.features[$0] != reference.features[$0] } ?? common
      differences.append("features (\(fast.features.count) and \(reference.features.count), from [\(i)])")
    }
    if fast.withoutGeometry != reference.withoutGeometry { differences.append("withoutGeometry") }
    if fast.invalidCount != reference.invalidCount { differences.append("invalidCount") }
    if fast.invalidSamples != reference.invalidSamples { differences.append("invalidSamples") }
    if fast.unlocatedCount != reference.unlocatedCount { differences.append("unlocatedCount") }
    if fast.unprojectableCount != reference.unprojectableCount { differences.append("unprojectableCount") }
    if fast.declaredCRS != reference.declaredCRS { differences.append("declaredCRS") }
    if differences.isEmpty && fast != reference { differences.append("the collections") }
    return differences.isEmpty ? nil : "the fast reader and the reference differ in " + differences.joined(separator: ", ")
  }
}
