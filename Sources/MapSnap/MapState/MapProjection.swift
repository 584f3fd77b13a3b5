#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The map's spatial reference (scene format 1.1) and how WGS84 longitude
/// and latitude become its map units.
public enum MapProjection: Int, Sendable, Hashable, CaseIterable {
  /// EPSG:3857, Web Mercator: metres on the sphere of radius 6378137;
  /// latitudes clamped to ±85.05112878°.
  case webMercator = 3857
  /// EPSG:4326, plate carrée: x is longitude and y latitude, in degrees.
  case geographic = 4326

  /// The EPSG code.
  public var code: Int { rawValue }

  /// Metres along the equator per map unit: 1 for Web Mercator,
  /// 2π · 6378137 / 360 = 111319.49 for degrees. Scale counts these metres.
  public var metersPerUnit: Double {
    switch self {
    case .webMercator: return 1
    case .geographic: return 2 * Double.pi * WebMercator.radius / 360
    }
  }

  /// The scale of zoom level 0 at 96 DPI: one 256-px tile spanning the world
  /// (Web Mercator), or one of the two 256-px tiles spanning 180° each
  /// (WorldCRS84Quad). Zoom does not depend on `dpi`.
  public var zoom0Scale: Double {
    switch self {
    case .webMercator: return 591_657_527.591555
    case .geographic: return 295_828_763.795_777_5
    }
  }

  /// WGS84 degrees to map units.
  @inline(__always)
  public func project(lon: Double, lat: Double) -> Point {
    switch self {
    case .webMercator: return WebMercator.project(lon: lon, lat: lat)
    case .geographic: return Point(lon, lat)
    }
  }

  /// Map units to WGS84 degrees.
  public func unproject(_ p: Point) -> (lon: Double, lat: Double) {
    switch self {
    case .webMercator: return WebMercator.unproject(p)
    case .geographic: return (p.x, p.y)
    }
  }
}
