/// The 127-byte header of a PMTiles version 3 archive: where its sections
/// are, how they are compressed, what its tiles are and where they lie.
/// Integers are little-endian; positions are degrees × 10^7.
package struct PMTilesHeader: Sendable, Equatable {
  /// The header's size.
  package static let length = 127
  /// The magic bytes: "PMTiles".
  static let magic: [UInt8] = Array("PMTiles".utf8)

  /// Compression codes (`internalCompression`, `tileCompression`).
  package enum Compression {
    package static let unknown: UInt8 = 0
    package static let none: UInt8 = 1
    package static let gzip: UInt8 = 2
    package static let brotli: UInt8 = 3
    package static let zstd: UInt8 = 4
  }

  /// Tile type codes (`tileType`).
  package enum TileType {
    package static let unknown: UInt8 = 0
    package static let mvt: UInt8 = 1
    package static let png: UInt8 = 2
    package static let jpeg: UInt8 = 3
    package static let webp: UInt8 = 4
    package static let avif: UInt8 = 5
  }

  package var version: UInt8
  package var rootDirectoryOffset: UInt64
  package var rootDirectoryLength: UInt64
  package var metadataOffset: UInt64
  package var metadataLength: UInt64
  package var leafDirectoriesOffset: UInt64
  package var leafDirectoriesLength: UInt64
  package var tileDataOffset: UInt64
  package var tileDataLength: UInt64
  package var addressedTilesCount: UInt64
  package var tileEntriesCount: UInt64
  package var tileContentsCount: UInt64
  /// True when tiles are stored in tile id order (writers cluster them).
  package var clustered: Bool
  /// The compression of the directories and the metadata.
  package var internalCompression: UInt8
  /// The compression of each tile.
  package var tileCompression: UInt8
  package var tileType: UInt8
  package var minZoom: UInt8
  package var maxZoom: UInt8
  package var minLongitude: Double
  package var minLatitude: Double
  package var maxLongitude: Double
  package var maxLatitude: Double
  package var centerZoom: UInt8
  package var centerLongitude: Double
  package var centerLatitude: Double

  /// Reads the header from the archive's first bytes.
  package init(bytes: [UInt8]) throws(PMTilesError) {
    guard bytes.count >= 7, Array(bytes[0..<7]) == Self.magic else { throw .notPMTiles }
    guard bytes.count >= 8 else { throw .notPMTiles }
    guard bytes[7] == 3 else { throw .unsupportedVersion(bytes[7]) }
    guard bytes.count >= Self.length else { throw .shortRead(what: "header", offset: 0, length: UInt64(Self.length)) }
    func u64(_ at: Int) -> UInt64 {
      var v: UInt64 = 0
      for i in 0..<8 { v |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
      return v
    }
    func e7(_ at: Int) -> Double {
      var v: UInt32 = 0
      for i in 0..<4 { v |= UInt32(bytes[at + i]) << (8 * UInt32(i)) }
      return Double(Int32(bitPattern: v)) / 10_000_000
    }
    version = bytes[7]
    rootDirectoryOffset = u64(8)
    rootDirectoryLength = u64(16)
    metadataOffset = u64(24)
    metadataLength = u64(32)
    leafDirectoriesOffset = u64(40)
    leafDirectoriesLength = u64(48)
    tileDataOffset = u64(56)
    tileDataLength = u64(64)
    addressedTilesCount = u64(72)
    tileEntriesCount = u64(80)
    tileContentsCount = u64(88)
    clustered = bytes[96] == 1
    internalCompression = bytes[97]
    tileCompression = bytes[98]
    tileType = bytes[99]
    minZoom = bytes[100]
    maxZoom = bytes[101]
    minLongitude = e7(102)
    minLatitude = e7(106)
    maxLongitude = e7(110)
    maxLatitude = e7(114)
    centerZoom = bytes[118]
    centerLongitude = e7(119)
    centerLatitude = e7(123)
  }

  /// A compression code's name, for messages.
  package static func compressionName(_ code: UInt8) -> String {
    switch code {
    case Compression.unknown: return "unknown"
    case Compression.none: return "none"
    case Compression.gzip: return "gzip"
    case Compression.brotli: return "brotli"
    case Compression.zstd: return "zstd"
    default: return "code \(code)"
    }
  }
}
