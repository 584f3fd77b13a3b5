internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// One style source's data for a frame: the vector tiles the frame shows,
/// or a GeoJSON source's features, or why there is nothing.
struct StyleSourceData: Sendable {
  /// One decoded tile, with where it lands on the frame.
  struct Tile: Sendable {
    let id: StyleTileID
    let tile: VectorTile
    /// The tile's square in device pixels (north-west, north-east,
    /// south-east, south-west), its corners on pixel boundaries.
    let square: [Point]
    /// Its features as expressions read them, shared by the frame's layers.
    let evaluated = TileFeatureCache()
  }

  /// One raster tile (or a source `image`), decoded, and the device
  /// rectangle it covers.
  struct Picture: Sendable {
    /// Straight RGBA, as decoded.
    let image: DecodedImage
    let rect: Rect
  }

  var record: StyleSourceRecord
  var tiles: [Tile] = []
  /// A raster or image source's pictures, in drawing order.
  var pictures: [Picture] = []
  /// A GeoJSON source's features, in Web Mercator metres.
  var features: FeatureCollection?
  /// A raster-dem source's tiles, decoded to elevations (`loadDEM`).
  var dems: [DEMTile] = []

  /// Reads `source` for the frame of `camera`.
  init(_ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool) {
    record = StyleSourceRecord(id: source.id, type: source.typeName)
    switch source.kind {
    case .vector?:
      loadTiles(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    case .geojson?:
      loadGeoJSON(source, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    case .raster?:
      loadTiles(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline, raster: true)
    case .image?:
      loadImage(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    case .rasterDEM?:
      loadDEM(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
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

  /// The tile zoom a raster source draws at MapLibre zoom `zoom`: the zoom
  /// at which its tiles (`tileSize` pixels) are closest to their own size,
  /// rounded as MapLibre rounds it for raster sources, within its range.
  static func rasterTileZoom(for zoom: Double, tileSize: Double, minzoom: Int, maxzoom: Int) -> Int? {
    let z = Int((zoom + log2(512 / tileSize)).rounded())
    if z < minzoom { return nil }
    return max(0, min(z, maxzoom))
  }

  private mutating func loadTiles(
    _ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool, raster: Bool = false
  ) {
    let set: StyleTileSet
    do {
      set = try StyleTileSet(source, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    } catch {
      record.problem = error.description
      return
    }
    record.from = set.shown
    let wanted = raster
      ? Self.rasterTileZoom(for: camera.zoom, tileSize: source.tileSize, minzoom: set.minzoom, maxzoom: 30)
      : Self.tileZoom(for: camera.zoom, minzoom: set.minzoom, maxzoom: 30)
    guard let wanted else { return }
    let z = min(wanted, set.maxzoom)
    record.tileZoom = z
    record.overzoomed = z < wanted
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
      case .bytes(let raw) where raster:
        let t = camera.transform(id, extent: 1)
        let a = t.apply(0, 0), b = t.apply(1, 1)
        guard let image = Self.picture(raw) else {
          undecodable(id, "not a PNG or JPEG image")
          continue
        }
        pictures.append(Picture(image: image, rect: Rect(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y))))
        record.tilesRead += 1
      case .bytes(let raw):
        do {
          let bytes = try Inflate.ifCompressed(raw, limit: Inflate.tileLimit)
          let tile = try VectorTile(bytes: bytes)
          let t = camera.transform(id, extent: 1)
          // Each pixel belongs to the tile its centre lies in, as a stencil
          // decides it: the square's corners on pixel boundaries, shared by
          // neighbouring tiles, so no seam shows where they meet.
          let square = [t.apply(0, 0), t.apply(1, 0), t.apply(1, 1), t.apply(0, 1)].map { Point($0.x.rounded(), $0.y.rounded()) }
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

  mutating func undecodable(_ id: StyleTileID, _ why: String) {
    record.tilesUndecodable += 1
    if record.firstUndecodable == nil { record.firstUndecodable = "\(id.z)/\(id.wrappedX)/\(id.y): \(why)" }
  }

  /// The most pixels a raster tile or source image may have (a 4096² image).
  static let maximumPicturePixels = 4096 * 4096

  /// A PNG or JPEG (by its signature), decoded.
  static func picture(_ bytes: [UInt8]) -> DecodedImage? {
    let d: DecodedImage
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      guard let x = try? PNGDecoder.decode(bytes, maximumPixels: maximumPicturePixels) else { return nil }
      d = x
    } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
      guard let x = try? JPEGDecoder.decode(bytes, maximumPixels: maximumPicturePixels) else { return nil }
      d = x
    } else {
      return nil
    }
    return d
  }

  /// An `image` source: one picture over the box of its `coordinates`
  /// (top left, top right, bottom right, bottom left, in degrees).
  private mutating func loadImage(_ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool) {
    guard case .string(let url)? = source.json["url"] else {
      record.problem = "an image source needs \"url\""
      return
    }
    record.from = url
    guard case .array(let corners)? = source.json["coordinates"], corners.count == 4 else {
      record.problem = "an image source needs \"coordinates\": four [lon, lat] corners"
      return
    }
    var pts: [Point] = []
    for c in corners {
      guard case .array(let ll) = c, ll.count == 2, case .number(let lon) = ll[0], case .number(let lat) = ll[1] else {
        record.problem = "an image source's \"coordinates\" are four [lon, lat] corners"
        return
      }
      pts.append(camera.device(WebMercator.project(lon: lon, lat: lat)))
    }
    let bytes: [UInt8]
    do {
      switch try StyleResource.resolve(url, styleFolder: styleFolder, localRoot: localRoot) {
      case .file(let path):
        do {
          bytes = try FileIO.read(path, maximumBytes: StyleTileSet.maximumTileBytes)
        } catch {
          if case .notFound = error { throw StyleSourceError.missing(url) }
          throw StyleSourceError.unreadable(url, reason: error.reason)
        }
      case .http(let u): bytes = try StyleTileSet.fetch(u, offline: offline)
      case .mbtiles(let p), .pmtiles(let p): throw StyleSourceError.unsupportedScheme(p)
      }
    } catch let e as StyleSourceError {
      record.problem = e.description
      return
    } catch {
      record.problem = "\(error)"
      return
    }
    guard let image = Self.picture(bytes) else {
      record.problem = "\(url): not a PNG or JPEG image"
      return
    }
    let xs = pts.map(\.x), ys = pts.map(\.y)
    pictures.append(Picture(image: image, rect: Rect(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)))
    record.tilesRead = 1
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
        case .http(let u):
          let bytes = try StyleTileSet.fetch(u, offline: offline)
          do {
            document = try JSONParser.parse(bytes)
          } catch {
            throw StyleSourceError.unreadable(url, reason: "not JSON: line \(error.line), column \(error.column): \(error.message)")
          }
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
