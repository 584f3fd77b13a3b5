/// Why a PMTiles archive, or a tile of it, cannot be read.
package enum PMTilesError: Error, Sendable, Equatable {
  /// The bytes do not start with `PMTiles` (or are shorter than a header).
  case notPMTiles
  /// A PMTiles archive of a version other than 3.
  case unsupportedVersion(UInt8)
  /// The reader failed (the file or the server's words).
  case read(String)
  /// A range ends past the archive (a header or directory entry pointing
  /// outside it, or a file cut short).
  case shortRead(what: String, offset: UInt64, length: UInt64)
  /// A directory longer than `PMTilesLimits.maxDirectoryBytes`.
  case directoryTooLarge(length: UInt64, limit: Int)
  /// A directory whose entries do not decode.
  case malformedDirectory(offset: UInt64, why: String)
  /// Leaf directories nested deeper than `PMTilesLimits.maxLeafDepth`.
  case leavesTooDeep(limit: Int)
  /// The archive's metadata is longer than `PMTilesLimits.maxMetadataBytes`.
  case metadataTooLarge(length: UInt64, limit: Int)
  /// The archive's metadata is not JSON.
  case metadataNotJSON(String)
  /// A tile longer than `Inflate.tileLimit` as stored.
  case tileTooLarge(length: UInt64, limit: Int)
  /// A compression this reader cannot undo (brotli, zstd, or a code the
  /// specification does not define), for `what` (directories, tiles).
  case unsupportedCompression(code: UInt8, what: String)
  /// A directory, the metadata or a tile that does not inflate.
  case inflate(what: String, InflateError)
  /// Tile coordinates outside their zoom level (x or y ≥ 2^z), or a zoom
  /// past `PMTilesTileID.maxZoom`.
  case invalidTile(z: Int, x: Int, y: Int)

  /// The message a report shows.
  package var message: String {
    switch self {
    case .notPMTiles:
      return "not a PMTiles archive: it does not start with the 'PMTiles' header"
    case .unsupportedVersion(let v):
      return "PMTiles version \(v) is not supported: version 3 is read (convert older archives with the pmtiles tool)"
    case .read(let why):
      return "PMTiles: \(why)"
    case .shortRead(let what, let offset, let length):
      return "PMTiles: the \(what) (\(length) bytes at \(offset)) runs past the end of the archive"
    case .directoryTooLarge(let length, let limit):
      return "PMTiles: a directory of \(length) bytes is larger than \(Inflate.describe(limit)), the limit per directory"
    case .malformedDirectory(let offset, let why):
      return "PMTiles: the directory at \(offset) is malformed: \(why)"
    case .leavesTooDeep(let limit):
      return "PMTiles: leaf directories nest deeper than \(limit) levels"
    case .metadataTooLarge(let length, let limit):
      return "PMTiles: metadata of \(length) bytes is larger than \(Inflate.describe(limit)), the limit"
    case .metadataNotJSON(let why):
      return "PMTiles: the metadata is not JSON: \(why)"
    case .tileTooLarge(let length, let limit):
      return "PMTiles: a tile of \(length) bytes is larger than \(Inflate.describe(limit)), the limit per tile"
    case .unsupportedCompression(let code, let what):
      return "PMTiles: unsupported compression \(PMTilesHeader.compressionName(code)) for \(what) (none and gzip are read)"
    case .inflate(let what, let error):
      return "PMTiles: \(what): \(error.message)"
    case .invalidTile(let z, let x, let y):
      return "PMTiles: tile \(z)/\(x)/\(y) is outside its zoom level"
    }
  }
}

extension PMTilesError: CustomStringConvertible {
  package var description: String { message }
}
