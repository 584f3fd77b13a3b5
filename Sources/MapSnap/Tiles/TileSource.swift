internal import _MapSnapRaster

/// An opened tile set: where its tiles are read from and what its metadata
/// (MBTiles `metadata` table, the `tiles.json` TileJSON beside an XYZ
/// folder, a GeoPackage's tile matrix tables) says. Reads only; never
/// writes to the user's files.
final class TileSource {
  enum Store {
    case mbtiles(MBTilesReader)
    /// The resolved template and whether rows count from the south.
    case xyz(template: String, tms: Bool)
    case geopackage(GeoPackageTileReader)
  }

  let store: Store
  let minZoom: Int?
  let maxZoom: Int?
  let attribution: String?
  let tileMatrixSet: TileMatrixSet?
  /// Where tiles may be read from (`--root`).
  let confinement: Confinement?

  /// Opens `spec`.
  /// - Throws: `TileError` when the source does not exist, cannot be read,
  ///   or is not a tile set.
  init(_ spec: TileSourceSpec, confinement: Confinement? = nil) throws(TileError) {
    self.confinement = confinement
    switch spec {
    case .mbtiles(let shown, let resolved):
      let reader = try MBTilesReader(path: resolved, shown: shown, confinement: confinement)
      let m = reader.metadata
      if let f = m["format"], !["png", "jpg", "jpeg"].contains(f.lowercased()) {
        throw .unsupportedFormat(path: shown, format: f)
      }
      store = .mbtiles(reader)
      // Zooms outside 0…30 are not levels: ignored, as in tiles.json.
      minZoom = m["minzoom"].flatMap { Int($0) }.flatMap { (0...30).contains($0) ? $0 : nil }
      maxZoom = m["maxzoom"].flatMap { Int($0) }.flatMap { (0...30).contains($0) ? $0 : nil }
      attribution = m["attribution"]
      // MBTiles is Web Mercator by definition.
      tileMatrixSet = .webMercatorQuad
    case .geopackage(let shown, let resolved, let table):
      let reader = try GeoPackageTileReader(path: resolved, shown: shown, table: table, confinement: confinement)
      store = .geopackage(reader)
      minZoom = reader.tileMatrixSet.levels.lowerBound
      maxZoom = reader.tileMatrixSet.levels.upperBound
      attribution = nil
      tileMatrixSet = reader.tileMatrixSet
    case .xyz(let shown, let resolved, let tms):
      let root = TileSource.rootFolder(of: resolved)
      guard FileIO.canonicalPath(root.isEmpty ? "." : root) != nil else { throw .missing(path: TileSource.rootFolder(of: shown)) }
      // Under --root the tile folder itself must be inside (each tile and
      // tiles.json are checked again as they are opened).
      if let confinement {
        do throws(FileError) {
          _ = try confinement.resolve(root.isEmpty ? "." : root)
        } catch {
          throw .unreadable(path: TileSource.rootFolder(of: shown), reason: error.reason)
        }
      }
      let json = (root.isEmpty ? "" : root + "/") + "tiles.json"
      var meta: JSONObject? = nil
      var bytes: [UInt8]? = nil
      do {
        bytes = try FileIO.read(json, maximumBytes: TileSource.maximumTileJSONBytes, confinement: confinement)
      } catch {
        // No tiles.json: the scene's keys and the defaults.
        if case .notFound = error {} else { throw .unreadable(path: json, reason: error.reason) }
      }
      if let bytes {
        let parsed: JSONValue
        do {
          parsed = try JSONParser.parse(bytes)
        } catch {
          throw .notTiles(path: json, reason: "tiles.json is not valid JSON (line \(error.line), column \(error.column): \(error.message))")
        }
        guard case .object(let o) = parsed else { throw .notTiles(path: json, reason: "tiles.json is not a JSON object") }
        meta = o
      }
      func int(_ k: String) -> Int? {
        if case .number(let n)? = meta?[k], n == n.rounded(), n >= 0, n <= 30 { return Int(n) }
        return nil
      }
      minZoom = int("minzoom")
      maxZoom = int("maxzoom")
      if case .string(let a)? = meta?["attribution"] { attribution = a } else { attribution = nil }
      if case .string(let t)? = meta?["tileMatrixSet"] {
        // A registry name, or a JSON file beside tiles.json.
        switch TileMatrixSetSpec.parse(t, relativeTo: root.isEmpty ? "." : root) {
        case .named(let set)?: tileMatrixSet = set
        case .file(_, let path)?:
          tileMatrixSet = try TileMatrixSetDecoder.read(path: path, shown: path, confinement: confinement)
        case nil:
          throw .notTiles(
            path: json,
            reason: "tileMatrixSet \(Echo.quoted(t)) is neither in the OGC registry (\(TileMatrixSet.registryNames.joined(separator: ", "))) nor a .json file")
        }
      } else {
        tileMatrixSet = nil
      }
      // TileJSON's `scheme` is the default; the scene's `scheme` wins.
      var rowsFromSouth = tms ?? false
      if tms == nil, case .string(let s)? = meta?["scheme"] {
        guard s == "xyz" || s == "tms" else { throw .notTiles(path: json, reason: "scheme \(Echo.quoted(s)) is not xyz or tms") }
        rowsFromSouth = s == "tms"
      }
      store = .xyz(template: resolved, tms: rowsFromSouth)
    }
  }

  /// Files larger than these are not tiles (or tile metadata).
  static let maximumTileBytes = 64 << 20
  static let maximumTileJSONBytes = 16 << 20

  /// The folder a template's tiles live under: its part before the first
  /// `{`, up to the last `/` ("" for a template without a folder).
  static func rootFolder(of template: String) -> String {
    let head = template.prefix { $0 != "{" }
    return FileIO.directory(of: String(head) + "x")
  }

  /// What reading one tile found.
  enum Read {
    case bytes([UInt8])
    case absent
    case unreadable
  }

  /// The bytes of tile (`z`, `x`, `y`), row `y` counted from the north.
  func read(z: Int, x: Int, y: Int, matrixRows: Int) -> Read {
    switch store {
    case .geopackage(let reader):
      switch reader.tile(z: z, x: x, y: y) {
      case .bytes(let b): return .bytes(b)
      case .absent: return .absent
      case .failed: return .unreadable
      }
    case .mbtiles(let reader):
      switch reader.tile(z: z, x: x, tmsY: matrixRows - 1 - y) {
      case .bytes(let b): return .bytes(b)
      case .absent: return .absent
      case .failed: return .unreadable
      }
    case .xyz(let template, let tms):
      let row = tms ? matrixRows - 1 - y : y
      let path = template.replacing("{z}", with: String(z)).replacing("{x}", with: String(x)).replacing("{y}", with: String(row))
      do {
        return .bytes(try FileIO.read(path, maximumBytes: TileSource.maximumTileBytes, confinement: confinement))
      } catch {
        if case .notFound = error { return .absent }
        return .unreadable
      }
    }
  }
}
