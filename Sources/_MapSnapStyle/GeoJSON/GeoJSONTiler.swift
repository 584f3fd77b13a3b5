/// Makes the geometry of one tile from world shapes as geojson-vt makes
/// it for MapLibre: cut to the tile and its buffer, simplified at the
/// tile's tolerance (vertices whose importance is not above it dropped,
/// lines shorter than it and rings of less area than its square dropped),
/// and rounded to the tile's integer grid of `extent` units.
enum GeoJSONTiler {
  /// The tile's width in units: MapLibre's for GeoJSON tiles.
  static let extent = 8192.0

  /// `v` rounded to the tile's grid, halves upward as MapLibre rounds them.
  @inline(__always) static func grid(_ v: Double) -> Int32 { Int32((v + 0.5).rounded(.down)) }

  /// `shape`'s copy `offset` worlds to the east (−1, 0, 1) in tile `x`, `y`
  /// of zoom `z` (`n = 2^z` tiles across), with `buffer` (world units) around
  /// the tile; `tolerance` in world units (0: keep every vertex). Nil when
  /// nothing is left.
  static func tile(
    _ shape: GeoJSONShape, z: Int, x: Int, y: Int, offset: Double, buffer: Double, tolerance: Double, lineMetrics: Bool
  ) -> (TileGeometry, [Float])? {
    let n = Double(1 << z)
    let x0 = Double(x) / n - buffer - offset, x1 = Double(x + 1) / n + buffer - offset
    let y0 = Double(y) / n - buffer, y1 = Double(y + 1) / n + buffer
    guard let cx = GeoJSONClip.clip(shape, x0, x1, axis: 0), let cut = GeoJSONClip.clip(cx, y0, y1, axis: 1) else { return nil }
    let sqTolerance = tolerance * tolerance
    var g = TileGeometry()
    g.kind = shape.kind
    var progress: [Float] = []
    let s = GeoJSONPart.stride
    let ox = Double(x) - offset * n, oy = Double(y)
    @inline(__always) func point(_ c: [Double], _ i: Int) -> TilePoint {
      TilePoint(x: grid(extent * (c[i * s] * n - ox)), y: grid(extent * (c[i * s + 1] * n - oy)))
    }
    switch shape.kind {
    case .point:
      for p in cut.parts {
        for i in 0..<p.vertexCount {
          g.points.append(point(p.coords, i))
          g.partEnds.append(Int32(g.points.count))
        }
      }
    case .lineString:
      for p in cut.parts {
        if tolerance > 0 && p.size < tolerance { continue }
        let start = g.points.count
        for i in 0..<p.vertexCount where tolerance == 0 || p.coords[i * s + 2] > sqTolerance {
          g.points.append(point(p.coords, i))
          if lineMetrics { progress.append(p.length > 0 ? Float(p.coords[i * s + 3] / p.length) : 0) }
        }
        if g.points.count - start < 2 {
          g.points.removeSubrange(start...)
          if lineMetrics { progress.removeSubrange(start...) }
          continue
        }
        g.partEnds.append(Int32(g.points.count))
      }
    case .polygon:
      var start = 0
      for end in cut.polygonEnds {
        let firstPart = g.partEnds.count
        for r in start..<Int(end) {
          let p = cut.parts[r]
          if tolerance > 0 && p.size < sqTolerance {
            if r == start { break }
            continue
          }
          let from = g.points.count
          for i in 0..<p.vertexCount where tolerance == 0 || p.coords[i * s + 2] > sqTolerance {
            g.points.append(point(p.coords, i))
          }
          if g.points.count - from < 4 {
            g.points.removeSubrange(from...)
            if r == start { break }
            continue
          }
          g.partEnds.append(Int32(g.points.count))
        }
        if g.partEnds.count > firstPart { g.polygonEnds.append(Int32(g.partEnds.count)) }
        start = Int(end)
      }
    default:
      return nil
    }
    guard !g.partEnds.isEmpty else { return nil }
    return (g, progress)
  }
}
