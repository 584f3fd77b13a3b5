#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The map frame: where it is, at what scale, in which spatial reference, and
/// how map units become device pixels.
///
/// One logical pixel spans `scale / (dpi × inches per unit)` map units, as
/// ArcGIS computes it (`MapProjection.inchesPerUnit`: 39.37 per metre, 12
/// per foot), with no latitude correction (the ArcGIS tiling-scheme
/// convention): Web Mercator metres on a 3857 map, that many metres along
/// the equator in degrees (÷ 111319.49 m per degree) on a geographic map,
/// metres or feet of any projected reference (scene format 1.1). The image has
/// `round(width × pixelRatio) × round(height × pixelRatio)` device pixels and
/// the centre maps to the middle of the image.
public struct Viewport: Sendable, Hashable {
  /// Inches per metre as ArcGIS computes scale.
  public static let inchesPerMeter = MapProjection.inchesPerMeter
  /// The scales mapsnap accepts: from 1:0.000001 to 1:10^12. Far beyond what
  /// a map shows (zoom 30 is about 1:0.55, the whole world on one 256-px tile
  /// 1:591657528), and small enough that every derived value (zoom, metres
  /// and pixels per metre, pixel positions) stays finite.
  public static let scaleRange: ClosedRange<Double> = 1e-6...1e12
  /// Scale of zoom level 0 in the 256-px ArcGIS/Google tiling scheme at 96 DPI.
  public static let zoom0Scale = MapProjection.webMercator.zoom0Scale!

  public let center: (lon: Double, lat: Double)
  /// The map's spatial reference.
  public let projection: MapProjection
  /// The centre in map units.
  public let centerMap: Point
  public let scale: Double
  public let dpi: Double
  /// Logical size.
  public let width: Int
  public let height: Int
  public let pixelRatio: Double
  /// Device size.
  public let deviceWidth: Int
  public let deviceHeight: Int
  /// How the view was fitted to a box, nil when it was not (not part of
  /// equality: it says how the frame was chosen, not what it is).
  public var fitting: ViewFitting? = nil
  /// Metres per logical pixel (along the equator on a geographic map).
  public let metersPerPixel: Double
  /// Map units (metres, feet or degrees) per logical pixel.
  public let unitsPerPixel: Double

  public init(
    center: (lon: Double, lat: Double), scale: Double, width: Int, height: Int, pixelRatio: Double = 1, dpi: Double = 96,
    projection: MapProjection = .webMercator
  ) {
    self.center = center
    self.projection = projection
    self.centerMap = projection.project(lon: center.lon, lat: center.lat)
    self.scale = scale
    self.dpi = dpi
    self.width = width
    self.height = height
    self.pixelRatio = pixelRatio
    self.deviceWidth = max(1, Int((Double(width) * pixelRatio).rounded()))
    self.deviceHeight = max(1, Int((Double(height) * pixelRatio).rounded()))
    (self.unitsPerPixel, self.metersPerPixel) = projection.resolution(scale: scale, dpi: dpi)
  }

  /// The scale for a zoom level of `projection`'s tile matrix set:
  /// `591657527.591555 / 2^zoom` (3857), `295828763.7957775 / 2^zoom`
  /// (geographic) or its basemap's (`MapProjection.zoom0Scale`); nil when
  /// the reference has no tile matrix set.
  public static func scale(forZoom zoom: Double, projection: MapProjection = .webMercator) -> Double? {
    projection.zoom0Scale.map { $0 / pow(2, zoom) }
  }

  /// The zoom level of this scale at 96 DPI in the map's tile matrix set;
  /// nil when its reference has none.
  public var zoom: Double? { projection.zoom0Scale.map { log2($0 / scale) } }

  /// Device pixels per map unit.
  public var pixelsPerUnit: Double { pixelRatio / unitsPerPixel }

  /// The frame in map units, `[xmin, ymin, xmax, ymax]`: the device image
  /// mapped back to the map.
  public var extent: Rect {
    let halfW = Double(deviceWidth) / 2 / pixelsPerUnit
    let halfH = Double(deviceHeight) / 2 / pixelsPerUnit
    return Rect(minX: centerMap.x - halfW, minY: centerMap.y - halfH, maxX: centerMap.x + halfW, maxY: centerMap.y + halfH)
  }

  /// The frame in WGS84 degrees: west, south, east, north (latitudes within
  /// ±90 on a 4326 map, whose frame may reach past the poles).
  public var bounds: (west: Double, south: Double, east: Double, north: Double) {
    let b = degrees(of: extent)
    return (b.west, max(b.south, -90), b.east, min(b.north, 90))
  }

  /// The degrees the map box `r` covers: its corners on a Web Mercator or
  /// geographic map (the extremes there); through PROJ, the extent of its
  /// edges, each cut into `ViewReference.edgeSamples` parts (a transverse
  /// Mercator's frame is not a box of degrees), leaving out points PROJ
  /// cannot place (all NaN when it can place none).
  func degrees(of r: Rect) -> (west: Double, south: Double, east: Double, north: Double) {
    guard projection.usesPROJ else {
      let sw = projection.unproject(Point(r.minX, r.minY))
      let ne = projection.unproject(Point(r.maxX, r.maxY))
      return (sw.lon, sw.lat, ne.lon, ne.lat)
    }
    var (west, south, east, north) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
    var points = r.edgePoints(cuts: ViewReference.edgeSamples)
    points.withUnsafeMutableBufferPointer { projection.unproject($0) }
    for d in points where d.x.isFinite && d.y.isFinite {
      (west, south, east, north) = (min(west, d.x), min(south, d.y), max(east, d.x), max(north, d.y))
    }
    return west <= east ? (west, south, east, north) : (.nan, .nan, .nan, .nan)
  }

  /// Map units to device pixels (y down).
  @inline(__always)
  public func toDevice(_ p: Point) -> Point {
    let k = pixelsPerUnit
    return Point((p.x - centerMap.x) * k + Double(deviceWidth) / 2, (centerMap.y - p.y) * k + Double(deviceHeight) / 2)
  }

  public static func == (a: Viewport, b: Viewport) -> Bool {
    a.center == b.center && a.scale == b.scale && a.width == b.width && a.height == b.height && a.pixelRatio == b.pixelRatio && a.dpi == b.dpi
      && a.projection == b.projection
  }

  public func hash(into h: inout Hasher) {
    h.combine(scale)
    h.combine(width)
    h.combine(height)
  }
}
