/// A box in WGS84 degrees to fit the view to (`map.bounds`, `--bounds`,
/// scene format 7): west, south, east, north, with west ≤ east and
/// south ≤ north (no box across the antimeridian).
public struct MapBounds: Sendable, Hashable {
  /// The western edge, degrees of longitude.
  public var west: Double
  /// The southern edge, degrees of latitude.
  public var south: Double
  /// The eastern edge, degrees of longitude.
  public var east: Double
  /// The northern edge, degrees of latitude.
  public var north: Double

  /// The box with these edges.
  public init(west: Double, south: Double, east: Double, north: Double) {
    self.west = west
    self.south = south
    self.east = east
    self.north = north
  }
}
