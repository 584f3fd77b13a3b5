internal import _MapSnapRaster

/// What a `tiles` layer shows in this frame (scene format 3.4): the level
/// chosen and what became of each tile of that level that meets the frame.
///
/// The four counts are disjoint: each tile is `drawn` (its own pixels),
/// `fromParent` (absent, filled from the nearest level above that has it),
/// `missing` (absent, no ancestor either) or `undecodable` (skipped).
public struct TileLayerState: Sendable {
  public var zoom: Int
  public var tileMatrixSet: TileMatrixSet
  public var drawn = 0
  public var fromParent = 0
  public var missing = 0
  public var undecodable = 0
  /// The layer's `attribution`, else the source's.
  public var attribution: String?
  /// Wall time, in seconds, spent reading and decoding tiles (nearly nothing
  /// when the cache has them) and stitching the mosaic: for benchmarks, not
  /// written to the report.
  public internal(set) var readSeconds = 0.0
  public internal(set) var stitchSeconds = 0.0
  /// The digest of the tiles read for this frame: each tile's level, column,
  /// row and the SHA-256 of its bytes (or that it was absent), parents
  /// included; empty when no tile was read. Part of the frame's
  /// `InputDigest`.
  public internal(set) var inputDigest = ""
  /// The tiles stitched into one image (seamless resampling across tile
  /// edges), and the map-unit rectangle it covers; nil when nothing is drawn.
  var mosaic: RasterImage?
  var mosaicBounds = Rect.empty

  init(zoom: Int, tileMatrixSet: TileMatrixSet, attribution: String?) {
    self.zoom = zoom
    self.tileMatrixSet = tileMatrixSet
    self.attribution = attribution
  }
}
