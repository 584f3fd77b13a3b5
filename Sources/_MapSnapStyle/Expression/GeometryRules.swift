#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point as `within` and `distance` compute with it: world tile units or longitude/latitude.
typealias GeoPoint = (x: Double, y: Double)

/// The planar tests of `within` and `distance`, as the specification's
/// implementations compute them.
enum GeometryRules {
  // MARK: Projection

  /// Longitude/latitude to world coordinates at the tile's zoom (`EvaluationPoint.extent` units a tile), rounded.
  static func worldCoordinates(_ p: GeoPoint, _ tile: CanonicalTileID) -> GeoPoint {
    let scale = pow(2, Double(tile.z)) * EvaluationPoint.extent
    return ((mercatorX(p.x) * scale).rounded(), (mercatorY(p.y) * scale).rounded())
  }

  /// Tile coordinates back to longitude/latitude.
  static func lngLat(_ p: EvaluationPoint, _ tile: CanonicalTileID) -> GeoPoint {
    let tiles = pow(2, Double(tile.z))
    let x = (p.x / EvaluationPoint.extent + Double(tile.x)) / tiles
    let y = (p.y / EvaluationPoint.extent + Double(tile.y)) / tiles
    return (x * 360 - 180, 360 / .pi * atan(exp((180 - y * 360) * .pi / 180)) - 90)
  }

  static func mercatorX(_ lng: Double) -> Double { (180 + lng) / 360 }
  static func mercatorY(_ lat: Double) -> Double { (180 - (180 / .pi * log(tan(.pi / 4 + lat * .pi / 360)))) / 360 }

  // MARK: Boxes

  struct Box {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    mutating func add(_ p: GeoPoint) {
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    /// Strictly inside `other`.
    func within(_ other: Box) -> Bool {
      minX > other.minX && maxX < other.maxX && minY > other.minY && maxY < other.maxY
    }
  }

  // MARK: Planar tests

  static func rayIntersect(_ p: GeoPoint, _ p1: GeoPoint, _ p2: GeoPoint) -> Bool {
    ((p1.y > p.y) != (p2.y > p.y)) && (p.x < (p2.x - p1.x) * (p.y - p1.y) / (p2.y - p1.y) + p1.x)
  }

  static func onBoundary(_ p: GeoPoint, _ p1: GeoPoint, _ p2: GeoPoint) -> Bool {
    let x1 = p.x - p1.x, y1 = p.y - p1.y, x2 = p.x - p2.x, y2 = p.y - p2.y
    return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
  }

  /// Even-odd ray casting; a point on an edge is `onBoundary`'s answer.
  static func pointInPolygon(_ p: GeoPoint, _ rings: [[GeoPoint]], onBoundary boundary: Bool = false) -> Bool {
    var inside = false
    for ring in rings where ring.count > 1 {
      for j in 0..<(ring.count - 1) {
        if onBoundary(p, ring[j], ring[j + 1]) { return boundary }
        if rayIntersect(p, ring[j], ring[j + 1]) { inside.toggle() }
      }
    }
    return inside
  }

  static func perp(_ v1: GeoPoint, _ v2: GeoPoint) -> Double { v1.x * v2.y - v1.y * v2.x }

  /// Whether p1 and p2 are strictly on different sides of the line q1→q2.
  static func twoSided(_ p1: GeoPoint, _ p2: GeoPoint, _ q1: GeoPoint, _ q2: GeoPoint) -> Bool {
    let x3 = q2.x - q1.x, y3 = q2.y - q1.y
    let det1 = (p1.x - q1.x) * y3 - x3 * (p1.y - q1.y)
    let det2 = (p2.x - q1.x) * y3 - x3 * (p2.y - q1.y)
    return (det1 > 0 && det2 < 0) || (det1 < 0 && det2 > 0)
  }

  /// Proper crossing of a→b and c→d (parallel segments never cross).
  static func segmentsCross(_ a: GeoPoint, _ b: GeoPoint, _ c: GeoPoint, _ d: GeoPoint) -> Bool {
    if perp((d.x - c.x, d.y - c.y), (b.x - a.x, b.y - a.y)) == 0 { return false }
    return twoSided(a, b, c, d) && twoSided(c, d, a, b)
  }

