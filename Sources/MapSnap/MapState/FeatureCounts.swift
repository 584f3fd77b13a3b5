/// Feature counts of one layer or sublayer, as resolution finds them.
///
/// - `total`: features in the source (or graphics in the layer), including
///   skipped ones; for a sublayer, the features its `where` takes.
/// - `invalid`: skipped for invalid geometry.
/// - `otherFloor`: left out by the floor filter.
///
/// What reaches the pixels (`drawn`) is the display-list stage's count
/// (`DrawRecord`), joined with these in `LayerRecord`.
public struct FeatureCounts: Sendable, Hashable {
  public var total = 0
  public var invalid = 0
  public var otherFloor = 0

  public init() {}
}
