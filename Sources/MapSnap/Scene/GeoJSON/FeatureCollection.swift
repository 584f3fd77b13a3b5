/// The valid features of a source, in file order, and what was skipped.
public struct FeatureCollection: Sendable {
  public var features: [Feature] = []
  /// Features skipped because their geometry was invalid.
  public var invalidCount: Int = 0
  /// The first few reasons, as `features[12]: a ring needs at least 4 positions`.
  public var invalidSamples: [String] = []
  /// Features with a null geometry (valid GeoJSON, nothing to draw).
  public var unlocatedCount: Int = 0
  /// The features with a null or invalid geometry whose id and properties
  /// could be read (their geometry empty): kept so that names and ids are
  /// checked against every feature of the source.
  public var withoutGeometry: [Feature] = []

  public init() {}

  /// The features in `projection`'s map units.
  public func projected(to projection: MapProjection) -> FeatureCollection {
    guard projection != .geographic else { return self }
    var c = self
    for i in c.features.indices { c.features[i].geometry = c.features[i].geometry.projected(to: projection) }
    return c
  }
}
