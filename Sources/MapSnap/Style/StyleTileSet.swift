internal import _MapSnapStyle

/// The tiles of one style source, opened: where they are read from and the
/// zoom range, bounds and scheme that apply to them. A source's own keys
/// win over its TileJSON's (or MBTiles metadata's), which win over the
/// specification's defaults, as in MapLibre.
final class StyleTileSet {
  enum Store {
    case mbtiles(MBTilesReader)
    /// Resolved file templates with `{z}`, `{x}`, `{y}`; a tile is read from
    /// the first, as MapLibre reads from one of them.
    case files([String])
    /// http(s) URL templates, fetched through the HTTP cache.
    case urls([String], HTTPFetcher)
    case pmtiles(PMTilesArchive)
  }

  /// The fetcher for style resources: the shared one (its on-disk cache),
  /// or with `--offline` one that serves the cache and refuses the rest.
  static func fetcher(offline: Bool) -> HTTPFetcher { offline ? offlineFetcher : HTTPFetcher.shared }
  private static let offlineFetcher = HTTPFetcher(options: HTTPFetcher.Options(offline: true))

  /// The bytes at an http(s) URL, or the source error that says why not.
  static func fetch(_ url: String, offline: Bool) throws(StyleSourceError) -> [UInt8] {
    do {
      return try fetcher(offline: offline).get(url).body
    } catch {
      throw .network(url, reason: error.description)
    }
  }

  let store: Store
  let minzoom: Int
  let maxzoom: Int
  let isTMS: Bool
  let bounds: (west: Double, south: Double, east: Double, north: Double)
  let attribution: String?
  /// What the tile set was opened from, for messages and the report.
  let shown: String

  /// TileJSON documents and MBTiles metadata larger than this are refused.
  static let maximumTileJSONBytes = 16 << 20

  /// Opens `source`'s tiles; `styleFolder` and `localRoot` resolve its URLs.
  init(_ source: StyleSource, styleFolder: String, localRoot: String?, offline: Bool) throws(StyleSourceError) {
    var meta: [String: JSONValue] = [:]
    var templates = source.tiles
    var templateFolder = styleFolder
    var opened: Store? = nil
    var shown = source.tiles.first ?? ""
    if templates.isEmpty {
      guard let url = source.url else { throw .noTiles }
      shown = url
      switch try StyleResource.resolve(url, styleFolder: styleFolder, localRoot: localRoot) {
      case .mbtiles(let path):
        let reader: MBTilesReader
        do {
          reader = try MBTilesReader(path: path, shown: url)
        } catch {
          switch error {
          case .missing: throw .missing(url)
          default: throw .unreadable(url, reason: error.description)
          }
        }
        for (k, v) in reader.metadata { meta[k] = Self.metadataValue(k, v) }
        opened = .mbtiles(reader)
      case .pmtiles(let location):
        let archive: PMTilesArchive
        do {
          if location.hasPrefix("http://") || location.hasPrefix("https://") {
            archive = try PMTilesArchive(reader: HTTPRangeReader(url: location, fetcher: Self.fetcher(offline: offline)))
          } else {
            guard FileIO.exists(location) else { throw StyleSourceError.missing(url) }
            archive = try PMTilesArchive(reader: try FileRangeReader(path: location))
          }
        } catch let e as StyleSourceError {
          throw e
        } catch let e as PMTilesError {
          throw .unreadable(url, reason: e.message)
        } catch {
          throw .unreadable(url, reason: "\(error)")
        }
        let h = archive.header
        meta["minzoom"] = .number(Double(h.minZoom))
        meta["maxzoom"] = .number(Double(h.maxZoom))
        meta["bounds"] = .array([h.minLongitude, h.minLatitude, h.maxLongitude, h.maxLatitude].map(JSONValue.number))
        opened = .pmtiles(archive)
      case .http(let u):
        let bytes = try Self.fetch(u, offline: offline)
        guard case .object(let o)? = try? JSONParser.parse(bytes) else { throw .notTileJSON(url, reason: "not a JSON object") }
        for (k, v) in o.pairs { meta[k] = v }
        guard case .array(let t)? = meta["tiles"] else { throw .notTileJSON(url, reason: "no \"tiles\" array of URL templates") }
        templates = t.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
      case .file(let path):
        let bytes: [UInt8]
        do {
          bytes = try FileIO.read(path, maximumBytes: Self.maximumTileJSONBytes)
        } catch {
          if case .notFound = error { throw .missing(url) }
          throw .unreadable(url, reason: error.reason)
        }
        guard case .object(let o)? = try? JSONParser.parse(bytes) else { throw .notTileJSON(url, reason: "not a JSON object") }
        for (k, v) in o.pairs { meta[k] = v }
        guard case .array(let t)? = meta["tiles"] else { throw .notTileJSON(url, reason: "no \"tiles\" array of URL templates") }
        templates = t.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        templateFolder = FileIO.directory(of: path)
      }
    }
    if opened == nil {
      var files: [String] = []
      var urls: [String] = []
      for t in templates {
        switch try StyleResource.resolve(t, styleFolder: templateFolder, localRoot: localRoot) {
        case .file(let p): files.append(p)
        case .http(let u): urls.append(u)
        case .mbtiles(let p), .pmtiles(let p): throw .unsupportedScheme(p)
        }
      }
      if !files.isEmpty {
        opened = .files(files)
      } else if !urls.isEmpty {
        opened = .urls(urls, Self.fetcher(offline: offline))
      } else {
        throw .noTiles
      }
    }
    store = opened!
    self.shown = shown
    let own = source.json
    func zoom(_ key: String, _ fallback: Double) -> Int {
      let v: Double
      if case .number(let n)? = own[key] { v = n } else if case .number(let n)? = meta[key] { v = n } else { v = fallback }
      return Int(max(0, min(30, v.rounded(.down))))
    }
    minzoom = zoom("minzoom", 0)
    maxzoom = zoom("maxzoom", 22)
    if case .string(let s)? = own["scheme"] { isTMS = s == "tms" } else if case .string(let s)? = meta["scheme"] { isTMS = s == "tms" } else {
      isTMS = false
    }
    var b = source.bounds
    if own["bounds"] == nil, case .array(let a)? = meta["bounds"], a.count == 4 {
      let n = a.compactMap { v -> Double? in if case .number(let x) = v { return x } else { return nil } }
      if n.count == 4 { b = (n[0], n[1], n[2], n[3]) }
    }
    bounds = b
    if case .string(let a)? = own["attribution"] { attribution = a } else if case .string(let a)? = meta["attribution"] { attribution = a } else { attribution = nil }
  }

