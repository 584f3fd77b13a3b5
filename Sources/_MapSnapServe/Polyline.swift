/// Google's encoded polyline format, as the Mapbox Static API's `path`
/// overlay takes it: each coordinate as the difference from the previous
/// one, times 10^precision, zig-zag signed, in 5-bit groups from the least
/// significant, each group + 63 as one character, every group but a
/// number's last with 0x20 set. Latitude comes before longitude.
public enum Polyline {
  /// The points of `text` as (lon, lat), nil when the text is not a
  /// polyline (a character outside 63…126, a number cut short, a latitude
  /// or longitude out of range).
  public static func decode(_ text: String, precision: Int = 5) -> [(lon: Double, lat: Double)]? {
    let factor = pow10(precision)
    var points: [(lon: Double, lat: Double)] = []
    var lat = 0, lon = 0
    let bytes = Array(text.utf8)
    var i = 0
    // The next number, nil when malformed or cut short.
    func number() -> Int? {
      var result = 0, shift = 0
      while i < bytes.count {
        let c = bytes[i]
        i += 1
        guard c >= 63, c <= 126, shift <= 30 else { return nil }
        let b = Int(c) - 63
        result |= (b & 0x1F) << shift
        shift += 5
        if b < 0x20 { return (result & 1) != 0 ? ~(result >> 1) : result >> 1 }
      }
      return nil
    }
    while i < bytes.count {
      guard let dlat = number(), let dlon = number() else { return nil }
      lat += dlat
      lon += dlon
      let p = (lon: Double(lon) / factor, lat: Double(lat) / factor)
      guard abs(p.lon) <= 180, abs(p.lat) <= 90 else { return nil }
      points.append(p)
    }
    return points
  }

  /// `points` encoded (the inverse of `decode`, for tests and the preview page's examples).
  public static func encode(_ points: [(lon: Double, lat: Double)], precision: Int = 5) -> String {
    let factor = pow10(precision)
    var out: [UInt8] = []
    var plat = 0, plon = 0
    func put(_ v: Int) {
      var z = v < 0 ? ~(v << 1) : v << 1
      while z >= 0x20 {
        out.append(UInt8((0x20 | (z & 0x1F)) + 63))
        z >>= 5
      }
      out.append(UInt8(z + 63))
    }
    for p in points {
      let lat = Int((p.lat * factor).rounded()), lon = Int((p.lon * factor).rounded())
      put(lat - plat)
      put(lon - plon)
      (plat, plon) = (lat, lon)
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func pow10(_ n: Int) -> Double {
    var f = 1.0
    for _ in 0..<max(0, min(n, 9)) { f *= 10 }
    return f
  }
}
