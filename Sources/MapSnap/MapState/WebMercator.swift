#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Web Mercator (EPSG:3857) on the sphere of radius 6378137 m.
package enum WebMercator {
  package static let radius = 6_378_137.0
  /// Latitudes are clamped to ±this before projecting, so the poles stay finite.
  package static let maxLatitude = 85.051_128_779_806_59
  /// Half the width of the projected world in metres.
  package static let halfWorld = Double.pi * radius

  /// Projects WGS84 degrees to metres (x east, y north), clamping the latitude.
  @inline(__always)
  package static func project(lon: Double, lat: Double) -> Point {
    let clamped = min(max(lat, -maxLatitude), maxLatitude)
    let x = radius * lon * .pi / 180
    let y = radius * log(tan(.pi / 4 + clamped * .pi / 360))
    return Point(x, y)
  }

  /// The inverse of `project`.
  package static func unproject(_ p: Point) -> (lon: Double, lat: Double) {
    let lon = p.x / radius * 180 / .pi
    let lat = (2 * atan(exp(p.y / radius)) - .pi / 2) * 180 / .pi
    return (lon, lat)
  }
}
