internal import _MapSnapRaster

/// The key of a feature without an id (`FeatureKey`'s rule): the first 12
/// hex digits (48 bits) of SHA-256 over a canonical encoding of its
/// geometry and of the properties its layer uses, so that the same data
/// gives the same key from any format (GeoJSON, GeoPackage, Shapefile, …),
/// in any order, on any map.
///
/// The encoding: the geometry's points, lines and polygons (rings), each
/// list preceded by its length, each position in WGS84 degrees (taken back
/// from the map's units) rounded to 1e-7° (about 1 cm), as two 64-bit
/// integers; then each property the layer uses, by name in code-point
/// order, that has a value other than null (a missing field and a null one
/// are alike: a fixed schema has every field): its name, a kind byte and
/// its value (a string's UTF-8, a number's IEEE bits with -0 as 0, a
/// boolean's byte, anything else as compact JSON), each length-prefixed.
/// Only the used properties take part: an `ogr` read makes no others.
enum FeatureKeyDigest {
  static let hexDigits = 12

  /// The digest key of `feature` (in `projection`'s map units) over `fields`
  /// (sorted, each once).
  static func key(_ feature: Feature, projection: MapProjection, fields: [String]) -> String {
    var out: [UInt8] = []
    let g = feature.geometry
    out.reserveCapacity(64 + g.pointCount * 16)
    func int(_ n: Int) { withUnsafeBytes(of: Int64(n).littleEndian) { out.append(contentsOf: $0) } }
    // Degrees to 1e-7; a coordinate too large for that (GeoJSON allows any
    // finite magnitude) is taken by its bits, marked so that the two never meet.
    func degrees(_ x: Double) {
      let v = (x * 1e7).rounded()
      if let n = Int64(exactly: v), n != .min {
        int(Int(n))
      } else {
        int(Int(Int64.min))
        int(Int(Int64(bitPattern: x.bitPattern)))
      }
    }
    func position(_ p: Point) {
      let d = projection.unproject(p)
      degrees(d.lon)
      degrees(d.lat)
    }
    func positions(_ list: [Point]) {
      int(list.count)
      guard projection.usesPROJ else {
        for p in list { position(p) }
        return
      }
      // Through PROJ: the whole part in one call.
      var d = list
      d.withUnsafeMutableBufferPointer { projection.unproject($0) }
      for p in d {
        degrees(p.x)
        degrees(p.y)
      }
    }
    positions(g.points)
    int(g.lines.count)
    for l in g.lines { positions(l) }
    int(g.polygons.count)
    for polygon in g.polygons {
      int(polygon.count)
      for ring in polygon { positions(ring) }
    }
    func bytes(_ b: [UInt8]) {
      int(b.count)
      out += b
    }
    for name in fields {
      guard let value = feature.properties[name], value != .null else { continue }
      bytes(Array(name.utf8))
      switch value {
      case .string(let s):
        out.append(1)
        bytes(Array(s.utf8))
      case .number(let n):
        out.append(2)
        withUnsafeBytes(of: (n == 0 ? 0 : n).bitPattern.littleEndian) { out.append(contentsOf: $0) }
      case .bool(let b):
        out.append(3)
        out.append(b ? 1 : 0)
      default:
        out.append(4)
        bytes(JSONWriter(compact: true).writeBytes(value))
      }
    }
    return String(SHA256.hex(of: out).prefix(hexDigits))
  }
}
