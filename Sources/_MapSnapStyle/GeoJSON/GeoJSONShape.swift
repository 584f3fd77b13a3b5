#if canImport(Glibc)
  import Glibc
#endif

/// One feature's geometry as the tiler reads it: in world units (x and y
/// 0…1 across the Web Mercator world, y down), each vertex with its
/// importance (the squared distance at which Douglas–Peucker simplification
/// drops it, `GeoJSONSimplify`) and its distance along its line.
package struct GeoJSONShape: Sendable {
  /// Point, lineString or polygon.
  package var kind: GeometryKind
  /// Points: one part holding every point. Lines: one part per line.
  /// Polygons: one part per ring, each closed (its first vertex repeated).
  package var parts: [GeoJSONPart]
  /// Polygons only: polygon `i` is parts `polygonEnds[i - 1] ..< polygonEnds[i]`
  /// (its exterior first).
  package var polygonEnds: [Int32]
  package var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

  init(kind: GeometryKind, parts: [GeoJSONPart], polygonEnds: [Int32] = []) {
    self.kind = kind
    self.parts = parts
    self.polygonEnds = polygonEnds
    for p in parts {
      var i = 0
      while i < p.coords.count {
        minX = min(minX, p.coords[i]); maxX = max(maxX, p.coords[i])
        minY = min(minY, p.coords[i + 1]); maxY = max(maxY, p.coords[i + 1])
        i += GeoJSONPart.stride
      }
    }
  }

  /// World x of longitude `lon` (degrees).
  @inline(__always) package static func worldX(_ lon: Double) -> Double { lon / 360 + 0.5 }

  /// World y of latitude `lat` (degrees), the poles clamped to the world's edges.
  @inline(__always) package static func worldY(_ lat: Double) -> Double {
    let s = sin(lat * .pi / 180)
    let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
    return y < 0 ? 0 : (y > 1 ? 1 : y)
  }

  /// Points from longitude, latitude pairs.
  package static func points(_ lonLat: [Double]) -> GeoJSONShape {
    var c: [Double] = []
    c.reserveCapacity(lonLat.count / 2 * GeoJSONPart.stride)
    var i = 0
    while i + 1 < lonLat.count {
      c.append(worldX(lonLat[i])); c.append(worldY(lonLat[i + 1])); c.append(0); c.append(0)
      i += 2
    }
    return GeoJSONShape(kind: .point, parts: [GeoJSONPart(coords: c, size: 0, length: 0)])
  }

  /// Lines from longitude, latitude pairs, each simplified down to
  /// `sqTolerance` (world units squared) and measured.
  package static func lines(_ lines: [[Double]], sqTolerance: Double) -> GeoJSONShape {
    GeoJSONShape(kind: .lineString, parts: lines.map { part($0, ring: false, sqTolerance: sqTolerance) })
  }

  /// Polygons from rings of longitude, latitude pairs (exterior first; a
  /// ring need not repeat its first position), simplified down to `sqTolerance`.
  package static func polygons(_ polygons: [[[Double]]], sqTolerance: Double) -> GeoJSONShape {
    var parts: [GeoJSONPart] = []
    var ends: [Int32] = []
    for polygon in polygons {
      for ring in polygon { parts.append(part(ring, ring: true, sqTolerance: sqTolerance)) }
      ends.append(Int32(parts.count))
    }
    return GeoJSONShape(kind: .polygon, parts: parts, polygonEnds: ends)
  }

  /// One line or ring in world units: its vertices' distances along it, its
  /// size (a line's length, a ring's area) and its vertices' importance.
  private static func part(_ lonLat: [Double], ring: Bool, sqTolerance: Double) -> GeoJSONPart {
    let n = lonLat.count / 2
    var c: [Double] = []
    c.reserveCapacity((n + 1) * GeoJSONPart.stride)
    var distance = 0.0, area = 0.0
    var px = 0.0, py = 0.0
    for i in 0..<n {
      let x = worldX(lonLat[2 * i]), y = worldY(lonLat[2 * i + 1])
      if i > 0 {
        distance += ((x - px) * (x - px) + (y - py) * (y - py)).squareRoot()
        area += px * y - x * py
      }
      c.append(x); c.append(y); c.append(0); c.append(distance)
      px = x; py = y
    }
    if ring, n > 0, c[0] != px || c[1] != py {
      let x = c[0], y = c[1]
      distance += ((x - px) * (x - px) + (y - py) * (y - py)).squareRoot()
      area += px * y - x * py
      c.append(x); c.append(y); c.append(0); c.append(distance)
    }
    let count = c.count / GeoJSONPart.stride
    if count > 0 {
      c[2] = 1
      c[(count - 1) * GeoJSONPart.stride + 2] = 1
      if count > 2 {
        c.withUnsafeMutableBufferPointer { GeoJSONSimplify.markImportance($0, first: 0, last: count - 1, sqTolerance: sqTolerance) }
      }
    }
    return GeoJSONPart(coords: c, size: ring ? abs(area / 2) : distance, length: distance)
  }
}

/// One line, ring or set of points of a `GeoJSONShape`.
package struct GeoJSONPart: Sendable {
  /// Values per vertex in `coords`: x, y, importance, distance.
  package static let stride = 4
  /// x, y (world units), importance (squared world units; 1 for vertices
  /// always kept), distance along the line from its first vertex (world units).
  package var coords: [Double]
  /// A line's length or a ring's area (world units): parts smaller than the
  /// tile's tolerance are dropped, as geojson-vt drops them.
  package var size: Double
  /// The whole line's length before any clipping: a vertex's line-progress
  /// is its distance over this.
  package var length: Double

  package var vertexCount: Int { coords.count / Self.stride }
}
