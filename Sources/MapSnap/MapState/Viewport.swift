#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The map frame: where it is, at what scale, and how map metres become
/// device pixels.
///
/// One logical pixel spans `scale / (dpi × 39.37)` Web Mercator metres, with no
/// latitude correction (the ArcGIS tiling-scheme convention). The image has
/// `round(width × pixelRatio) × round(height × pixelRatio)` device pixels and
/// the centre maps to the middle of the image.
public struct Viewport: Sendable, Hashable {
  /// Inches per metre as ArcGIS computes scale.
  public static let inchesPerMeter = 39.37
  /// The scales mapsnap accepts: from 1:0.000001 to 1:10^12. Far beyond what
  /// a map shows (zoom 30 is about 1:0.55, the whole world on one 256-px tile
  /// 1:591657528), and small enough that every derived value (zoom, metres
  /// and pixels per metre, pixel positions) stays finite.
  public static let scaleRange: ClosedRange<Double> = 1e-6...1e12
  /// Scale of zoom level 0 in the 256-px ArcGIS/Google tiling scheme at 96 DPI.
  public static let zoom0Scale = 591_657_527.591555

  public let center: (lon: Double, lat: Double)
  public let centerMeters: Point
  public let scale: Double
  public let dpi: Double
  /// Logical size.
  public let width: Int
  public let height: Int
  public let pixelRatio: Double
  /// Device size.
  public let deviceWidth: Int
  public let deviceHeight: Int
  /// Metres per logical pixel.
  public let metersPerPixel: Double

  public init(center: (lon: Double, lat: Double), scale: Double, width: Int, height: Int, pixelRatio: Double = 1, dpi: Double = 96) {
    self.center = center
    self.centerMeters = WebMercator.project(lon: center.lon, lat: center.lat)
    self.scale = scale
    self.dpi = dpi
    self.width = width
    self.height = height
    self.pixelRatio = pixelRatio
    self.deviceWidth = max(1, Int((Double(width) * pixelRatio).rounded()))
    self.deviceHeight = max(1, Int((Double(height) * pixelRatio).rounded()))
    self.metersPerPixel = scale / (dpi * Viewport.inchesPerMeter)
  }

  /// The scale for a 256-px zoom level: `591657527.591555 / 2^zoom`.
  public static func scale(forZoom zoom: Double) -> Double { zoom0Scale / pow(2, zoom) }

  /// The 256-px zoom level of this scale at 96 DPI.
  public var zoom: Double { log2(Viewport.zoom0Scale / scale) }

  /// Device pixels per metre.
  public var pixelsPerMeter: Double { pixelRatio / metersPerPixel }

  /// The frame in Mercator metres, `[xmin, ymin, xmax, ymax]`: the device image
  /// mapped back to the map.
  public var extent: Rect {
    let halfW = Double(deviceWidth) / 2 / pixelsPerMeter
    let halfH = Double(deviceHeight) / 2 / pixelsPerMeter
    return Rect(minX: centerMeters.x - halfW, minY: centerMeters.y - halfH, maxX: centerMeters.x + halfW, maxY: centerMeters.y + halfH)
  }

  /// The frame in WGS84 degrees: west, south, east, north.
  public var bounds: (west: Double, south: Double, east: Double, north: Double) {
    let e = extent
    let sw = WebMercator.unproject(Point(e.minX, e.minY))
    let ne = WebMercator.unproject(Point(e.maxX, e.maxY))
    return (sw.lon, sw.lat, ne.lon, ne.lat)
  }

  /// Mercator metres to device pixels (y down).
  @inline(__always)
  public func toDevice(_ p: Point) -> Point {
    let k = pixelsPerMeter
    return Point((p.x - centerMeters.x) * k + Double(deviceWidth) / 2, (centerMeters.y - p.y) * k + Double(deviceHeight) / 2)
  }

  public static func == (a: Viewport, b: Viewport) -> Bool {
    a.center == b.center && a.scale == b.scale && a.width == b.width && a.height == b.height && a.pixelRatio == b.pixelRatio && a.dpi == b.dpi
  }

  public func hash(into h: inout Hasher) {
    h.combine(scale)
    h.combine(width)
    h.combine(height)
  }
}
