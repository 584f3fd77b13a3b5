/// The bounds a vector tile's decoding keeps, whatever its bytes claim, so
/// that a hostile or broken tile ends in an error instead of an unbounded
/// allocation. Each is far above what real tiles hold.
package enum VectorTileLimits {
  /// Layers per tile. The layer index keeps a name and a byte range per
  /// layer; real schemas have 10–20 layers (OpenMapTiles has 15, Protomaps'
  /// basemap 11), and a tile of 64 MiB of empty layers would otherwise index
  /// millions of names.
  package static let maxLayers = 1_024

  /// Features per layer. A parsed layer keeps 8 bytes per feature (its byte
  /// range), and each feature is decoded again when asked for; a layer of
  /// this many features holds 8 MiB of ranges. Real z14 tiles hold at most
  /// tens of thousands of features per layer; a tile of a million features
  /// is still read, one just past this cap is refused with
  /// `VectorTileError.tooManyFeatures`.
  package static let maxFeaturesPerLayer = 1 << 20

  /// Entries of a layer's keys table, and of its values table. Each entry
  /// is decoded into a `String` or `StyleValue` (tens of bytes) from as few
  /// as 2 bytes; real layers have at most tens of thousands of distinct
  /// values (names, heights).
  package static let maxKeysOrValuesPerLayer = 1 << 20
}
