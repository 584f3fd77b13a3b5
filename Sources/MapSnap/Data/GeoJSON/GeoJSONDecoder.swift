/// Reads GeoJSON (RFC 7946) values into `Geometry` in WGS84 degrees (x
/// longitude, y latitude) and features; `FeatureCollection.projected(to:)`
/// turns them into a map's units.
///
/// Rules: positions are arrays of at least two finite numbers (lon, lat; more
/// are ignored); a LineString needs 2 positions; a ring needs 4 with the last
/// equal to the first; Point, MultiPoint, LineString, MultiLineString, Polygon,
/// MultiPolygon and GeometryCollection are accepted. A feature whose geometry
/// breaks a rule is skipped and counted, never half-drawn.
enum GeoJSONDecoder {
  /// Decodes a document that is a FeatureCollection, a Feature or a bare
  /// geometry. Throws for a document that is none of them; invalid features
  /// inside are skipped and counted.
  static func decodeDocument(_ value: JSONValue, path: JSONPath = JSONPath()) throws(GeoJSONIssue) -> FeatureCollection {
    guard case .object(let obj) = value else {
      throw GeoJSONIssue(path: path, expected: "a GeoJSON object", found: describe(value))
    }
    guard case .string(let type)? = obj["type"] else {
      throw GeoJSONIssue(path: path.key("type"), expected: "a GeoJSON \"type\" string", found: obj["type"].map(describe))
    }
    var collection = FeatureCollection()
    collection.declaredCRS = obj["crs"].flatMap(declaredReference)
    switch type {
    case "FeatureCollection":
      guard case .array(let features)? = obj["features"] else {
        throw GeoJSONIssue(
          path: path.key("features"), expected: "a \"features\" array in a FeatureCollection", found: obj["features"].map(describe))
      }
      collection.features.reserveCapacity(features.count)
      for (i, f) in features.enumerated() {
        decodeFeature(f, index: i, path: path.key("features").index(i), into: &collection)
      }
    case "Feature":
      decodeFeature(value, index: 0, path: path, into: &collection)
    case _ where geometryTypes.contains(type):
      let geometry: Geometry
      do {
        geometry = try decodeGeometry(value, path: path)
      } catch {
        collection.invalidCount = 1
        collection.invalidSamples = [error.description]
        collection.invalidSamplesWithoutContent = [error.descriptionWithoutContent]
        return collection
      }
      collection.features.append(Feature(id: nil, properties: JSONObject([]), geometry: geometry))
    default:
      throw GeoJSONIssue(
        path: path.key("type"),
        expected: "a FeatureCollection, a Feature or a geometry", found: "type \(Echo.quoted(type))",
        hint: closestMatch(to: type, in: ["FeatureCollection", "Feature"] + geometryTypes).map { "did you mean \(Echo.quoted($0))?" })
    }
    return collection
  }

  /// The spatial reference a document's legacy `crs` member names (GeoJSON
  /// 2008, as `ogr2ogr` writes it: `{"type": "name", "properties": {"name":
  /// "urn:ogc:def:crs:EPSG::3067"}}`), as AUTHORITY:CODE: `EPSG:3067` from
  /// `urn:ogc:def:crs:EPSG::3067`, `urn:ogc:def:crs:EPSG:6.6:3067` or
  /// `EPSG:3067`; `OGC:CRS84` (WGS84 longitude/latitude) from
  /// `urn:ogc:def:crs:OGC:1.3:CRS84`. Nil for any other member (a `link`
  /// crs, a name of another shape): the file then names no reference.
  static func declaredReference(_ member: JSONValue) -> String? {
    guard case .object(let crs) = member, case .string("name")? = crs["type"],
      case .object(let properties)? = crs["properties"], case .string(let name)? = properties["name"]
    else { return nil }
    let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    let authority: String
    let code: String
    if parts.count == 2 {
      (authority, code) = (parts[0], parts[1])
    } else if parts.count == 7, parts[0].lowercased() == "urn", parts[1].lowercased() == "ogc", parts[2].lowercased() == "def",
      parts[3].lowercased() == "crs"
    {
      // urn:ogc:def:crs:AUTHORITY:VERSION:CODE, the version often empty.
      (authority, code) = (parts[4], parts[6])
    } else {
      return nil
    }
    guard !authority.isEmpty, !code.isEmpty, !name.contains(" ") else { return nil }
    return authority.uppercased() + ":" + code.uppercased()
  }

