/// One GeoJSON feature.
public struct Feature: Sendable, Equatable {
  /// The GeoJSON `id` member (string or number), or nil.
  public var id: JSONValue?
  public var properties: JSONObject
  public var geometry: Geometry
  /// The feature's 0-based position in its source, counting every member of
  /// `features` (those skipped for a null or invalid geometry included): the
  /// key reports and `explain --id '#N'` use when it has no id.
  public var index: Int

  public init(id: JSONValue?, properties: JSONObject, geometry: Geometry, index: Int = 0) {
    self.id = id
    self.properties = properties
    self.geometry = geometry
    self.index = index
  }
}
