/// A box in WGS84 degrees to fit the view to (`map.bounds`, `--bounds`,
/// scene format 7): west, south, east, north, with west ≤ east and
/// south ≤ north (no box across the antimeridian).
public struct MapBounds: Sendable, Hashable {
  public var west: Double
  public var south: Double
  public var east: Double
  public var north: Double

  public init(west: Double, south: Double, east: Double, north: Double) {
    self.west = west
    self.south = south
    self.east = east
    self.north = north
  }
}
