/// A feature's geometry: in WGS84 degrees as decoded, in map units once
/// `projected(to:)` (x east, y north). Multi-parts and GeometryCollections
/// are flattened into the three lists; drawing order within a feature is
/// polygons, lines, points.
public struct Geometry: Sendable, Equatable {
  /// Point and MultiPoint positions.
  public var points: [Point] = []
  /// LineString and MultiLineString parts, each with at least two positions.
  public var lines: [[Point]] = []
  /// Polygons as rings: the first is the outer ring, the rest are holes. The
  /// closing position is not repeated. Outer rings run counter-clockwise and
  /// holes clockwise (RFC 7946), whatever the file said, so holes stay holes
  /// under the non-zero fill rule.
  public var polygons: [[[Point]]] = []
  /// Bounds of every position.
  public var bounds: Rect = .empty

  /// An empty geometry (no parts, empty bounds).
  public init() {}

  /// The geometry in `projection`'s map units (WGS84 degrees stay as they
  /// are); empty when PROJ cannot project one of its positions.
  public func projected(to projection: MapProjection) -> Geometry {
    guard !projection.isWGS84Degrees else { return self }
    if case .proj = projection.kind { return projectedAtOnce(to: projection) }
    var g = Geometry()
    @inline(__always) func p(_ q: Point) -> Point {
      let m = projection.project(lon: q.x, lat: q.y)
      g.bounds.include(m)
      return m
    }
    g.points = points.map(p)
    g.lines = lines.map { $0.map(p) }
    g.polygons = polygons.map { $0.map { $0.map(p) } }
    return g
  }

  /// Every position through PROJ in one call, then put back part by part.
  private func projectedAtOnce(to projection: MapProjection) -> Geometry {
    var all: [Point] = []
    all.reserveCapacity(pointCount)
    all += points
    for l in lines { all += l }
    for p in polygons { for r in p { all += r } }
    all.withUnsafeMutableBufferPointer { projection.project($0) }
    var g = Geometry()
    for p in all {
      guard p.x.isFinite, p.y.isFinite else { return Geometry() }
      g.bounds.include(p)
    }
    var next = all.startIndex
    func take(_ n: Int) -> [Point] {
      defer { next += n }
      return Array(all[next..<(next + n)])
    }
    g.points = take(points.count)
    g.lines = lines.map { take($0.count) }
    g.polygons = polygons.map { $0.map { take($0.count) } }
    return g
  }

  /// True when it has no part: the feature is unlocated, nothing is drawn.
  public var isEmpty: Bool { points.isEmpty && lines.isEmpty && polygons.isEmpty }

  /// Number of positions in all parts (a measure of the work to draw it).
  public var pointCount: Int {
    var n = points.count
    for l in lines { n += l.count }
    for p in polygons { for r in p { n += r.count } }
    return n
  }
}
