import Synchronization

/// What PROJ says of a spatial reference a map may be drawn in: its
/// identifier, name, kind and unit.
struct CRSDescription: Sendable, Hashable {
  /// `AUTHORITY:CODE` as PROJ identifies the reference ("EPSG:3067"), or the
  /// text given when PROJ gives it no identifier.
  let identifier: String
  /// PROJ's name ("ETRS89 / TM35FIN(E,N)").
  let name: String
  /// True for a geographic reference (degrees), false for a projected one.
  let isGeographic: Bool
  /// The unit of its axes as PROJ names it ("metre", "US survey foot", "degree").
  let unitName: String
  /// Metres per unit for a projected reference (PROJ's conversion factor).
  let metersPerUnit: Double
  /// Its first two axes in declared order: each one's abbreviation ("E",
  /// "X", "Lat") and whether it points north or south (EPSG:3035 declares
  /// northing first, EPSG:4258 latitude first, EPSG:2393 calls its northing X).
  let axes: [Axis]

  struct Axis: Sendable, Hashable {
    var abbreviation: String
    var northing: Bool
  }

  private static let described = Mutex<[String: Result<CRSDescription, CRSError>]>([:])

  /// The description of `crs` (anything `proj_create` accepts: "EPSG:3067",
  /// "ESRI:102003", a URN or an OGC URL), made once per process for the
  /// first `CRSTransform.keptReferences` references asked for.
  static func of(_ crs: String) -> Result<CRSDescription, CRSError> {
    described.withLock { cache in
      if let hit = cache[crs] { return hit }
      let r = describe(crs)
      if cache.count < CRSTransform.keptReferences { cache[crs] = r }
      return r
    }
  }

  private static func describe(_ crs: String) -> Result<CRSDescription, CRSError> {
    let api: PROJ
    switch PROJ.shared {
    case .failure(let e): return .failure(e)
    case .success(let a): api = a
    }
    guard let ctx = api.newContext() else { return .failure(.projUnavailable(reason: "proj_context_create failed")) }
    defer { api.contextDestroy(ctx) }
    guard var object = api.create(ctx, crs) else {
      return .failure(.unknown(crs: crs, reason: "PROJ's database has no such reference"))
    }
    // A reference bound to WGS84 (a +towgs84 PROJ string) is described by its own.
    if api.getType(object) == PROJ.ObjectType.bound.rawValue, let source = api.getSourceCRS(ctx, object) {
      _ = api.destroy(object)
      object = source
    }
    defer { _ = api.destroy(object) }
    let type = PROJ.ObjectType(rawValue: api.getType(object))
    guard type == .projected || type == .geographic2D else {
      return .failure(.unknown(crs: crs, reason: "not a two-dimensional projected or geographic reference"))
    }
    guard let cs = api.coordinateSystem(ctx, object) else { return .failure(.unknown(crs: crs, reason: "it has no coordinate system")) }
    defer { _ = api.destroy(cs) }
    guard api.axisCount(ctx, cs) >= 2 else { return .failure(.unknown(crs: crs, reason: "it has fewer than two axes")) }
    let text = { (p: UnsafePointer<CChar>?) in p.map { String(cString: $0) } }
    var factor = 0.0
    var unit: UnsafePointer<CChar>? = nil
    var axes: [Axis] = []
    for i in 0..<2 {
      var abbreviation: UnsafePointer<CChar>? = nil
      var direction: UnsafePointer<CChar>? = nil
      var f = 0.0
      var name: UnsafePointer<CChar>? = nil
      guard api.axisInfo(ctx, cs, Int32(i), nil, &abbreviation, &direction, &f, &name, nil, nil) != 0 else {
        return .failure(.unknown(crs: crs, reason: "its axes cannot be read"))
      }
      if i == 0 { (factor, unit) = (f, name) }
      axes.append(Axis(abbreviation: text(abbreviation) ?? "", northing: ["north", "south"].contains(text(direction)?.lowercased() ?? "")))
    }
    guard factor > 0, factor.isFinite else { return .failure(.unknown(crs: crs, reason: "its axes have no unit")) }
    let identifier = text(api.getIDAuthority(object, 0)).flatMap { a in text(api.getIDCode(object, 0)).map { "\(a):\($0)" } }
    return .success(
      CRSDescription(
        identifier: identifier ?? crs, name: text(api.getName(object)) ?? crs, isGeographic: type == .geographic2D,
        unitName: text(unit) ?? "unknown", metersPerUnit: factor, axes: axes))
  }
}