  /// MBTiles metadata values are text: numbers and the bounds list become JSON values.
  private static func metadataValue(_ key: String, _ text: String) -> JSONValue {
    switch key {
    case "minzoom", "maxzoom": return Double(text).map(JSONValue.number) ?? .string(text)
    case "bounds":
      let parts = text.split(separator: ",").compactMap { Double(String($0.filter { $0 != " " })) }
      return parts.count == 4 ? .array(parts.map(JSONValue.number)) : .string(text)
    default: return .string(text)
    }
  }

  /// Tile files larger than this are not tiles.
  static let maximumTileBytes = 64 << 20

  /// What reading one tile found.
  enum Read {
    case bytes([UInt8])
    case absent
    case unreadable(String)
  }

  /// The bytes of tile (`z`, `x`, `y`), row `y` counted from the north
  /// (MBTiles rows count from the south by definition, whatever `scheme` says).
  func read(z: Int, x: Int, y: Int) -> Read {
    let rows = 1 << z
    switch store {
    case .mbtiles(let reader):
      switch reader.tile(z: z, x: x, tmsY: rows - 1 - y) {
      case .bytes(let b): return .bytes(b)
      case .absent: return .absent
      case .failed: return .unreadable("SQLite could not read the tile")
      }
    case .pmtiles(let archive):
      do {
        guard let bytes = try archive.tile(z: z, x: x, y: y) else { return .absent }
        return .bytes(bytes)
      } catch {
        return .unreadable(error.message)
      }
    case .urls(let templates, let fetcher):
      let row = isTMS ? rows - 1 - y : y
      let url = templates[0].replacing("{z}", with: String(z)).replacing("{x}", with: String(x)).replacing("{y}", with: String(row))
      do {
        return .bytes(try fetcher.get(url).body)
      } catch {
        if case .status(_, 404) = error { return .absent }
        if case .status(_, 204) = error { return .absent }
        return .unreadable(error.description)
      }
    case .files(let templates):
      let row = isTMS ? rows - 1 - y : y
      let path = templates[0].replacing("{z}", with: String(z)).replacing("{x}", with: String(x)).replacing("{y}", with: String(row))
      do {
        return .bytes(try FileIO.read(path, maximumBytes: Self.maximumTileBytes))
      } catch {
        if case .notFound = error { return .absent }
        return .unreadable(error.reason)
      }
    }
  }
}
