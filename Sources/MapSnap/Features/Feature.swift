/// One feature of a source (a GeoJSON feature, a row of an `ogr` layer):
/// its id, properties and geometry, and its place in the source.
public struct Feature: Sendable, Equatable {
  /// The GeoJSON `id` member (string or number), or nil.
  public var id: JSONValue?
  /// Its properties (an `ogr` row's fields), in the order written.
  public var properties: JSONObject
  /// Its geometry; empty when it has none (`FeatureCollection.withoutGeometry`).
  public var geometry: Geometry
  /// The feature's 0-based position in its source, counting every member of
  /// `features` (those skipped for a null or invalid geometry included): the
  /// key reports and `explain --id '#N'` use when it has no id.
  public var index: Int

  /// A feature with these members; `index` its position in its source.
  public init(id: JSONValue?, properties: JSONObject, geometry: Geometry, index: Int = 0) {
    self.id = id
    self.properties = properties
    self.geometry = geometry
    self.index = index
  }
}
