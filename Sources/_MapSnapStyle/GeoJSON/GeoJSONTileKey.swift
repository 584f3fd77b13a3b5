/// A tile of a GeoJSON source a frame asks for: column (within the world)
/// and row at the frame's tile zoom.
package struct GeoJSONTileKey: Sendable, Hashable {
  package var x: Int
  package var y: Int
  package init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}
