/// Something drawn on top of a shared scene for one frame, as static map
/// APIs add markers and paths to a base map: a marker at a coordinate, one
/// feature of a layer highlighted, or GeoJSON in a style. A batch line's
/// `overlays` and the command line's `--marker`, `--highlight` and
/// `--geojson` give the same overlays (the command-line forms are read as
/// the JSON ones, see `OverlayDecoder`).
///
/// Each overlay becomes one features layer above every layer of the scene,
/// in order, with the id `@overlay-N` (N from 1): always visible at every
/// scale, reported like any layer.
public struct Overlay: Sendable {
  /// What the overlay draws.
  public enum Target: Sendable {
    /// A point in degrees, or in `crs` (a `viewCrs`: "map" or a reference
    /// PROJ knows), with an optional label beside the marker.
    case marker(lon: Double, lat: Double, label: String?, crs: String? = nil)
    /// Every feature of a features or graphics layer whose id (the layer's
    /// `idField`, else the GeoJSON `id`) is `id`.
    case highlight(layer: String, id: FeatureID)
    /// GeoJSON: a file, or inline data.
    case geojson(Source)
  }

  /// What it draws.
  public var target: Target
  /// The style it is drawn in (`OverlayDecoder` fills in the defaults).
  public var style: Style
  /// What identifies this overlay in the frame's `InputDigest`: its target
  /// and style as decoded, independent of how they were written.
  var digestKey: String

  /// A style as `digestKey` records it: every value, but an icon only as
  /// "an icon" (its bytes are in the digest as `ResolvedInputs.iconDigests`), so
  /// two spellings of one path give one key.
  static func key(of style: Style) -> String {
    var s = style
    if s.marker?.icon != nil {
      s.marker?.icon = "icon"
      s.marker?.iconName = nil
    }
    return String(describing: s)
  }

  /// The colour overlays are drawn in unless told otherwise: a saturated
  /// crimson that stands out on both light and dark basemaps.
  public static let defaultColor = Color(r: 0xE0, g: 0x1E, b: 0x5A)
  static let defaultColorName = "#e01e5a"
  /// The alpha of a highlight's or GeoJSON overlay's fill: a quarter, so
  /// the map beneath stays readable.
  static let fillAlpha: UInt8 = 64

  /// The style of a highlight or GeoJSON overlay in `color`: a `width`-px
  /// stroke, a translucent fill, and a circle marker with a white outline
  /// for points.
  static func shapeStyle(color: Color, width: Double) -> Style {
    var s = Style()
    s.stroke = color
    s.strokeWidth = width
    s.lineJoin = .round
    s.lineCap = .round
    s.fill = Color(r: color.r, g: color.g, b: color.b, a: fillAlpha)
    var m = MarkerStyle()
    m.shape = .circle
    m.size = 12
    m.fill = color
    m.stroke = Color(r: 255, g: 255, b: 255)
    m.strokeWidth = 2
    s.marker = m
    return s
  }

  /// A marker overlay's style: a pin of `size` (14 px wide by default) in
  /// `color` with a white outline; a label above the marker's top, in dark
  /// text with a white halo, never hidden by collisions.
  static func markerStyle(_ marker: MarkerStyle, label: Bool) -> Style {
    var s = Style()
    s.marker = marker
    if label {
      var l = LabelStyle(field: "label")
      l.size = 12
      l.halo = Halo(color: Color(r: 255, g: 255, b: 255), width: 2)
      l.anchors = [.bottom]
      // The pin's head top is 1.5 × size above its tip; other shapes reach
      // size / 2 above their centre (`SymbolReach.marker`). Two pixels gap.
      let top = marker.shape == .pin && marker.icon == nil ? 1.5 * marker.size : marker.size / 2
      l.offset = (marker.offset.0, marker.offset.1 - top - 2)
      l.allowOverlap = true
      l.priority = 1e9
      s.label = l
    }
    return s
  }
}

extension Scene {
  /// The scene with `overlays` appended as layers `@overlay-1`, … above its
  /// own, and its `contentDigest` extended by them. A highlight copies the
  /// named feature(s), read through `sources`, into an inline layer.
  /// - Throws: `SceneError` at `overlays[i]` when a highlight names a layer
  ///   that is not a features or graphics layer, a source that cannot be
  ///   read, or an id no feature has.
  /// A marker in the map's own units ("map") takes the map's reference
  /// (`MapResolver.projection`, the first layer's tiles read through `tiles`).
  public func adding(_ overlays: [Overlay], sources: SourceLoader, tiles: TileCache = TileCache()) throws(SceneError) -> Scene {
    guard !overlays.isEmpty else { return self }
    var scene = self
    var sha = SHA256()
    sha.update(contentDigest)
    for (i, o) in overlays.enumerated() {
      sha.update("\noverlay \(o.digestKey)")
      let source: Source
      switch o.target {
      case .marker(let lon, let lat, let label, let crs):
        var g = Geometry()
        g.points = [Point(lon, lat)]
        g.bounds.include(Point(lon, lat))
        var properties = JSONObject()
        if let label { properties["label"] = .string(label) }
        var c = FeatureCollection()
        let f = Feature(id: nil, properties: properties, geometry: g, index: 0)
        c.features = [f]
        if let crs, !ViewParameter.isDegrees(viewCrs: crs) {
          let map = crs == ViewParameter.mapUnits ? try MapResolver.projection(for: self, tiles: tiles) : nil
          if let map, !map.usesPROJ {
            // Web Mercator or degrees: back to degrees here, without PROJ.
            let d = map.unproject(Point(lon, lat))
            c.features[0].geometry.points = [Point(d.lon, d.lat)]
            c.features[0].geometry.bounds = Rect(minX: d.lon, minY: d.lat, maxX: d.lon, maxY: d.lat)
            source = .inline(c)
          } else {
            source = .reprojected(.inline(c), crs: map?.identifier ?? crs)
          }
        } else {
          source = .inline(c)
        }
      case .highlight(let layer, let id):
        var c = FeatureCollection()
        c.features = try FeatureLookup.features(layer, id, in: self, projection: nil, sources: sources, path: "overlays[\(i)].highlight")
        source = .inline(c)
      case .geojson(let s):
        source = s
      }
      var layer = Layer(id: "@overlay-\(i + 1)", kind: .features, content: .features(source: source, styling: .single(o.style)))
      layer.attribution = nil
      scene.layers.append(layer)
    }
    scene.contentDigest = sha.hexDigest()
    return scene
  }
}
