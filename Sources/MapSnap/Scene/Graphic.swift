/// One inline geometry of a `graphics` layer.
public struct Graphic: Sendable {
  public var id: String?
  public var geometry: Geometry
  public var style: Style
  public var floor: FloorValue?

  public init(id: String?, geometry: Geometry, style: Style, floor: FloorValue?) {
    self.id = id
    self.geometry = geometry
    self.style = style
    self.floor = floor
  }
}
