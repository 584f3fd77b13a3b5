internal import _MapSnapRaster
internal import _MapSnapStyle

extension StyleSourceData {
  /// A GeoJSON source's tiles for the frame, made as MapLibre makes them
  /// (`GeoJSONIndex`): cut, simplified and rounded per tile, or clustered.
  struct GeoJSONTiles: Sendable {
    /// One tile: where it lands and its features' geometry (tile
    /// coordinates, `extent` across).
    struct Tile: Sendable {
      let id: StyleTileID
      /// The tile's square in device pixels, its corners on pixel
      /// boundaries (as a vector tile's, `StyleSourceData.Tile`).
      let square: [Point]
      let features: [GeoJSONTileFeature]
    }

    /// The features layers evaluate; `GeoJSONTileFeature.feature` indexes it.
    var features: [EvaluationFeature]
    var tiles: [Tile]
    /// Units across a GeoJSON tile.
    static let extent = 8192.0
  }

  /// GeoJSON documents larger than this are refused.
  static let maximumGeoJSONBytes = 512 << 20

  /// Reads a geojson source (inline `data`, or its path or URL), keeps the
  /// features its `filter` keeps, gives them their ids (`promoteId`,
  /// `generateId`) and makes the tiles the frame shows at its tile zoom.
  mutating func loadGeoJSON(_ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool) {
    var problems: [GeoJSONOptionProblem] = []
    let options = GeoJSONSourceOptions(source.json, path: JSONPath().key("sources").key(source.id), problems: &problems)
    notes += problems.map(\.description)
    guard let document = readGeoJSON(source, styleFolder: styleFolder, localRoot: localRoot, offline: offline) else { return }
    let collection: FeatureCollection
    do {
      collection = try GeoJSONDecoder.decodeDocument(document)
    } catch {
      record.problem = "\(record.from ?? "data"): \(error)"
      return
    }
    if collection.invalidCount > 0 {
      notes.append("\(source.path): \(collection.invalidCount) GeoJSON feature(s) skipped (\(collection.invalidSamples.first ?? "invalid geometry"))")
    }
    var index = GeoJSONIndex(options: options)
    let sqTolerance = index.preparationSqTolerance
    var kept = 0
    for f in collection.features {
      var properties: [String: StyleValue] = [:]
      properties.reserveCapacity(f.properties.count)
      for (k, v) in f.properties.pairs { properties[k] = StyleValue(json: v) }
      let g = f.geometry
      // A feature of several geometry types (a GeometryCollection) is one
      // feature per type, as geojson-vt splits it; they share its id.
      var parts: [(GeometryKind, Int)] = []
      if !g.polygons.isEmpty { parts.append((.polygon, g.polygons.count)) }
      if !g.lines.isEmpty { parts.append((.lineString, g.lines.count)) }
      if !g.points.isEmpty { parts.append((.point, g.points.count)) }
      guard let first = parts.first else { continue }
      var ef = EvaluationFeature(id: f.id.map(StyleValue.init(json:)), kind: first.0, isMulti: first.1 > 1, properties: properties)
      // The filter sees the feature as the document gives it, its own id included.
      guard options.keeps(ef) else { continue }
      ef.id = options.featureID(properties: properties, id: f.id, index: kept)
      kept += 1
      for (kind, count) in parts {
        ef.kind = kind
        ef.isMulti = count > 1
        let shape: GeoJSONShape
        switch kind {
        case .polygon: shape = .polygons(g.polygons.map { $0.map(Self.lonLat) }, sqTolerance: sqTolerance)
        case .lineString: shape = .lines(g.lines.map(Self.lonLat), sqTolerance: sqTolerance)
        default: shape = .points(Self.lonLat(g.points))
        }
        guard index.append(ef, shape) else {
          record.problem = "\(record.from ?? "data"): more than \(GeoJSONIndex.maximumPositions) positions; the source is not drawn"
          return
        }
      }
    }
    let z = index.tileZoom(for: camera.zoom)
    record.tileZoom = z
    record.overzoomed = Int(max(0, camera.zoom).rounded(.down)) > z
    guard let ids = camera.coveringTiles(zoom: z, bounds: (-180, -90, 180, 90)) else {
      record.problem = "the frame needs more than \(StyleCamera.maximumTiles) tiles at zoom \(z)"
      return
    }
    var keys: [GeoJSONTileKey] = []
    var slot: [GeoJSONTileKey: Int] = [:]
    for id in ids {
      let k = GeoJSONTileKey(x: id.wrappedX, y: id.y)
      if slot[k] == nil {
        slot[k] = keys.count
        keys.append(k)
      }
    }
    let made = index.tiles(z: z, keys: keys)
    var tiles: [GeoJSONTiles.Tile] = []
    for id in ids {
      let t = camera.transform(id, extent: 1)
      let square = [t.apply(0, 0), t.apply(1, 0), t.apply(1, 1), t.apply(0, 1)].map { Point($0.x.rounded(), $0.y.rounded()) }
      let features = made.tiles[slot[GeoJSONTileKey(x: id.wrappedX, y: id.y)]!]
      guard !features.isEmpty else { continue }
      tiles.append(GeoJSONTiles.Tile(id: id, square: square, features: features))
    }
    record.tilesRead = tiles.count
    geoJSON = GeoJSONTiles(features: made.features, tiles: tiles)
  }

  /// Longitude, latitude pairs of `points` (degrees).
  private static func lonLat(_ points: [Point]) -> [Double] {
    var out: [Double] = []
    out.reserveCapacity(points.count * 2)
    for p in points {
      out.append(p.x)
      out.append(p.y)
    }
    return out
  }

  /// The source's GeoJSON document: `data` itself, or the file or URL it
  /// names; nil with `record.problem` set when it cannot be read.
  private mutating func readGeoJSON(_ source: StyleSource, styleFolder: String, localRoot: String?, offline: Bool) -> JSONValue? {
    switch source.json["data"] {
    case .string(let url)?:
      record.from = url
      do {
        let bytes: [UInt8]
        switch try StyleResource.resolve(url, styleFolder: styleFolder, localRoot: localRoot) {
        case .file(let path):
          do {
            bytes = try FileIO.read(path, maximumBytes: Self.maximumGeoJSONBytes)
          } catch {
            if case .notFound = error { throw StyleSourceError.missing(url) }
            throw StyleSourceError.unreadable(url, reason: error.reason)
          }
        case .http(let u):
          bytes = try StyleTileSet.fetch(u, offline: offline)
        case .mbtiles(let p), .pmtiles(let p): throw StyleSourceError.unsupportedScheme(p)
        }
        do {
          return try JSONParser.parse(bytes)
        } catch {
          throw StyleSourceError.unreadable(url, reason: "not JSON: line \(error.line), column \(error.column): \(error.message)")
        }
      } catch let e as StyleSourceError {
        record.problem = e.description
      } catch {
        record.problem = "\(error)"
      }
      return nil
    case let v?:
      return v
    case nil:
      record.problem = "a geojson source needs \"data\" (GeoJSON, or its path or URL)"
      return nil
    }
  }
}