  static let geometryTypes = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]

  private static func decodeFeature(_ value: JSONValue, index: Int, path: JSONPath, into c: inout FeatureCollection) {
    func skip(_ issue: GeoJSONIssue) {
      c.invalidCount += 1
      if c.invalidSamples.count < 3 {
        c.invalidSamples.append(issue.description)
        c.invalidSamplesWithoutContent.append(issue.descriptionWithoutContent)
      }
    }
    guard case .object(let obj) = value else {
      skip(GeoJSONIssue(path: path, expected: "a Feature object", found: describe(value)))
      return
    }
    guard case .string("Feature")? = obj["type"] else {
      let found = obj["type"].map(describe) ?? "no \"type\""
      skip(GeoJSONIssue(path: path.key("type"), expected: "\"type\": \"Feature\"", found: found))
      return
    }
    let properties: JSONObject
    switch obj["properties"] {
    case .object(let p)?: properties = p
    case .null?, nil: properties = JSONObject([])
    case let other?:
      skip(GeoJSONIssue(path: path.key("properties"), expected: "an object or null", found: describe(other)))
      return
    }
    var id: JSONValue? = nil
    if let v = obj["id"] {
      switch v {
      case .string, .number: id = v
      case .null: id = nil
      default:
        skip(GeoJSONIssue(path: path.key("id"), expected: "a string or number", found: describe(v)))
        return
      }
    }
    guard let g = obj["geometry"], g != .null else {
      c.unlocatedCount += 1
      c.withoutGeometry.append(Feature(id: id, properties: properties, geometry: Geometry(), index: index))
      return
    }
    do {
      let geometry = try decodeGeometry(g, path: path.key("geometry"))
      c.features.append(Feature(id: id, properties: properties, geometry: geometry, index: index))
    } catch {
      skip(error)
      c.withoutGeometry.append(Feature(id: id, properties: properties, geometry: Geometry(), index: index))
    }
  }

  /// Decodes one geometry object (including GeometryCollection).
  static func decodeGeometry(_ value: JSONValue, path: JSONPath) throws(GeoJSONIssue) -> Geometry {
    var g = Geometry()
    try add(value, path: path, to: &g, depth: 0)
    return g
  }

  private static func add(_ value: JSONValue, path: JSONPath, to g: inout Geometry, depth: Int) throws(GeoJSONIssue) {
    guard case .object(let obj) = value else {
      throw GeoJSONIssue(path: path, expected: "a geometry object", found: describe(value))
    }
    guard case .string(let type)? = obj["type"] else {
      throw GeoJSONIssue(path: path.key("type"), expected: "a geometry \"type\" string", found: obj["type"].map(describe))
    }
    if type == "GeometryCollection" {
      guard depth < 8 else { throw GeoJSONIssue(path: path, expected: "GeometryCollections nested at most 8 deep") }
      guard case .array(let members)? = obj["geometries"] else {
        throw GeoJSONIssue(
          path: path.key("geometries"), expected: "a \"geometries\" array in a GeometryCollection", found: obj["geometries"].map(describe))
      }
      for (i, m) in members.enumerated() {
        try add(m, path: path.key("geometries").index(i), to: &g, depth: depth + 1)
      }
      return
    }
    guard geometryTypes.contains(type) else {
      throw GeoJSONIssue(
        path: path.key("type"), expected: "a geometry type: one of \(geometryTypes.map { "\"\($0)\"" }.joined(separator: ", "))",
        found: "string \(Echo.quoted(type))",
        hint: closestMatch(to: type, in: geometryTypes).map { "did you mean \(Echo.quoted($0))?" })
    }
    guard let coords = obj["coordinates"] else {
      throw GeoJSONIssue(path: path.key("coordinates"), expected: "the \"coordinates\" of a \(type)")
    }
    let cp = path.key("coordinates")
    switch type {
    case "Point":
      guard let p = position(coords, &g.bounds) else { throw badPosition(coords, cp) }
      g.points.append(p)
    case "MultiPoint":
      g.points += try positions(try array(coords, cp), cp, &g.bounds)
    case "LineString":
      g.lines.append(try line(coords, cp, &g.bounds))
    case "MultiLineString":
      for (i, l) in try array(coords, cp).enumerated() { g.lines.append(try line(l, cp.index(i), &g.bounds)) }
    case "Polygon":
      g.polygons.append(try polygon(coords, cp, &g.bounds))
    case "MultiPolygon":
      for (i, p) in try array(coords, cp).enumerated() { g.polygons.append(try polygon(p, cp.index(i), &g.bounds)) }
    default:
      break  // unknown types are rejected above
    }
  }

  private static func array(_ v: JSONValue, _ path: JSONPath) throws(GeoJSONIssue) -> [JSONValue] {
    guard case .array(let a) = v else {
      throw GeoJSONIssue(path: path, expected: "an array", found: describe(v))
    }
    return a
  }

  /// A position in degrees, or nil when `v` is not `[lon, lat, …]` of finite numbers.
  @inline(__always)
  private static func position(_ v: JSONValue, _ bounds: inout Rect) -> Point? {
    guard case .array(let a) = v, a.count >= 2, case .number(let lon) = a[0], case .number(let lat) = a[1],
      lon.isFinite, lat.isFinite
    else { return nil }
    let p = Point(lon, lat)
    bounds.include(p)
    return p
  }

  /// The issue for a position that `position(_:_:)` rejected; paths are only
  /// built on this error path.
  private static func badPosition(_ v: JSONValue, _ path: JSONPath) -> GeoJSONIssue {
    GeoJSONIssue(path: path, expected: "a position [lon, lat] of finite numbers", found: describe(v))
  }

  /// Positions of `a`, each checked.
  private static func positions(_ a: [JSONValue], _ path: JSONPath, _ bounds: inout Rect) throws(GeoJSONIssue) -> [Point] {
    var pts: [Point] = []
    pts.reserveCapacity(a.count)
    for (i, p) in a.enumerated() {
      guard let q = position(p, &bounds) else { throw badPosition(p, path.index(i)) }
      pts.append(q)
    }
    return pts
  }

  private static func line(_ v: JSONValue, _ path: JSONPath, _ bounds: inout Rect) throws(GeoJSONIssue) -> [Point] {
    let a = try array(v, path)
    guard a.count >= 2 else {
      throw GeoJSONIssue(path: path, expected: "a line of at least 2 positions", found: "\(a.count)")
    }
    return try positions(a, path, &bounds)
  }

  private static func polygon(_ v: JSONValue, _ path: JSONPath, _ bounds: inout Rect) throws(GeoJSONIssue) -> [[Point]] {
    let ringsJSON = try array(v, path)
    guard !ringsJSON.isEmpty else {
      throw GeoJSONIssue(path: path, expected: "a polygon of at least one ring", found: "an empty array")
    }
    var rings: [[Point]] = []
    rings.reserveCapacity(ringsJSON.count)
    for (r, ringJSON) in ringsJSON.enumerated() {
      let rp = path.index(r)
      let a = try array(ringJSON, rp)
      guard a.count >= 4 else {
        throw GeoJSONIssue(path: rp, expected: "a ring of at least 4 positions (the first repeated last)", found: "\(a.count)")
      }
      // Closure is checked on the numbers as written, before latitudes are clamped.
      guard a[0] == a[a.count - 1] else {
        _ = try positions(a, rp, &bounds)  // a bad position is the better message
        throw GeoJSONIssue(
          path: rp, expected: "a closed ring (its last position equal to its first)", found: "a last position that differs from the first")
      }
      var ring = try positions(a, rp, &bounds)
      ring.removeLast()
      // Outer ring counter-clockwise (positive area with y north), holes clockwise.
      let area = signedArea(ring)
      if (r == 0) != (area >= 0) { ring.reverse() }
      rings.append(ring)
    }
    return rings
  }

  /// Shoelace area; positive for counter-clockwise rings with y pointing up.
  static func signedArea(_ ring: [Point]) -> Double {
    var s = 0.0
    var prev = ring[ring.count - 1]
    for p in ring {
      s += prev.x * p.y - p.x * prev.y
      prev = p
    }
    return s / 2
  }
}
