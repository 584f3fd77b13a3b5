/// Reads the view parameters of a JSON object, the scene's map block or a
/// manifest line, by `ViewParameter`'s rules: each value absent (nil) or
/// valid, else a `SceneError` at its key with the parameter's words.
struct ViewDecoder {
  let r: ObjectReader

  init(_ r: ObjectReader) { self.r = r }

  /// `center`: [lon, lat] in degrees (an error names the element out of
  /// range: `ObjectReader.lonLat`), or [x, y] in `viewCrs`'s units.
  func center(viewCrs: String? = nil) throws(SceneError) -> (lon: Double, lat: Double)? {
    guard !ViewParameter.isDegrees(viewCrs: viewCrs) else { return try r.lonLat(ViewParameter.center.key) }
    let p = ViewParameter.center
    return try r.numbers(p.key, count: 2, p.expectedInMapUnits(.json), where: { abs($0) <= ViewParameter.maximumCoordinate })
      .flatMap(ViewParameter.centerInMapUnits)
  }

  /// `viewCrs`: the reference of `center`, `bounds` and markers.
  func viewCrs() throws(SceneError) -> String? {
    let p = ViewParameter.viewCrs
    guard let v = r.object[p.key] else { return nil }
    guard let crs = ViewParameter.viewCrs(v) else { throw r.invalid(p.key, expected: p.expected(.json), found: v) }
    return crs
  }

  /// `scale` and `zoom`, at most one of them.
  func scaleAndZoom() throws(SceneError) -> (scale: Double?, zoom: Double?) {
    let scale = try r.number(ViewParameter.scale.key, ViewParameter.scale.expected(.json), where: ViewParameter.isScale)
    let zoom = try r.number(ViewParameter.zoom.key, ViewParameter.zoom.expected(.json), where: ViewParameter.isZoom)
    if scale != nil && zoom != nil { throw r.conflict(ViewParameter.scale.key, ViewParameter.zoom.key) }
    return (scale, zoom)
  }

  /// `size`: [width, height] in whole logical pixels.
  func size() throws(SceneError) -> (width: Int, height: Int)? {
    let p = ViewParameter.size
    return try r.numbers(p.key, count: 2, p.expected(.json), where: ViewParameter.isSide).flatMap(ViewParameter.size)
  }

  /// `pixelRatio`: output pixels per logical pixel.
  func pixelRatio() throws(SceneError) -> Double? {
    try r.number(ViewParameter.pixelRatio.key, ViewParameter.pixelRatio.expected(.json), where: ViewParameter.isPixelRatio)
  }

  /// `bounds`: [west, south, east, north] in degrees, west ≤ east, south ≤
  /// north; or [xmin, ymin, xmax, ymax] in `viewCrs`'s units.
  func bounds(viewCrs: String? = nil) throws(SceneError) -> MapBounds? {
    let p = ViewParameter.bounds
    let degrees = ViewParameter.isDegrees(viewCrs: viewCrs)
    let expected = degrees ? p.expected(.json) : p.expectedInMapUnits(.json)
    guard let b = try r.numbers(p.key, count: 4, expected, where: { $0.isFinite }) else { return nil }
    switch degrees ? ViewParameter.bounds(b) : ViewParameter.boundsInMapUnits(b) {
    case .box(let box): return box
    case .outOfRange: throw r.invalid(p.key, expected: expected, found: r.object[p.key]!)
    case .wrongOrder: throw r.invalid(p.key, expected: ViewParameter.boundsOrder, found: r.object[p.key]!)
    }
  }

  /// `padding`: one number of logical pixels, or [top, right, bottom, left];
  /// nil when absent.
  func padding() throws(SceneError) -> Padding? {
    let p = ViewParameter.padding
    let expected = p.expected(.json)
    switch r.object[p.key] {
    case nil: return nil
    case .number(let n)?:
      guard let padding = ViewParameter.padding([n]) else { throw r.invalid(p.key, expected: expected, found: .number(n)) }
      return padding
    case .array(let a)? where a.count == 4:
      return ViewParameter.padding(try r.numbers(p.key, count: 4, expected) { $0 >= 0 && $0.isFinite }!)
    case let other?: throw r.invalid(p.key, expected: expected, found: other)
    }
  }

  /// `spatialReference`: the map's reference, by name.
  func spatialReference() throws(SceneError) -> String? {
    let p = ViewParameter.spatialReference
    guard let v = r.object[p.key] else { return nil }
    guard let projection = ViewParameter.spatialReference(v) else {
      throw r.invalid(p.key, expected: p.expected(.json), found: v)
    }
    return projection
  }

  /// `floor`: the floor shown, a string or a number.
  func floor() throws(SceneError) -> FloorValue? {
    try Self.floor(r, "floor")
  }

  /// A floor value at `key` (a map's, a graphic's or a view annotation's).
  static func floor(_ r: ObjectReader, _ key: String) throws(SceneError) -> FloorValue? {
    guard let f = r.object[key] else { return nil }
    guard let v = FloorValue(json: f) else { throw r.invalid(key, expected: "a floor as a string or number", found: f) }
    return v
  }
}
