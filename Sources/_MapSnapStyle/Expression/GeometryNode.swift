internal import _MapSnapJSON

/// A GeoJSON geometry reduced to what `within` and `distance` compare: a
/// point, a line, a polygon (rings) or something neither reads.
enum SimpleGeometry {
  case point(GeoPoint)
  case line([GeoPoint])
  case polygon([[GeoPoint]])
  case other
}

/// `within` (whether the feature's points or lines lie strictly inside
/// GeoJSON polygons) and `distance` (metres from the feature's geometry to
/// GeoJSON geometries). Both read the feature's tile geometry and the tile's
/// address; without them `within` is false and `distance` NaN.
final class GeometryNode: ExpressionNode, @unchecked Sendable {
  enum Kind {
    case within([[[GeoPoint]]])
    case distance([SimpleGeometry])
  }
  let kind: Kind
  init(kind: Kind, key: String) {
    self.kind = kind
    switch kind {
    case .within: super.init(type: .boolean, key: key)
    case .distance: super.init(type: .number, key: key)
    }
  }

  override func evaluate(_ input: borrowing EvaluationInput) throws(ExpressionEvaluationError) -> StyleValue {
    guard let feature = input.feature, !feature.geometry.isEmpty, let tile = input.context.canonical else {
      if case .within = kind { return .bool(false) }
      return .number(.nan)
    }
    switch kind {
    case .within(let polygons): return .bool(GeometryNode.within(feature, tile, polygons))
    case .distance(let geometries): return .number(GeometryNode.distance(feature, tile, geometries))
    }
  }

  // MARK: within

  static func within(_ feature: EvaluationFeature, _ tile: CanonicalTileID, _ polygons: [[[GeoPoint]]]) -> Bool {
    var polyBox = GeometryRules.Box()
    let worldPolygons = polygons.map { $0.map { $0.map { p -> GeoPoint in
      let w = GeometryRules.worldCoordinates(p, tile)
      polyBox.add(w)
      return w
    } } }
    let worldSize = pow2(tile.z) * EvaluationPoint.extent
    let shift = (Double(tile.x) * EvaluationPoint.extent, Double(tile.y) * EvaluationPoint.extent)
    /// A point moved by a world's width when that brings it nearer the polygons (across the antimeridian).
    func wrapped(_ p: GeoPoint) -> GeoPoint {
      guard p.x < polyBox.minX || p.x > polyBox.maxX else { return p }
      let half = worldSize / 2
      var s = p.x - polyBox.minX > half ? -worldSize : polyBox.minX - p.x > half ? worldSize : 0
      if s == 0 { s = p.x - polyBox.maxX > half ? -worldSize : polyBox.maxX - p.x > half ? worldSize : 0 }
      return (p.x + s, p.y)
    }
    switch feature.kind {
    case .point:
      var box = GeometryRules.Box()
      var points: [GeoPoint] = []
      for part in feature.geometry {
        for p in part {
          let w = wrapped((p.x + shift.0, p.y + shift.1))
          box.add(w)
          points.append(w)
        }
      }
      guard box.within(polyBox) else { return false }
      return points.allSatisfy { p in worldPolygons.contains { GeometryRules.pointInPolygon(p, $0) } }
    case .lineString:
      var box = GeometryRules.Box()
      var lines = feature.geometry.map { $0.map { p -> GeoPoint in
        let w = (p.x + shift.0, p.y + shift.1)
        box.add(w)
        return w
      } }
      if box.maxX - box.minX <= worldSize / 2 {
        box = GeometryRules.Box()
        lines = lines.map { $0.map { p in
          let w = wrapped(p)
          box.add(w)
          return w
        } }
      }
      guard box.within(polyBox) else { return false }
      return lines.allSatisfy { line in worldPolygons.contains { GeometryRules.lineWithinPolygon(line, $0) } }
    default:
      return false
    }
  }

  private static func pow2(_ z: Int) -> Double { Double(1 << min(max(z, 0), 52)) }

  // MARK: distance