  static func lineCrossesPolygon(_ a: GeoPoint, _ b: GeoPoint, _ polygon: [[GeoPoint]]) -> Bool {
    for ring in polygon where ring.count > 1 {
      for j in 0..<(ring.count - 1) where segmentsCross(a, b, ring[j], ring[j + 1]) { return true }
    }
    return false
  }

  static func lineWithinPolygon(_ line: [GeoPoint], _ polygon: [[GeoPoint]]) -> Bool {
    for p in line where !pointInPolygon(p, polygon) { return false }
    if line.count > 1 {
      for i in 0..<(line.count - 1) where lineCrossesPolygon(line[i], line[i + 1], polygon) { return false }
    }
    return true
  }

  /// Rings grouped into polygons: each ring wound like the first starts a polygon, the others are its holes.
  static func classifyRings(_ rings: [[GeoPoint]]) -> [[[GeoPoint]]] {
    if rings.count <= 1 { return [rings] }
    var polygons: [[[GeoPoint]]] = []
    var current: [[GeoPoint]]?
    var ccw: Bool?
    for ring in rings {
      var area = 0.0
      var j = ring.count - 1
      for i in 0..<ring.count {
        area += (ring[j].x - ring[i].x) * (ring[i].y + ring[j].y)
        j = i
      }
      if area == 0 { continue }
      if ccw == nil { ccw = area < 0 }
      if ccw == (area < 0) {
        if let current { polygons.append(current) }
        current = [ring]
      } else {
        current?.append(ring)
      }
    }
    if let current { polygons.append(current) }
    return polygons
  }
}

/// Distances in metres near one latitude, by the local flat-earth
/// approximation of the WGS84 ellipsoid (Mapbox's "cheap ruler").
struct CheapRuler {
  let kx: Double, ky: Double

  init(latitude: Double) {
    let equatorialRadius = 6378.137, flattening = 1 / 298.257223563
    let e2 = flattening * (2 - flattening)
    let m = Double.pi / 180 * equatorialRadius * 1000
    let coslat = cos(latitude * .pi / 180)
    let w2 = 1 / (1 - e2 * (1 - coslat * coslat))
    let w = w2.squareRoot()
    kx = m * w * coslat
    ky = m * w * w2 * (1 - e2)
  }

  private func wrap(_ deg: Double) -> Double {
    var d = deg
    while d < -180 { d += 360 }
    while d > 180 { d -= 360 }
    return d
  }

  func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
    let dx = wrap(a.x - b.x) * kx, dy = (a.y - b.y) * ky
    return (dx * dx + dy * dy).squareRoot()
  }

  /// The point of `line` nearest `p`.
  func pointOnLine(_ line: [GeoPoint], _ p: GeoPoint) -> GeoPoint {
    var best = Double.infinity
    var nearest = line.first ?? p
    if line.count < 2 { return nearest }
    for i in 0..<(line.count - 1) {
      var x = line[i].x, y = line[i].y
      var dx = wrap(line[i + 1].x - x) * kx, dy = (line[i + 1].y - y) * ky
      if dx != 0 || dy != 0 {
        let t = (wrap(p.x - x) * kx * dx + (p.y - y) * ky * dy) / (dx * dx + dy * dy)
        if t > 1 {
          x = line[i + 1].x
          y = line[i + 1].y
        } else if t > 0 {
          x += dx / kx * t
          y += dy / ky * t
        }
      }
      dx = wrap(p.x - x) * kx
      dy = (p.y - y) * ky
      let sq = dx * dx + dy * dy
      if sq < best {
        best = sq
        nearest = (x, y)
      }
    }
    return nearest
  }

  func pointToLine(_ p: GeoPoint, _ line: [GeoPoint]) -> Double { distance(p, pointOnLine(line, p)) }

  func segmentToSegment(_ p1: GeoPoint, _ p2: GeoPoint, _ q1: GeoPoint, _ q2: GeoPoint) -> Double {
    min(min(pointToLine(p1, [q1, q2]), pointToLine(p2, [q1, q2])), min(pointToLine(q1, [p1, p2]), pointToLine(q2, [p1, p2])))
  }
}
