/// One inline geometry of a `graphics` layer.
public struct Graphic: Sendable {
  /// Its `id`, by which view annotations and `explain` name it; nil: none.
  public var id: String?
  /// Its geometry, in WGS84 degrees.
  public var geometry: Geometry
  /// How it is drawn.
  public var style: Style
  /// The floor it is on (section 5); nil: every floor.
  public var floor: FloorValue?

  /// A graphic with these members.
  public init(id: String?, geometry: Geometry, style: Style, floor: FloorValue?) {
    self.id = id
    self.geometry = geometry
    self.style = style
    self.floor = floor
  }
}