  static func distance(_ feature: EvaluationFeature, _ tile: CanonicalTileID, _ geometries: [SimpleGeometry]) -> Double {
    let parts = feature.geometry.map { $0.map { GeometryRules.lngLat($0, tile) } }
    switch feature.kind {
    case .point, .lineString:
      let points = parts.flatMap { $0 }
      guard let first = points.first else { return .nan }
      let isLine = feature.kind == .lineString
      let ruler = CheapRuler(latitude: first.y)
      var best = Double.infinity
      for g in geometries {
        switch g {
        case .point(let p): best = min(best, setToSet(points, isLine, [p], false, ruler))
        case .line(let l): best = min(best, setToSet(points, isLine, l, true, ruler))
        case .polygon(let rings): best = min(best, setToPolygon(points, isLine, rings, ruler))
        case .other: break
        }
        if best == 0 { return 0 }
      }
      return best
    case .polygon:
      guard let first = parts.first?.first else { return .nan }
      let polygons = GeometryRules.classifyRings(parts)
      let ruler = CheapRuler(latitude: first.y)
      var best = Double.infinity
      for g in geometries {
        for polygon in polygons {
          switch g {
          case .point(let p): best = min(best, setToPolygon([p], false, polygon, ruler))
          case .line(let l): best = min(best, setToPolygon(l, true, polygon, ruler))
          case .polygon(let rings): best = min(best, polygonToPolygon(polygon, rings, ruler))
          case .other: break
          }
          if best == 0 { return 0 }
        }
      }
      return best
    case .unknown:
      return .nan
    }
  }

  private static func setToSet(_ a: [GeoPoint], _ aLine: Bool, _ b: [GeoPoint], _ bLine: Bool, _ ruler: CheapRuler) -> Double {
    guard !a.isEmpty, !b.isEmpty else { return .nan }
    var best = Double.infinity
    switch (aLine, bLine) {
    case (true, true):
      if a.count < 2 || b.count < 2 { return .infinity }
      for i in 0..<(a.count - 1) {
        for j in 0..<(b.count - 1) {
          if GeometryRules.segmentsCross(a[i], a[i + 1], b[j], b[j + 1]) { return 0 }
          best = min(best, ruler.segmentToSegment(a[i], a[i + 1], b[j], b[j + 1]))
        }
      }
    case (true, false):
      for p in b { best = min(best, ruler.pointToLine(p, a)) }
    case (false, true):
      for p in a { best = min(best, ruler.pointToLine(p, b)) }
    case (false, false):
      for p in a {
        for q in b { best = min(best, ruler.distance(p, q)) }
      }
    }
    return best
  }

  private static func setToPolygon(_ points: [GeoPoint], _ isLine: Bool, _ polygon: [[GeoPoint]], _ ruler: CheapRuler) -> Double {
    guard !points.isEmpty else { return .nan }
    var best = Double.infinity
    if isLine {
      for p in points where GeometryRules.pointInPolygon(p, polygon, onBoundary: true) { return 0 }
      guard points.count > 1 else { return best }
      for i in 0..<(points.count - 1) {
        for ring in polygon where !ring.isEmpty {
          var k = ring.count - 1
          for j in 0..<ring.count {
            if GeometryRules.segmentsCross(points[i], points[i + 1], ring[k], ring[j]) { return 0 }
            best = min(best, ruler.segmentToSegment(points[i], points[i + 1], ring[k], ring[j]))
            k = j
          }
        }
      }
      return best
    }
    for p in points {
      if GeometryRules.pointInPolygon(p, polygon, onBoundary: true) { return 0 }
      for ring in polygon where !ring.isEmpty {
        best = min(best, ruler.pointToLine(p, [ring[ring.count - 1], ring[0]]))
        best = min(best, ruler.pointToLine(p, ring))
      }
    }
    return best
  }

  private static func polygonToPolygon(_ a: [[GeoPoint]], _ b: [[GeoPoint]], _ ruler: CheapRuler) -> Double {
    var boxA = GeometryRules.Box(), boxB = GeometryRules.Box()
    for ring in a { for p in ring { boxA.add(p) } }
    for ring in b { for p in ring { boxB.add(p) } }
    func intersects(_ x: [[GeoPoint]], _ y: [[GeoPoint]]) -> Bool {
      x.contains { ring in ring.contains { GeometryRules.pointInPolygon($0, y, onBoundary: true) } }
    }
    if boxA.within(boxB) {
      if intersects(a, b) { return 0 }
    } else if intersects(b, a) {
      return 0
    }
    var best = Double.infinity
    for r1 in a where !r1.isEmpty {
      var l = r1.count - 1
      for i in 0..<r1.count {
        for r2 in b where !r2.isEmpty {
          var k = r2.count - 1
          for j in 0..<r2.count {
            if GeometryRules.segmentsCross(r1[l], r1[i], r2[k], r2[j]) { return 0 }
            best = min(best, ruler.segmentToSegment(r1[l], r1[i], r2[k], r2[j]))
            k = j
          }
        }
        l = i
      }
    }
    return best
  }

