/// The bounds a PMTiles archive's reading keeps, whatever its header and
/// directories claim.
package enum PMTilesLimits {
  /// The most one directory (the root or a leaf) may take, as stored and
  /// inflated: 16 MiB. The specification keeps the header and root
  /// directory within 16 KiB; writers size leaves at thousands to tens of
  /// thousands of entries (tens to hundreds of KiB even for the planet), so
  /// only a broken or hostile archive reaches it.
  package static let maxDirectoryBytes = 16 << 20
  /// The most entries one directory may hold: 2^20 (24 MiB decoded). Each
  /// entry takes at least 4 bytes encoded (a varint per column), so this is
  /// what a directory at the byte limit could claim.
  package static let maxDirectoryEntries = 1 << 20
  /// Leaf directories below the root: 3 levels, as the reference readers
  /// follow. Writers use one.
  package static let maxLeafDepth = 3
  /// The leaf directories kept decoded, in bytes of entries (24 bytes
  /// each): 64 MiB, the least recently used evicted first. The root
  /// directory is kept apart, always.
  package static let directoryCacheBytes = 64 << 20
  /// The most the JSON metadata may take, stored and inflated: 16 MiB
  /// (real metadata, layer lists with their fields, is a few KiB).
  package static let maxMetadataBytes = 16 << 20
  /// The first read of an archive: the header and, by the specification,
  /// the root directory, in one range.
  package static let firstReadBytes = 16_384
}
