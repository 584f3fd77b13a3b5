/// Reads a tile matrix set from its OGC Two Dimensional Tile Matrix Set 2.0
/// JSON encoding (OGC 17-083r4): `crs`, optional `id` and `orderedAxes`, and
/// `tileMatrices`, each with `id`, `cellSize` (else `scaleDenominator` ×
/// 0.28 mm in map units), `pointOfOrigin`, `cornerOfOrigin` (`topLeft`, the
/// default), `tileWidth`, `tileHeight`, `matrixWidth` and `matrixHeight`.
///
/// `pointOfOrigin` is in the order of `orderedAxes` when given, else of the
/// reference's declared axes (EPSG:4326 and EPSG:3035 give northing first).
/// Refused, each with its JSON path: a missing or wrong value, tiles that are
/// not square, `bottomLeft` origins, `variableMatrixWidths`, a level number
/// given twice, a finer level with a lower number, a reference PROJ does not know.
struct TileMatrixSetDecoder {
  /// The file as the scene or tiles.json names it, for messages.
  let shown: String

  /// The largest file read: a registry set of 25 levels is under 10 KB.
  static let maximumBytes = 4 << 20
  /// The most levels read.
  static let maximumLevels = 64
  /// The largest tile side, in pixels (as a tiles layer's `tileSize`).
  static let maximumTileSide = 4096
  /// OGC's standardised rendering pixel: 0.28 mm, the size `scaleDenominator` assumes.
  static let standardPixelMeters = 0.00028

