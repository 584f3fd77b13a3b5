internal import _MapSnapRaster

/// An opened tile set: where its tiles are read from and what its metadata
/// (MBTiles `metadata` table, or the `tiles.json` TileJSON beside an XYZ
/// folder) says. Reads only; never writes to the user's files.
final class TileSource {
  enum Store {
    case mbtiles(MBTilesReader)
    /// The resolved template and whether rows count from the south.
    case xyz(template: String, tms: Bool)
  }

  let store: Store
  let minZoom: Int?
  let maxZoom: Int?
  let attribution: String?
  let tileMatrixSet: TileMatrixSet?

  /// Opens `spec`.
  /// - Throws: `TileError` when the source does not exist, cannot be read,
  ///   or is not a tile set.
  init(_ spec: TileSourceSpec) throws(TileError) {
    switch spec {
    case .mbtiles(let shown, let resolved):
      let reader = try MBTilesReader(path: resolved, shown: shown)
      let m = reader.metadata
      if let f = m["format"], !["png", "jpg", "jpeg"].contains(f.lowercased()) {
        throw .unsupportedFormat(path: shown, format: f)
      }
      store = .mbtiles(reader)
      minZoom = m["minzoom"].flatMap { Int($0) }
      maxZoom = m["maxzoom"].flatMap { Int($0) }
      attribution = m["attribution"]
      // MBTiles is Web Mercator by definition.
      tileMatrixSet = .webMercatorQuad
    case .xyz(let shown, let resolved, let tms):
      store = .xyz(template: resolved, tms: tms)
      let root = TileSource.rootFolder(of: resolved)
      guard FileIO.canonicalPath(root.isEmpty ? "." : root) != nil else { throw .missing(path: TileSource.rootFolder(of: shown)) }
      let json = (root.isEmpty ? "" : root + "/") + "tiles.json"
      var meta: JSONObject? = nil
      var bytes: [UInt8]? = nil
      do {
        bytes = try FileIO.read(json)
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
      if case .string(let t)? = meta?["tileMatrixSet"] { tileMatrixSet = TileMatrixSet(rawValue: t) } else { tileMatrixSet = nil }
    }
  }

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
    case .mbtiles(let reader):
      guard let bytes = reader.tile(z: z, x: x, tmsY: matrixRows - 1 - y) else { return .absent }
      return .bytes(bytes)
    case .xyz(let template, let tms):
      let row = tms ? matrixRows - 1 - y : y
      let path = template.replacing("{z}", with: String(z)).replacing("{x}", with: String(x)).replacing("{y}", with: String(row))
      do {
        return .bytes(try FileIO.read(path))
      } catch {
        if case .notFound = error { return .absent }
        return .unreadable
      }
    }
  }
}
