extension SceneDecoder {
  /// The map block (scene format section 1): the view's parameters by
  /// `ViewParameter`'s rules (`ViewDecoder`), and what only a scene's map
  /// has (dpi, background, attribution).
  func decodeMap(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> MapSettings {
    let r = try ObjectReader(
      value, at: path, file: file, what: "the map block",
      allowed: [
        "center", "scale", "zoom", "size", "pixelRatio", "dpi", "background", "floor", "attribution", "spatialReference", "bounds",
        "padding", "viewCrs", "scaleBar", "northArrow",
      ])
    let view = ViewDecoder(r)
    let viewCrs = try view.viewCrs()
    let bounds = try view.bounds(viewCrs: viewCrs)
    // With `bounds` the centre comes from the box: `center` may be left out.
    guard
      let c = try view.center(viewCrs: viewCrs)
        ?? bounds.map({ (($0.west + $0.east) / 2, ($0.south + $0.north) / 2) })
    else { throw r.missing("center", "[lon, lat] in degrees (or \"bounds\" to fit)") }
    let (scale, zoom) = try view.scaleAndZoom()
    guard let size = try view.size() else { throw r.missing("size", "[width, height] in logical pixels") }
    var m = MapSettings(center: (c.0, c.1), scale: scale, zoom: zoom, size: size)
    m.pixelRatio = try view.pixelRatio() ?? 1
    m.dpi = try r.number("dpi", "dots per inch > 0 and at most \(format(Self.maxDPI))") { $0 > 0 && $0 <= Self.maxDPI } ?? 96
    m.background = try r.color("background") ?? .white
    m.floor = try view.floor()
    m.spatialReference = try view.spatialReference()
    m.bounds = bounds
    m.viewCrs = viewCrs
    m.scaleBar = try decodeScaleBar(r)
    m.northArrow = try decodeNorthArrow(r)
    m.padding = try view.padding() ?? .zero
    switch r.object["attribution"] {
    case nil, .bool(false)?: m.attribution = .none
    case .bool(true)?: m.attribution = .fromLayers
    case .string(let s)? where !s.unicodeScalars.allSatisfy(\.properties.isWhitespace): m.attribution = .text(s)
    case let other?:
      throw r.invalid("attribution", expected: "true, false, or the text to draw", found: other)
    }
    return m
  }
}
