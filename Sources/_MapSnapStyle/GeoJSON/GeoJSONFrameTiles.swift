/// What a frame draws of a GeoJSON source: the features layers evaluate
/// and, for each tile asked for, its features' geometry.
package struct GeoJSONFrameTiles: Sendable {
  /// The features: the source's kept features, then (clustered sources)
  /// the clusters the frame's zoom shows.
  package var features: [EvaluationFeature]
  /// Each asked tile's features, in the order the tiles were asked.
  package var tiles: [[GeoJSONTileFeature]]
  /// The tile zoom.
  package var zoom: Int
}
