/// One GeoJSON feature.
public struct Feature: Sendable {
  /// The GeoJSON `id` member (string or number), or nil.
  public var id: JSONValue?
  public var properties: JSONObject
  public var geometry: Geometry

  public init(id: JSONValue?, properties: JSONObject, geometry: Geometry) {
    self.id = id
    self.properties = properties
    self.geometry = geometry
  }
}
