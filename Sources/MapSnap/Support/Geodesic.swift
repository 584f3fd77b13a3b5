#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Distances on the WGS84 ellipsoid: what a scale bar calls true length.
enum Geodesic {
  /// WGS84's semi-major axis (metres) and flattening.
  static let a = 6_378_137.0
  static let f = 1 / 298.257_223_563
  /// Iterations of Vincenty's inverse before it is taken as not converging
  /// (nearly antipodal points); 200 is far more than the 3 to 6 it takes.
  static let maximumIterations = 200

  /// The length in metres of the shortest path on the ellipsoid between two
  /// points in degrees: Vincenty's inverse formula (1975), to well under a
  /// millimetre; nil for nearly antipodal points, where it does not converge.
  static func distance(_ p: (lon: Double, lat: Double), _ q: (lon: Double, lat: Double)) -> Double? {
    let b = a * (1 - f)
    let rad = Double.pi / 180
    let l = (q.lon - p.lon) * rad
    let u1 = atan((1 - f) * tan(p.lat * rad))
    let u2 = atan((1 - f) * tan(q.lat * rad))
    let (sinU1, cosU1, sinU2, cosU2) = (sin(u1), cos(u1), sin(u2), cos(u2))
    var lambda = l
    for _ in 0..<maximumIterations {
      let (sinL, cosL) = (sin(lambda), cos(lambda))
      let sinSigma = ((cosU2 * sinL) * (cosU2 * sinL) + (cosU1 * sinU2 - sinU1 * cosU2 * cosL) * (cosU1 * sinU2 - sinU1 * cosU2 * cosL)).squareRoot()
      if sinSigma == 0 { return 0 }
      let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL
      let sigma = atan2(sinSigma, cosSigma)
      let sinAlpha = cosU1 * cosU2 * sinL / sinSigma
      let cos2Alpha = 1 - sinAlpha * sinAlpha
      // On the equator cos²α is 0 and the term vanishes.
      let cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
      let c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
      let previous = lambda
      lambda = l + (1 - c) * f * sinAlpha * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
      if abs(lambda - previous) < 1e-12 {
        let uSquared = cos2Alpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma =
          bigB * sinSigma
          * (cos2SigmaM + bigB / 4
            * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma)
              * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * bigA * (sigma - deltaSigma)
      }
    }
    return nil
  }
}