  /// Reads the file at `path` (resolved).
  static func read(path: String, shown: String, confinement: Confinement?) throws(TileError) -> TileMatrixSet {
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(path, maximumBytes: maximumBytes, confinement: confinement)
    } catch {
      if case .notFound = error { throw .missing(path: shown) }
      throw .unreadable(path: shown, reason: error.reason)
    }
    return try TileMatrixSetDecoder(shown: shown).decode(bytes)
  }

  func decode(_ bytes: [UInt8]) throws(TileError) -> TileMatrixSet {
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes)
    } catch {
      throw fail("", "valid JSON", found: "line \(error.line), column \(error.column): \(error.message)")
    }
    guard case .object(let o) = root else { throw fail("", "an OGC TileMatrixSet object", found: describe(root)) }
    guard case .array(let list)? = o["tileMatrices"] else {
      let hint = o["tileMatrix"] != nil ? "this looks like a 1.0 TileMatrixSet (tileMatrix, topLeftCorner): mapsnap reads 2.0" : nil
      throw fail("tileMatrices", "an array of tile matrices", found: o["tileMatrices"].map(describe) ?? "nothing", hint: hint)
    }
    guard !list.isEmpty, list.count <= Self.maximumLevels else {
      throw fail("tileMatrices", "1 to \(Self.maximumLevels) tile matrices", found: "\(list.count)")
    }
    let crs = try reference(o["crs"])
    let projection: MapProjection
    switch MapProjection.named(crs) {
    case .success(let p): projection = p
    case .failure(let e): throw fail("crs", "a spatial reference PROJ knows", found: e.description)
    }
    let northFirst = try northingFirst(o["orderedAxes"], crs: crs)
    var id = shown
    if case .string(let s)? = o["id"], !s.isEmpty { id = s }
    var matrices: [TileMatrixSet.TileMatrix] = []
    var seen: Set<Int> = []
    for (i, value) in list.enumerated() {
      let m = try matrix(value, at: "tileMatrices[\(i)]", index: i, metersPerUnit: projection.metersPerUnit, northFirst: northFirst)
      guard seen.insert(m.level).inserted else {
        throw fail("tileMatrices[\(i)].id", "a level number not given before", found: "\(m.level) again")
      }
      matrices.append(m)
    }
    let set = TileMatrixSet(id: id, crs: projection.identifier, matrices: matrices)
    // Finer levels have higher numbers: the level choice and zoom count on it.
    for (coarse, fine) in zip(set.matrices, set.matrices.dropFirst()) where !(fine.cellSize < coarse.cellSize) {
      let i = matrices.firstIndex(of: fine) ?? 0
      throw fail(
        "tileMatrices[\(i)].cellSize", "a cell size below level \(coarse.level)'s (\(coarse.cellSize)): finer levels have higher numbers",
        found: "\(fine.cellSize) at level \(fine.level)")
    }
    return set
  }

  /// `crs`: a URI or `AUTHORITY:CODE` string, or an object with a `uri`.
  private func reference(_ v: JSONValue?) throws(TileError) -> String {
    switch v {
    case .string(let s)? where !s.isEmpty && s.count <= ViewParameter.maximumReferenceName: return MapProjection.normalizedName(s)
    case .object(let c)?:
      if case .string(let s)? = c["uri"], !s.isEmpty, s.count <= ViewParameter.maximumReferenceName { return MapProjection.normalizedName(s) }
      throw fail("crs", "a reference URI (\"http://www.opengis.net/def/crs/EPSG/0/3067\") or \"EPSG:3067\"", found: "an object without a uri")
    default:
      throw fail("crs", "a reference URI (\"http://www.opengis.net/def/crs/EPSG/0/3067\") or \"EPSG:3067\"", found: v.map(describe) ?? "nothing")
    }
  }

  /// Whether coordinates give the northing first: the axis `orderedAxes`
  /// names first (matched to the reference's own axis abbreviations, so
  /// EPSG:2393's "X" is its northing; a name it does not have is read by
  /// its letter: N, Y, Lat… northing), else the reference's declared order.
  private func northingFirst(_ v: JSONValue?, crs: String) throws(TileError) -> Bool {
    let declared: [CRSDescription.Axis]
    if MapProjection.webMercatorNames.contains(crs) || crs == "OGC:CRS84" || crs == "CRS:84" {
      declared = [.init(abbreviation: "X", northing: false), .init(abbreviation: "Y", northing: true)]
    } else if crs == "EPSG:4326" {
      declared = [.init(abbreviation: "Lat", northing: true), .init(abbreviation: "Lon", northing: false)]
    } else if case .success(let d) = CRSDescription.of(crs) {
      declared = d.axes
    } else {
      declared = []
    }
    guard let v else { return declared.first?.northing ?? false }
    guard case .array(let a) = v, a.count == 2, case .string(let first) = a[0], case .string = a[1] else {
      throw fail("orderedAxes", "two axis abbreviations such as [\"E\", \"N\"]", found: describe(v))
    }
    if let axis = declared.first(where: { $0.abbreviation.lowercased() == first.lowercased() }) { return axis.northing }
    return ["n", "y", "lat", "latitude", "northing", "north"].contains(first.lowercased())
  }

  private func matrix(
    _ value: JSONValue, at path: String, index: Int, metersPerUnit: Double, northFirst: Bool
  ) throws(TileError) -> TileMatrixSet.TileMatrix {
    guard case .object(let m) = value else { throw fail(path, "a tile matrix object", found: describe(value)) }
    guard case .string(let id)? = m["id"], !id.isEmpty else {
      throw fail(path + ".id", "the level's id, a string such as \"0\"", found: m["id"].map(describe) ?? "nothing")
    }
    if let v = m["variableMatrixWidths"], case .array(let a) = v, !a.isEmpty {
      throw fail(path + ".variableMatrixWidths", "none: tile matrices whose rows have other widths are not supported", found: "\(a.count) entries")
    }
    if let v = m["cornerOfOrigin"] {
      guard case .string(let c) = v, c == "topLeft" else {
        throw fail(path + ".cornerOfOrigin", "\"topLeft\" (row 0 at the top; bottomLeft is not supported)", found: describe(v))
      }
    }
    var cell: Double
    if let v = m["cellSize"] {
      guard case .number(let n) = v, n > 0, n.isFinite else { throw fail(path + ".cellSize", "map units per pixel, a number > 0", found: describe(v)) }
      cell = n
    } else if case .number(let s)? = m["scaleDenominator"], s > 0, s.isFinite {
      cell = s * Self.standardPixelMeters / metersPerUnit
    } else {
      throw fail(path + ".cellSize", "map units per pixel, a number > 0 (or scaleDenominator)", found: "nothing")
    }
    cell = max(cell, .leastNormalMagnitude)
    guard case .array(let o)? = m["pointOfOrigin"], o.count == 2, case .number(let a) = o[0], case .number(let b) = o[1], a.isFinite, b.isFinite,
      abs(a) < 1e15, abs(b) < 1e15
    else {
      throw fail(path + ".pointOfOrigin", "the top-left corner as two numbers in the axis order", found: m["pointOfOrigin"].map(describe) ?? "nothing")
    }
    let width = try whole(m, "tileWidth", at: path, 1...Self.maximumTileSide)
    let height = try whole(m, "tileHeight", at: path, 1...Self.maximumTileSide)
    guard width == height else {
      throw fail(path + ".tileHeight", "square tiles: tileHeight equal to tileWidth (\(width))", found: "\(height)")
    }
    let columns = try whole(m, "matrixWidth", at: path, 1...(1 << 31))
    let rows = try whole(m, "matrixHeight", at: path, 1...(1 << 31))
    let level = Int(id).flatMap { $0 >= 0 && $0 <= 1 << 20 ? $0 : nil } ?? index
    return TileMatrixSet.TileMatrix(
      level: level, cellSize: cell, origin: northFirst ? Point(b, a) : Point(a, b), tileWidth: width, tileHeight: height,
      matrixWidth: columns, matrixHeight: rows)
  }

  private func whole(_ m: JSONObject, _ key: String, at path: String, _ range: ClosedRange<Int>) throws(TileError) -> Int {
    guard case .number(let n)? = m[key], n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
      throw fail(path + "." + key, "a whole number from \(range.lowerBound) to \(range.upperBound)", found: m[key].map(describe) ?? "nothing")
    }
    return Int(n)
  }

  private func fail(_ at: String, _ expected: String, found: String, hint: String? = nil) -> TileError {
    .badTileMatrixSet(path: shown, at: at, expected: expected, found: found, hint: hint)
  }
}
