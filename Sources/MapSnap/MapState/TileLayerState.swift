/// What a `tiles` layer shows in this frame (scene format 3.4): the level
/// chosen and what became of each tile of that level that meets the frame.
///
/// The four counts are disjoint: each tile is `drawn` (its own pixels),
/// `fromParent` (absent, filled from the nearest level above that has it),
/// `missing` (absent, no ancestor either) or `undecodable` (skipped).
public struct TileLayerState: Sendable {
  public internal(set) var zoom: Int
  public internal(set) var tileMatrixSet: TileMatrixSet
  public internal(set) var drawn = 0
  public internal(set) var fromParent = 0
  public internal(set) var missing = 0
  public internal(set) var undecodable = 0
  /// The layer's `attribution`, else the source's.
  public internal(set) var attribution: String?
  /// True when the layer draws an image: some tile is drawn or filled from
  /// a parent (the mosaic itself is in `ResolvedInputs`).
  public var hasImage: Bool { drawn + fromParent > 0 }

  init(zoom: Int, tileMatrixSet: TileMatrixSet, attribution: String?) {
    self.zoom = zoom
    self.tileMatrixSet = tileMatrixSet
    self.attribution = attribution
  }
}