  // MARK: Parsing

  static func position(_ v: JSONValue) -> GeoPoint? {
    guard case .array(let a) = v, a.count >= 2, case .number(let x) = a[0], case .number(let y) = a[1] else { return nil }
    return (x, y)
  }
  static func positions(_ v: JSONValue) -> [GeoPoint] {
    guard case .array(let a) = v else { return [] }
    return a.compactMap(position)
  }
  static func rings(_ v: JSONValue) -> [[GeoPoint]] {
    guard case .array(let a) = v else { return [] }
    return a.map(positions)
  }
  static func polygons(_ v: JSONValue) -> [[[GeoPoint]]] {
    guard case .array(let a) = v else { return [] }
    return a.map(rings)
  }

  /// The polygons of a Polygon or MultiPolygon geometry; nil for other types.
  static func polygonsOf(_ geometry: JSONValue?) -> [[[GeoPoint]]]? {
    guard let geometry, case .string(let type)? = geometry["type"] else { return nil }
    switch type {
    case "Polygon": return [rings(geometry["coordinates"] ?? .null)]
    case "MultiPolygon": return polygons(geometry["coordinates"] ?? .null)
    default: return nil
    }
  }

  static func parseWithin(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else {
      return context.error("'within' expression requires exactly one argument, but found \(args.count - 1) instead.")
    }
    let geojson = args[1]
    switch geojson["type"] {
    case .string("FeatureCollection")?:
      var all: [[[GeoPoint]]] = []
      if case .array(let features)? = geojson["features"] {
        for f in features { all += polygonsOf(f["geometry"]) ?? [] }
      }
      if !all.isEmpty { return GeometryNode(kind: .within(all), key: context.key) }
    case .string("Feature")?:
      if let p = polygonsOf(geojson["geometry"]) { return GeometryNode(kind: .within(p), key: context.key) }
    default:
      if let p = polygonsOf(geojson) { return GeometryNode(kind: .within(p), key: context.key) }
    }
    return context.error("'within' expression requires valid geojson object that contains polygon geometry type.")
  }

  static func simpleGeometries(_ geometry: JSONValue?) -> [SimpleGeometry] {
    guard let geometry, case .string(let type)? = geometry["type"] else { return [.other] }
    let coordinates = geometry["coordinates"] ?? .null
    switch type {
    case "Point": return [position(coordinates).map(SimpleGeometry.point) ?? .other]
    case "MultiPoint": return positions(coordinates).map(SimpleGeometry.point)
    case "LineString": return [.line(positions(coordinates))]
    case "MultiLineString": return rings(coordinates).map(SimpleGeometry.line)
    case "Polygon": return [.polygon(rings(coordinates))]
    case "MultiPolygon": return polygons(coordinates).map(SimpleGeometry.polygon)
    default: return [.other]
    }
  }

  static func parseDistance(_ args: [JSONValue], _ context: ParsingContext) -> ExpressionNode? {
    guard args.count == 2 else {
      return context.error("'distance' expression requires exactly one argument, but found \(args.count - 1) instead.")
    }
    let geojson = args[1]
    switch geojson["type"] {
    case .string("FeatureCollection")?:
      var all: [SimpleGeometry] = []
      if case .array(let features)? = geojson["features"] {
        for f in features { all += simpleGeometries(f["geometry"]) }
      }
      return GeometryNode(kind: .distance(all), key: context.key)
    case .string("Feature")?:
      return GeometryNode(kind: .distance(simpleGeometries(geojson["geometry"])), key: context.key)
    default:
      if case .object(let o) = geojson, o["type"] != nil, o["coordinates"] != nil {
        return GeometryNode(kind: .distance(simpleGeometries(geojson)), key: context.key)
      }
    }
    return context.error("'distance' expression requires valid geojson object that contains polygon geometry type.")
  }
}
