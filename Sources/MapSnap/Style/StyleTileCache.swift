internal import _MapSnapStyle
import Synchronization

/// The vector tiles a style's frames have read and decoded, kept for the
/// frames after (a batch of thumbnails over one city, a server's requests,
/// `mapsnap-bench`'s runs), each with what frames learned of its features
/// (`TileFeatureCache`): as MapLibre keeps its tiles and their buckets
/// between frames. Kept with the parsed style (`StyleLayerSource`), so for
/// a process's life: a tile file changed meanwhile is not read again.
///
/// Bounded: a tile costs `costFactor` times its decompressed bytes (the
/// bytes, and the properties and boxes learned of its features); past
/// `limitBytes` the tiles used longest ago are let go. Tiles that are
/// missing or cannot be decoded are not kept (they are read again). Shared
/// by the threads of a batch behind its lock.
final class StyleTileCache: Sendable {
  /// A tile of one tile set: the set's identity (the style's folder, the
  /// source's URL or templates as the style gives them, the `local://`
  /// root) and the tile's zoom, column within the world and row.
  struct Key: Hashable, Sendable {
    let set: String
    let z: Int
    let x: Int
    let y: Int
  }

  struct Entry: Sendable {
    let tile: VectorTile
    let features: TileFeatureCache
  }

  private struct State {
    var entries: [Key: (entry: Entry, cost: Int, used: UInt64)] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  /// What a kept tile costs against the limit, per decompressed byte: its
  /// bytes once, and about three times as much for the evaluation features
  /// (property dictionaries) and boxes frames learn of it.
  static let costFactor = 4
  /// The default limit, 96 MiB: some 100 OpenMapTiles tiles of a city's
  /// centre at zoom 14, more than a batch over one city needs at once.
  static let defaultLimitBytes = 96 << 20

  let limitBytes: Int
  private let state = Mutex(State())

  init(limitBytes: Int = StyleTileCache.defaultLimitBytes) {
    self.limitBytes = max(0, limitBytes)
  }

  /// The kept tile, if any (marked as just used).
  func tile(_ key: Key) -> Entry? {
    state.withLock { s in
      guard var e = s.entries[key] else { return nil }
      s.clock += 1
      e.used = s.clock
      s.entries[key] = e
      return e.entry
    }
  }

  /// Keeps `tile` under `key` (a tile another thread kept meanwhile wins)
  /// and gives back the entry kept; lets go of the tiles used longest ago
  /// past the limit.
  func keep(_ key: Key, _ tile: VectorTile) -> Entry {
    let cost = tile.bytes.count * Self.costFactor
    return state.withLock { s in
      s.clock += 1
      if var e = s.entries[key] {
        e.used = s.clock
        s.entries[key] = e
        return e.entry
      }
      let entry = Entry(tile: tile, features: TileFeatureCache())
      guard cost <= limitBytes else { return entry }
      s.entries[key] = (entry, cost, s.clock)
      s.bytes += cost
      while s.bytes > limitBytes, let oldest = s.entries.min(by: { $0.value.used < $1.value.used }) {
        s.entries[oldest.key] = nil
        s.bytes -= oldest.value.cost
      }
      return entry
    }
  }

  /// How many tiles are kept (for tests).
  var count: Int { state.withLock { $0.entries.count } }
}
