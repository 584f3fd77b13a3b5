/// The tile matrix sets of the OGC registry (OGC 17-083r4, annex D) that
/// mapsnap knows by name; any other set comes as a JSON file.
extension TileMatrixSet {
  /// The registry names, for messages.
  static let registryNames = ["WebMercatorQuad", "WorldCRS84Quad", "WorldMercatorWGS84Quad", "EuropeanETRS89_LAEAQuad", "UTM01WGS84Quad … UTM60WGS84Quad"]

  /// The registry's set named `name` (case-insensitive), nil when the
  /// registry has no such set.
  static func registered(_ name: String) -> TileMatrixSet? {
    switch name.lowercased() {
    case "webmercatorquad": return webMercatorQuad
    case "worldcrs84quad": return worldCRS84Quad
    case "worldmercatorwgs84quad": return worldMercatorWGS84Quad
    case "europeanetrs89_laeaquad": return europeanETRS89LAEAQuad
    default: break
    }
    // UTMnnWGS84Quad: the northern zone nn (01 … 60).
    let lower = name.lowercased()
    guard lower.hasPrefix("utm"), lower.hasSuffix("wgs84quad") else { return nil }
    let digits = lower.dropFirst(3).dropLast(9)
    guard digits.count == 2, let zone = Int(digits), (1...60).contains(zone) else { return nil }
    return utmQuad(zone: zone)
  }

  /// EPSG:3395, World Mercator on the WGS84 ellipsoid: one tile at level 0
  /// spanning ±20037508.3427892 m; levels 0 … 24.
  static let worldMercatorWGS84Quad = quad(
    id: "WorldMercatorWGS84Quad", crs: "EPSG:3395", origin: Point(-20_037_508.342_789_2, 20_037_508.342_789_2),
    tileSpan: 40_075_016.685_578_4, columns: 1, rows: 1, levels: 0...24)

  /// EPSG:3035, ETRS89 Lambert azimuthal equal-area: one tile at level 0 of
  /// 4500 km (17578.125 m per pixel) from easting 2000000, northing 5500000;
  /// levels 0 … 15.
  static let europeanETRS89LAEAQuad = quad(
    id: "EuropeanETRS89_LAEAQuad", crs: "EPSG:3035", origin: Point(2_000_000, 5_500_000), tileSpan: 4_500_000, columns: 1, rows: 1,
    levels: 0...15)

  /// EPSG:326nn, UTM zone nn north on WGS84: at level 1, one column and two
  /// rows of 20003931.4586255 m from easting −9501965.72931276, northing
  /// 20003931.4586255; levels 1 … 24.
  static func utmQuad(zone: Int) -> TileMatrixSet {
    let nn = zone < 10 ? "0\(zone)" : "\(zone)"
    return quad(
      id: "UTM\(nn)WGS84Quad", crs: "EPSG:326\(nn)", origin: Point(-9_501_965.729_312_76, 20_003_931.458_625_5),
      tileSpan: 20_003_931.458_625_5, columns: 1, rows: 2, levels: 1...24)
  }
}
