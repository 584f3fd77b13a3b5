/// Feature counts of one layer or sublayer.
///
/// - `total`: features in the source (or graphics in the layer), including
///   skipped ones; for a sublayer, the features its `where` takes.
/// - `drawn`: features that put at least one pixel into the frame: their own
///   geometry (fill, stroke, marker, icon), a placed label of theirs, or their
///   annotation text covers a pixel of the image with non-zero coverage and a
///   colour that is not fully transparent. Decided from the display list,
///   before any pixel is drawn; overdraw by later features does not matter.
///   A feature merely considered for placement is not drawn.
/// - `invalid`: skipped for invalid geometry.
/// - `otherFloor`: left out by the floor filter.
public struct FeatureCounts: Sendable, Hashable {
  public var total = 0
  public var drawn = 0
  public var invalid = 0
  public var otherFloor = 0

  public init() {}
}
