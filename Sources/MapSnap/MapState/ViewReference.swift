/// The reference a view's coordinates are given in (`viewCrs`, scene format
/// 1.2): `center`, `bounds` and markers in WGS84 degrees by default, in the
/// map's own units with "map", or in any reference PROJ knows; each reader
/// (the scene's map block, a manifest line, the command line) names its own.
enum ViewReference {
  /// `p` (x, y in `crs`; nil: degrees) as WGS84 longitude and latitude.
  /// - Throws: `SceneError` at `path`'s `viewCrs` when PROJ does not know
  ///   `crs`, or at `path` when the point has no WGS84 position.
  static func degrees(
    _ p: (lon: Double, lat: Double), in crs: String?, map: MapProjection, scene: Scene, path: String
  ) throws(SceneError) -> (lon: Double, lat: Double) {
    guard let crs, !ViewParameter.isDegrees(viewCrs: crs) else { return p }
    let from = try reference(crs, map: map, scene: scene, path: path)
    let d = from.unproject(Point(p.lon, p.lat))
    guard d.lon.isFinite, d.lat.isFinite, abs(d.lat) <= 90, abs(d.lon) <= 540 else {
      throw SceneError(
        file: scene.file, path: path, kind: .invalidValue, expected: "a position that \(from.identifier) can place on the Earth",
        found: "\(format(p.lon)), \(format(p.lat))")
    }
    return (d.lon, d.lat)
  }

  /// The box `b` (in `crs`; nil: degrees) in map units: the box itself when
  /// `crs` is the map's reference; a box of degrees on a Web Mercator or
  /// geographic map, its two corners (the extremes there); else the extent
  /// of its edges, each cut into `edgeSamples` parts, re-projected.
  static func box(_ b: MapBounds, in crs: String?, map: MapProjection, scene: Scene, path: String) throws(SceneError) -> Rect {
    var r = Rect.empty
    let degrees = ViewParameter.isDegrees(viewCrs: crs)
    if degrees && !map.usesPROJ {
      r.include(map.project(lon: b.west, lat: b.south))
      r.include(map.project(lon: b.east, lat: b.north))
      return r
    }
    let from = degrees ? nil : try reference(crs!, map: map, scene: scene, path: path)
    if let from, from == map { return Rect(minX: b.west, minY: b.south, maxX: b.east, maxY: b.north) }
    // Through WGS84 degrees, every point in one call each way.
    let given = Rect(minX: b.west, minY: b.south, maxX: b.east, maxY: b.north).edgePoints(cuts: edgeSamples)
    var points = given
    points.withUnsafeMutableBufferPointer { p in
      from?.unproject(p)
      map.project(p)
    }
    for (q, m) in zip(given, points) {
      guard m.x.isFinite, m.y.isFinite else {
        let source = from?.identifier ?? "WGS84"
        throw SceneError(
          file: scene.file, path: path, kind: .invalidValue, expected: "a box that \(source) and the map's \(map.identifier) can both place",
          found: "\(format(q.x)), \(format(q.y)) has no position in \(map.identifier)")
      }
      r.include(m)
    }
    return r
  }

  /// Points per edge when a box is re-projected: enough that a box of a
  /// city or a country keeps its extent to well under a pixel.
  static let edgeSamples = 16

  /// The projection `crs` names ("map": the map's own).
  /// - Throws: `SceneError` at the `viewCrs` beside `path` when PROJ does not know it.
  static func reference(_ crs: String, map: MapProjection, scene: Scene, path: String) throws(SceneError) -> MapProjection {
    if crs == ViewParameter.mapUnits { return map }
    switch MapProjection.named(crs) {
    case .success(let p): return p
    case .failure(let e):
      let key = path.hasPrefix("map.") ? "map.viewCrs" : "viewCrs"
      throw SceneError(
        file: scene.file, path: key, kind: .invalidValue, expected: ViewParameter.viewCrs.expected(.json), found: "\(Echo.quoted(crs)) (\(e))")
    }
  }
}
