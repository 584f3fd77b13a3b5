import _MapSnapStyle

/// `pmtiles`: bytes read as a PMTiles archive through an in-memory range
/// reader (`PMTilesArchive`): the header, the root directory, the metadata,
/// and the tiles of the first root entries, through their leaf directories.
public enum PMTilesFuzzTarget {
  /// Root entries followed, and entries followed in each leaf: enough to
  /// reach every code path, few enough to keep an input fast.
  static let entriesFollowed = 32

  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    do {
      let archive = try PMTilesArchive(reader: MemoryRangeReader(bytes: Array(data)))
      _ = try archive.metadata()
      for entry in archive.rootEntries.prefix(entriesFollowed) {
        var ids = [entry.tileID]
        if entry.isLeaf {
          ids = try archive.leafDirectory(entry).entries.prefix(entriesFollowed).map(\.tileID)
        }
        for id in ids {
          let (z, x, y) = PMTilesTileID.tile(id)
          _ = try archive.tile(z: z, x: x, y: y)
        }
      }
      return .accepted
    } catch {
      return .rejected
    }
  }
}
