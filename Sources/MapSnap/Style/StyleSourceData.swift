internal import _MapSnapRaster
internal import _MapSnapStyle

/// One style source's data for a frame: the vector tiles the frame shows,
/// or a GeoJSON source's features, or why there is nothing.
struct StyleSourceData: Sendable {
  /// One decoded tile, with where it lands on the frame.
  struct Tile: Sendable {
    let id: StyleTileID
    let tile: VectorTile
    /// The tile's square in device pixels (north-west, north-east,
    /// south-east, south-west).
    let square: [Point]
  }

  var record: StyleSourceRecord
  var tiles: [Tile] = []
  /// A GeoJSON source's features, in Web Mercator metres.
  var features: FeatureCollection?

  /// Reads `source` for the frame of `camera`.
  init(_ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool) {
    record = StyleSourceRecord(id: source.id, type: source.typeName)
    switch source.kind {
    case .vector?:
      loadTiles(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    case .geojson?:
      loadGeoJSON(source, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    default:
      record.problem = StyleSourceError.unsupportedType(source.typeName).description
    }
  }

  /// The tile zoom a vector source draws at MapLibre zoom `zoom`: the
  /// zoom's whole part, at most the source's `maxzoom` (deeper frames draw
  /// its deepest tiles larger); nil below its `minzoom`.
  static func tileZoom(for zoom: Double, minzoom: Int, maxzoom: Int) -> Int? {
    let z = Int(max(0, zoom).rounded(.down))
    if z < minzoom { return nil }
    return min(z, maxzoom)
  }

  private mutating func loadTiles(_ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool) {
    let set: StyleTileSet
    do {
      set = try StyleTileSet(source, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    } catch {
      record.problem = error.description
      return
    }
    record.from = set.shown
    guard let z = Self.tileZoom(for: camera.zoom, minzoom: set.minzoom, maxzoom: set.maxzoom) else { return }
    record.tileZoom = z
    record.overzoomed = Double(z) < camera.zoom.rounded(.down)
    guard let ids = camera.coveringTiles(zoom: z, bounds: set.bounds) else {
      record.problem = "the frame needs more than \(StyleCamera.maximumTiles) tiles at zoom \(z)"
      return
    }
    for id in ids {
      switch set.read(z: id.z, x: id.wrappedX, y: id.y) {
      case .absent:
        record.tilesMissing += 1
      case .unreadable(let why):
        undecodable(id, why)
      case .bytes(let raw):
        do {
          let bytes = try Inflate.ifCompressed(raw, limit: Inflate.tileLimit)
          let tile = try VectorTile(bytes: bytes)
          let t = camera.transform(id, extent: 1)
          let square = [t.apply(0, 0), t.apply(1, 0), t.apply(1, 1), t.apply(0, 1)]
          tiles.append(Tile(id: id, tile: tile, square: square))
          record.tilesRead += 1
        } catch let e as InflateError {
          undecodable(id, e.description)
        } catch let e as VectorTileError {
          undecodable(id, e.description)
        } catch {
          undecodable(id, "\(error)")
        }
      }
    }
  }

  private mutating func undecodable(_ id: StyleTileID, _ why: String) {
    record.tilesUndecodable += 1
    if record.firstUndecodable == nil { record.firstUndecodable = "\(id.z)/\(id.wrappedX)/\(id.y): \(why)" }
  }

  /// GeoJSON documents larger than this are refused.
  static let maximumGeoJSONBytes = 512 << 20

  private mutating func loadGeoJSON(_ source: StyleSource, styleFolder: String, localRoot: String?, offline: Bool) {
    let document: JSONValue
    switch source.json["data"] {
    case .string(let url)?:
      record.from = url
      do {
        switch try StyleResource.resolve(url, styleFolder: styleFolder, localRoot: localRoot) {
        case .file(let path):
          let bytes: [UInt8]
          do {
            bytes = try FileIO.read(path, maximumBytes: Self.maximumGeoJSONBytes)
          } catch {
            if case .notFound = error { throw StyleSourceError.missing(url) }
            throw StyleSourceError.unreadable(url, reason: error.reason)
          }
          do {
            document = try JSONParser.parse(bytes)
          } catch {
            throw StyleSourceError.unreadable(url, reason: "not JSON: line \(error.line), column \(error.column): \(error.message)")
          }
        case .http(let u): throw StyleSourceError.network(u, reason: offline ? "refused by --offline" : "http(s) data is not fetched yet")
        case .mbtiles(let p), .pmtiles(let p): throw StyleSourceError.unsupportedScheme(p)
        }
      } catch let e as StyleSourceError {
        record.problem = e.description
        return
      } catch {
        record.problem = "\(error)"
        return
      }
    case let v?:
      document = v
    case nil:
      record.problem = "a geojson source needs \"data\" (GeoJSON, or its path or URL)"
      return
    }
    do {
      features = try GeoJSONDecoder.decodeDocument(document).projected(to: .webMercator)
    } catch {
      record.problem = "\(record.from ?? "data"): \(error)"
    }
  }
}

extension EvaluationFeature {
  /// What expressions read of a GeoJSON feature: its id, geometry type and
  /// properties.
  init(geoJSON f: Feature) {
    let g = f.geometry
    let kind: GeometryKind
    let parts: Int
    if !g.polygons.isEmpty {
      kind = .polygon
      parts = g.polygons.count
    } else if !g.lines.isEmpty {
      kind = .lineString
      parts = g.lines.count
    } else if !g.points.isEmpty {
      kind = .point
      parts = g.points.count
    } else {
      kind = .unknown
      parts = 0
    }
    var properties: [String: StyleValue] = [:]
    properties.reserveCapacity(f.properties.count)
    for (k, v) in f.properties.pairs { properties[k] = StyleValue(json: v) }
    self.init(id: f.id.map(StyleValue.init(json:)), kind: kind, isMulti: parts > 1, properties: properties)
  }
}
