#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The map's spatial reference (scene format 1.1) and how WGS84 longitude
/// and latitude become its map units, x east and y north whatever the
/// reference's declared axis order.
///
/// Web Mercator (EPSG:3857, and its aliases ESRI:102100, ESRI:102113,
/// EPSG:900913 and EPSG:3785) and WGS84 degrees (EPSG:4326, OGC:CRS84) are
/// computed here; any other projected or geographic reference goes through
/// PROJ (`CRSTransform`, opened on first use). A geographic reference is
/// drawn as plate carrée in its own degrees.
public struct MapProjection: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable {
    case webMercator
    case wgs84Degrees
    /// Through PROJ: WGS84 degrees to the reference and back.
    case proj(CRSTransform)
  }

  let kind: Kind
  /// `AUTHORITY:CODE`, "EPSG:3857" for every Web Mercator alias.
  public let identifier: String
  /// The reference's name ("WGS 84 / Pseudo-Mercator").
  public let name: String
  /// The unit of the map's coordinates ("metre", "US survey foot", "degree").
  public let unitName: String
  /// True for a geographic reference (degrees, drawn as plate carrée).
  public let isGeographic: Bool
  /// Metres per map unit; for degrees, metres along the equator per degree
  /// (2π · 6378137 / 360 = 111319.49), the length scale counts in.
  public let metersPerUnit: Double
  /// Inches per map unit as ArcGIS computes scale: 39.37 per metre, 12 per
  /// foot of any kind (US survey or international), 39.37 × 111319.49 per
  /// degree.
  public let inchesPerUnit: Double
  /// The scale of zoom level 0 at 96 DPI in the map's tile matrix set: one
  /// 256-px tile spanning the world (Web Mercator), one of the two 256-px
  /// tiles spanning 180° each (WorldCRS84Quad), or the basemap's level 0;
  /// nil when the reference has no tile matrix set (`zoom` is then refused).
  /// Zoom does not depend on `dpi`.
  public let zoom0Scale: Double?

  /// Inches per metre as ArcGIS computes scale.
  public static let inchesPerMeter = 39.37
  /// Inches per foot, US survey or international alike (ArcGIS's rule).
  public static let inchesPerFoot = 12.0
  /// Metres along the equator per degree of a geographic map.
  public static let metersPerDegree = 2 * Double.pi * WebMercator.radius / 360

  /// EPSG:3857, Web Mercator: metres on the sphere of radius 6378137;
  /// latitudes clamped to ±85.05112878°.
  public static let webMercator = MapProjection(
    kind: .webMercator, identifier: "EPSG:3857", name: "WGS 84 / Pseudo-Mercator", unitName: "metre", isGeographic: false, metersPerUnit: 1,
    inchesPerUnit: inchesPerMeter, zoom0Scale: 591_657_527.591555)
  /// EPSG:4326, plate carrée: x is longitude and y latitude, in degrees.
  public static let geographic = MapProjection(
    kind: .wgs84Degrees, identifier: "EPSG:4326", name: "WGS 84", unitName: "degree", isGeographic: true, metersPerUnit: metersPerDegree,
    inchesPerUnit: inchesPerMeter * metersPerDegree, zoom0Scale: 295_828_763.795_777_5)

  /// The names of Web Mercator and of WGS84 degrees that need no PROJ.
  static let webMercatorNames: Set<String> = ["EPSG:3857", "ESRI:102100", "ESRI:102113", "EPSG:900913", "EPSG:3785", "EPSG:102100"]
  static let wgs84Names: Set<String> = ["EPSG:4326", "OGC:CRS84", "CRS:84"]

  private init(
    kind: Kind, identifier: String, name: String, unitName: String, isGeographic: Bool, metersPerUnit: Double, inchesPerUnit: Double,
    zoom0Scale: Double?
  ) {
    self.kind = kind
    self.identifier = identifier
    self.name = name
    self.unitName = unitName
    self.isGeographic = isGeographic
    self.metersPerUnit = metersPerUnit
    self.inchesPerUnit = inchesPerUnit
    self.zoom0Scale = zoom0Scale
  }

  /// The reference `crs` names (`"EPSG:3067"`, `"ESRI:102100"`, a URN or
  /// an OGC URL; a number alone is an EPSG code); Web Mercator and WGS84
  /// degrees without PROJ, any other through it.
  public static func named(_ crs: String) -> Result<MapProjection, CRSError> {
    let given = normalizedName(crs)
    if webMercatorNames.contains(given) { return .success(.webMercator) }
    if wgs84Names.contains(given) { return .success(.geographic) }
    let d: CRSDescription
    switch CRSDescription.of(given) {
    case .failure(let e): return .failure(e)
    case .success(let s): d = s
    }
    if webMercatorNames.contains(d.identifier) { return .success(.webMercator) }
    if wgs84Names.contains(d.identifier) { return .success(.geographic) }
    let transform: CRSTransform
    switch CRSTransform.to84(from: given) {
    case .failure(let e): return .failure(e)
    case .success(let t): transform = t
    }
    let feet = d.unitName.lowercased().contains("foot") || d.unitName.lowercased().contains("feet")
    let meters = d.isGeographic ? metersPerDegree : d.metersPerUnit
    return .success(
      MapProjection(
        kind: .proj(transform), identifier: d.identifier, name: d.name, unitName: d.unitName, isGeographic: d.isGeographic,
        metersPerUnit: meters,
        inchesPerUnit: feet ? inchesPerFoot : inchesPerMeter * meters, zoom0Scale: d.isGeographic ? geographic.zoom0Scale : nil))
  }

  /// `crs` as PROJ and the aliases above know it: a number alone is an EPSG
  /// code, authorities are upper case, URNs and OGC URLs of EPSG become
  /// `EPSG:code`.
  static func normalizedName(_ crs: String) -> String {
    let t = crs.trimmedOfSpaces
    if !t.isEmpty, t.allSatisfy({ $0.isASCII && $0.isNumber }) { return "EPSG:\(t)" }
    let lower = t.lowercased()
    for prefix in ["urn:ogc:def:crs:epsg::", "http://www.opengis.net/def/crs/epsg/0/", "https://www.opengis.net/def/crs/epsg/0/"]
    where lower.hasPrefix(prefix) {
      let code = String(t.dropFirst(prefix.count))
      if !code.isEmpty, code.allSatisfy({ $0.isASCII && $0.isNumber }) { return "EPSG:\(code)" }
    }
    if lower == "http://www.opengis.net/def/crs/ogc/1.3/crs84" || lower == "urn:ogc:def:crs:ogc:1.3:crs84" { return "OGC:CRS84" }
    if let colon = t.firstIndex(of: ":"), !t.hasPrefix("urn:"), !t.hasPrefix("http"), !t.contains(" ") {
      return t[..<colon].uppercased() + t[colon...]
    }
    return t
  }

  /// Map units and metres per logical pixel at `scale` and `dpi`: `scale /
  /// (dpi × inchesPerUnit)` units, computed as metres then units unless the
  /// unit is a foot (then as feet, then metres).
  func resolution(scale: Double, dpi: Double) -> (units: Double, meters: Double) {
    if inchesPerUnit == Self.inchesPerFoot {
      let units = scale / (dpi * Self.inchesPerFoot)
      return (units, units * metersPerUnit)
    }
    let meters = scale / (dpi * Self.inchesPerMeter)
    return (meters / metersPerUnit, meters)
  }

  /// The scale at which one logical pixel spans `unitsPerPixel` (the
  /// inverse of `resolution(scale:dpi:)`).
  func scale(unitsPerPixel: Double, dpi: Double) -> Double {
    inchesPerUnit == Self.inchesPerFoot ? unitsPerPixel * dpi * Self.inchesPerFoot : unitsPerPixel * metersPerUnit * dpi * Self.inchesPerMeter
  }

  /// The same reference with its zoom levels taken from a tile matrix set
  /// whose level 0 has `scale` at 96 DPI.
  func zoomed(level0Scale scale: Double?) -> MapProjection {
    MapProjection(
      kind: kind, identifier: identifier, name: name, unitName: unitName, isGeographic: isGeographic, metersPerUnit: metersPerUnit,
      inchesPerUnit: inchesPerUnit, zoom0Scale: scale)
  }

  /// The EPSG code, nil for another authority's reference.
  public var epsgCode: Int? {
    identifier.hasPrefix("EPSG:") ? Int(identifier.dropFirst(5)) : nil
  }


  /// True when positions go through PROJ (any reference but Web Mercator
  /// and WGS84 degrees).
  var usesPROJ: Bool {
    if case .proj = kind { return true } else { return false }
  }

  /// True when the map units are WGS84 degrees as decoded: nothing to project.
  var isWGS84Degrees: Bool {
    if case .wgs84Degrees = kind { return true } else { return false }
  }

  public var description: String { identifier }

  public static func == (a: MapProjection, b: MapProjection) -> Bool { a.identifier == b.identifier }
  public func hash(into h: inout Hasher) { h.combine(identifier) }

  /// WGS84 degrees to map units; non-finite where PROJ cannot project.
  @inline(__always)
  public func project(lon: Double, lat: Double) -> Point {
    switch kind {
    case .webMercator: return WebMercator.project(lon: lon, lat: lat)
    case .wgs84Degrees: return Point(lon, lat)
    case .proj(let t):
      return withUnsafeTemporaryAllocation(of: Point.self, capacity: 1) { p in
        p[0] = Point(lon, lat)
        t.fromWGS84(p)
        return p[0]
      }
    }
  }

  /// WGS84 degrees in place to map units, non-finite where PROJ cannot project.
  func project(_ points: UnsafeMutableBufferPointer<Point>) {
    switch kind {
    case .webMercator: for i in points.indices { points[i] = WebMercator.project(lon: points[i].x, lat: points[i].y) }
    case .wgs84Degrees: return
    case .proj(let t): t.fromWGS84(points)
    }
  }

  /// Map units to WGS84 degrees (non-finite where PROJ cannot).
  public func unproject(_ p: Point) -> (lon: Double, lat: Double) {
    switch kind {
    case .webMercator: return WebMercator.unproject(p)
    case .wgs84Degrees: return (p.x, p.y)
    case .proj(let t):
      return withUnsafeTemporaryAllocation(of: Point.self, capacity: 1) { q in
        q[0] = p
        t.toWGS84(q)
        return (q[0].x, q[0].y)
      }
    }
  }

  /// Map units in place to WGS84 degrees (x longitude, y latitude),
  /// non-finite where PROJ cannot: one call to PROJ for them all.
  func unproject(_ points: UnsafeMutableBufferPointer<Point>) {
    switch kind {
    case .webMercator:
      for i in points.indices {
        let d = WebMercator.unproject(points[i])
        points[i] = Point(d.lon, d.lat)
      }
    case .wgs84Degrees: return
    case .proj(let t): t.toWGS84(points)
    }
  }
}
