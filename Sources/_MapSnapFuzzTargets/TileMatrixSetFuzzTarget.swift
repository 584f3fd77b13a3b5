import MapSnap

/// `tilematrixset`: bytes read as a tile matrix set file (OGC Two
/// Dimensional Tile Matrix Set 2.0 JSON, a `tiles` layer's or a
/// `tiles.json`'s `tileMatrixSet`): `TileMatrixSetDecoder.decode`, through
/// `_TileProbe`.
///
/// A refusal must be `TileError.badTileMatrixSet` naming the file; a set
/// taken must hold what the tile resolver relies on (`check`).
public enum TileMatrixSetFuzzTarget {
  /// The name the file is given in errors.
  static let shown = "set.json"

  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    do {
      let set = try _TileProbe.tileMatrixSet(Array(data), shown: shown)
      check(set)
      return .accepted
    } catch {
      guard case .badTileMatrixSet(let path, _, _, _, _) = error, path == shown else {
        preconditionFailure("the decoder refused with another error than badTileMatrixSet: \(error)")
      }
      _ = error.description
      return .rejected
    }
  }

  /// Traps unless `set` has what `TileResolver` relies on: at least one
  /// level, level numbers strictly increasing, every cell size a finite
  /// number > 0, an origin of finite numbers, tile sides of 1 to 4096
  /// pixels (`TileMatrixSetDecoder.maximumTileSide`), at least one column
  /// and one row.
  static func check(_ set: TileMatrixSet) {
    precondition(!set.matrices.isEmpty, "a tile matrix set without levels")
    var previous: Int? = nil
    for m in set.matrices {
      if let previous { precondition(m.level > previous, "levels not in increasing order: \(previous) then \(m.level)") }
      previous = m.level
      precondition(m.cellSize > 0 && m.cellSize.isFinite, "level \(m.level): cell size \(m.cellSize)")
      precondition(m.origin.x.isFinite && m.origin.y.isFinite, "level \(m.level): origin \(m.origin.x), \(m.origin.y)")
      precondition((1...4096).contains(m.tileWidth) && (1...4096).contains(m.tileHeight), "level \(m.level): tiles of \(m.tileWidth) × \(m.tileHeight)")
      precondition(m.matrixWidth >= 1 && m.matrixHeight >= 1, "level \(m.level): a matrix of \(m.matrixWidth) × \(m.matrixHeight)")
    }
  }
}
