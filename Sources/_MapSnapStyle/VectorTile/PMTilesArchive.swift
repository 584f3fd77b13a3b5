import Synchronization
import _MapSnapJSON

/// A PMTiles version 3 archive read through a `RangeReader`: the header and
/// root directory at once, leaf directories and tiles as they are asked
/// for, the JSON metadata on first use. Safe to share across threads: the
/// leaf directory cache and the metadata are behind locks.
package final class PMTilesArchive: Sendable {
  package let header: PMTilesHeader
  let reader: any RangeReader
  let root: PMTilesDirectory
  let leaves: Mutex<PMTilesDirectoryCache>
  let metadataValue: Mutex<JSONValue?>

  /// Reads the header and root directory (one read of the first 16 KiB,
  /// where the specification puts both, and a second only when the root
  /// lies elsewhere).
  package init(reader: any RangeReader) throws(PMTilesError) {
    self.reader = reader
    let first = try Self.read(reader, offset: 0, length: PMTilesLimits.firstReadBytes, what: "header", exact: false)
    let header = try PMTilesHeader(bytes: first)
    self.header = header
    try Self.checkCompression(header.internalCompression, what: "directories")
    guard header.rootDirectoryLength <= UInt64(PMTilesLimits.maxDirectoryBytes) else {
      throw .directoryTooLarge(length: header.rootDirectoryLength, limit: PMTilesLimits.maxDirectoryBytes)
    }
    let rootBytes: [UInt8]
    let (rootEnd, overflow) = header.rootDirectoryOffset.addingReportingOverflow(header.rootDirectoryLength)
    if !overflow && rootEnd <= UInt64(first.count) {
      rootBytes = Array(first[Int(header.rootDirectoryOffset)..<Int(rootEnd)])
    } else {
      rootBytes = try Self.read(
        reader, offset: header.rootDirectoryOffset, length: Int(header.rootDirectoryLength), what: "root directory")
    }
    root = try Self.directory(rootBytes, offset: header.rootDirectoryOffset, compression: header.internalCompression)
    leaves = Mutex(PMTilesDirectoryCache(budget: PMTilesLimits.directoryCacheBytes))
    metadataValue = Mutex(nil)
  }

  /// `length` bytes at `offset`; fewer is an error unless `exact` is false.
  static func read(_ reader: any RangeReader, offset: UInt64, length: Int, what: String, exact: Bool = true) throws(PMTilesError) -> [UInt8] {
    let bytes: [UInt8]
    do {
      bytes = try reader.read(offset: offset, length: length)
    } catch let error as RangeReadError {
      throw .read(error.message)
    } catch {
      throw .read("\(error)")
    }
    if exact && bytes.count < length { throw .shortRead(what: what, offset: offset, length: UInt64(length)) }
    return bytes
  }

  /// Fails on a compression this reader cannot undo.
  static func checkCompression(_ code: UInt8, what: String) throws(PMTilesError) {
    switch code {
    case PMTilesHeader.Compression.unknown, PMTilesHeader.Compression.none, PMTilesHeader.Compression.gzip: return
    default: throw .unsupportedCompression(code: code, what: what)
    }
  }

  /// Undoes a compression (unknown: gzip or zlib when the bytes start so).
  static func decompress(_ bytes: [UInt8], compression: UInt8, limit: Int, what: String) throws(PMTilesError) -> [UInt8] {
    do {
      switch compression {
      case PMTilesHeader.Compression.none: return bytes
      case PMTilesHeader.Compression.gzip: return try Inflate.inflate(bytes, limit: limit)
      case PMTilesHeader.Compression.unknown: return try Inflate.ifCompressed(bytes, limit: limit)
      default: throw PMTilesError.unsupportedCompression(code: compression, what: what)
      }
    } catch let error as InflateError {
      throw .inflate(what: what, error)
    } catch let error as PMTilesError {
      throw error
    } catch {
      throw .read("\(error)")
    }
  }

  static func directory(_ bytes: [UInt8], offset: UInt64, compression: UInt8) throws(PMTilesError) -> PMTilesDirectory {
    let inflated = try decompress(
      bytes, compression: compression, limit: PMTilesLimits.maxDirectoryBytes, what: "the directory at \(offset)")
    return try PMTilesDirectory(bytes: inflated, offset: offset)
  }

  /// The root directory's entries.
  package var rootEntries: [PMTilesEntry] { root.entries }

  /// The leaf directory an entry points to, from the cache or read.
  package func leafDirectory(_ entry: PMTilesEntry) throws(PMTilesError) -> PMTilesDirectory {
    let (offset, overflow) = header.leafDirectoriesOffset.addingReportingOverflow(entry.offset)
    guard !overflow else { throw .shortRead(what: "leaf directory", offset: entry.offset, length: UInt64(entry.length)) }
    if let cached = leaves.withLock({ $0.get(offset) }) { return cached }
    guard entry.length <= UInt32(PMTilesLimits.maxDirectoryBytes) else {
      throw .directoryTooLarge(length: UInt64(entry.length), limit: PMTilesLimits.maxDirectoryBytes)
    }
    let bytes = try Self.read(reader, offset: offset, length: Int(entry.length), what: "leaf directory")
    let directory = try Self.directory(bytes, offset: offset, compression: header.internalCompression)
    leaves.withLock { $0.put(offset, directory) }
    return directory
  }

  /// The tile entry of `tileID`, through as many leaf directories as it
  /// takes (at most `PMTilesLimits.maxLeafDepth`), or nil when the archive
  /// does not hold the tile.
  package func entry(tileID: UInt64) throws(PMTilesError) -> PMTilesEntry? {
    var directory = root
    for _ in 0...PMTilesLimits.maxLeafDepth {
      guard let entry = directory.find(tileID) else { return nil }
      if !entry.isLeaf { return entry }
      directory = try leafDirectory(entry)
    }
    throw .leavesTooDeep(limit: PMTilesLimits.maxLeafDepth)
  }

  /// Tile z/x/y (XYZ: y down from the north) as stored (still compressed
  /// by `header.tileCompression`), or nil when the archive does not hold it.
  package func storedTile(z: Int, x: Int, y: Int) throws(PMTilesError) -> [UInt8]? {
    guard let id = PMTilesTileID.id(z: z, x: x, y: y) else { throw .invalidTile(z: z, x: x, y: y) }
    guard let entry = try entry(tileID: id) else { return nil }
    guard entry.length <= UInt32(Inflate.tileLimit) else {
      throw .tileTooLarge(length: UInt64(entry.length), limit: Inflate.tileLimit)
    }
    let (offset, overflow) = header.tileDataOffset.addingReportingOverflow(entry.offset)
    guard !overflow else { throw .shortRead(what: "tile \(z)/\(x)/\(y)", offset: entry.offset, length: UInt64(entry.length)) }
    return try Self.read(reader, offset: offset, length: Int(entry.length), what: "tile \(z)/\(x)/\(y)")
  }

  /// Tile z/x/y with its compression undone (gzip inflated to at most
  /// `Inflate.tileLimit`), or nil when the archive does not hold it.
  /// brotli and zstd tiles are an `unsupportedCompression` error.
  package func tile(z: Int, x: Int, y: Int) throws(PMTilesError) -> [UInt8]? {
    guard let stored = try storedTile(z: z, x: x, y: y) else { return nil }
    return try Self.decompress(stored, compression: header.tileCompression, limit: Inflate.tileLimit, what: "tile \(z)/\(x)/\(y)")
  }

  /// The archive's JSON metadata (its `vector_layers`, attribution, …), read
  /// and parsed on first use; an empty object when the archive has none.
  package func metadata() throws(PMTilesError) -> JSONValue {
    if let value = metadataValue.withLock({ $0 }) { return value }
    guard header.metadataLength <= UInt64(PMTilesLimits.maxMetadataBytes) else {
      throw .metadataTooLarge(length: header.metadataLength, limit: PMTilesLimits.maxMetadataBytes)
    }
    let value: JSONValue
    if header.metadataLength == 0 {
      value = .object(JSONObject())
    } else {
      let stored = try Self.read(reader, offset: header.metadataOffset, length: Int(header.metadataLength), what: "metadata")
      let bytes = try Self.decompress(
        stored, compression: header.internalCompression, limit: PMTilesLimits.maxMetadataBytes, what: "the metadata")
      do {
        value = try JSONParser.parse(bytes)
      } catch {
        throw .metadataNotJSON("\(error)")
      }
    }
    metadataValue.withLock { $0 = value }
    return value
  }
}
