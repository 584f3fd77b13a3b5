/// One feature's geometry in one GeoJSON tile, in the tile's integer
/// coordinates (`GeoJSONTiler.extent` across), and for `lineMetrics` lines
/// each point's line-progress.
package struct GeoJSONTileFeature: Sendable {
  /// The feature, an index into `GeoJSONFrameTiles.features`.
  package var feature: Int32
  package var geometry: TileGeometry
  /// With `lineMetrics`, for a line: `progress[i]` is the line-progress
  /// (0 at the line's first vertex, 1 at its last: the distance along the
  /// whole line, before clipping and simplification, over its length) of
  /// `geometry.points[i]`. Empty otherwise.
  package var progress: [Float]
}
