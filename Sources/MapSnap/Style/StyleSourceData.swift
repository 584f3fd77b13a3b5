internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// One style source's data for a frame: the vector tiles the frame shows,
/// or a GeoJSON source's tiles, or why there is nothing.
struct StyleSourceData: Sendable {
  /// One decoded tile, with where it lands on the frame.
  struct Tile: Sendable {
    let id: StyleTileID
    let tile: VectorTile
    /// The tile's square in device pixels (north-west, north-east,
    /// south-east, south-west), its corners on pixel boundaries.
    let square: [Point]
    /// What frames learned of its features, shared by the layers of this
    /// frame and of the frames after (`StyleTileCache`).
    let features: TileFeatureCache
  }

  /// One raster tile (or a source `image`), decoded, and where its corners
  /// land on the frame.
  struct Picture: Sendable {
    /// Straight RGBA, as decoded.
    let image: DecodedImage
    /// The image's corners on the frame: top-left, top-right, bottom-right,
    /// bottom-left (device pixels).
    let corners: [Point]
  }

  var record: StyleSourceRecord
  var tiles: [Tile] = []
  /// A raster or image source's pictures, in drawing order.
  var pictures: [Picture] = []
  /// A GeoJSON source's tiles (`StyleSourceData+GeoJSON`).
  var geoJSON: GeoJSONTiles?
  /// Findings about the source that do not stop it (its options, features skipped).
  var notes: [String] = []
  /// A raster-dem source's tiles, decoded to elevations (`loadDEM`).
  var dems: [DEMTile] = []

  /// Reads `source` for the frame of `camera`; a vector source's tiles
  /// come from `tiles` when an earlier frame decoded them.
  init(_ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool, tiles kept: StyleTileCache = StyleTileCache()) {
    record = StyleSourceRecord(id: source.id, type: source.typeName)
    switch source.kind {
    case .vector?:
      loadTiles(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline, kept: kept)
    case .geojson?:
      loadGeoJSON(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
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

  /// The tiles of `source` the frame shows: its tile set and the ids
  /// covering the frame at the zoom it reads (a raster or raster-dem
  /// source's by `rasterTileZoom`, a vector source's by `tileZoom`; past
  /// its `maxzoom`, its deepest, drawn larger), written in the record. Nil
  /// when there are none: below its `minzoom`, or with the record's problem.
  mutating func frameTiles(
    _ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool, raster: Bool
  ) -> (set: StyleTileSet, ids: [StyleTileID])? {
    let set: StyleTileSet
    do {
      set = try StyleTileSet(source, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    } catch {
      record.problem = error.description
      return nil
    }
    record.from = set.shown
    let wanted = raster
      ? Self.rasterTileZoom(for: camera.zoom, tileSize: source.tileSize, minzoom: set.minzoom, maxzoom: 30)
      : Self.tileZoom(for: camera.zoom, minzoom: set.minzoom, maxzoom: 30)
    guard let wanted else { return nil }
    let z = min(wanted, set.maxzoom)
    record.tileZoom = z
    record.overzoomed = z < wanted
    guard let ids = camera.coveringTiles(zoom: z, bounds: set.bounds) else {
      record.problem = "the frame needs more than \(StyleCamera.maximumTiles) tiles at zoom \(z)"
      return nil
    }
    return (set, ids)
  }

  private mutating func loadTiles(
    _ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool, raster: Bool = false,
    kept: StyleTileCache? = nil
  ) {
    guard let (set, ids) = frameTiles(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline, raster: raster) else {
      return
    }
    let setKey = styleFolder + "\u{1}" + set.shown + "\u{1}" + (localRoot ?? "")
    for id in ids {
      let key = StyleTileCache.Key(set: setKey, z: id.z, x: id.wrappedX, y: id.y)
      if let kept, let hit = kept.tile(key) {
        tiles.append(Tile(id: id, tile: hit.tile, square: Self.square(camera, id), features: hit.features))
        record.tilesRead += 1
        continue
      }
      switch set.read(z: id.z, x: id.wrappedX, y: id.y) {
      case .absent:
        record.tilesMissing += 1
      case .unreadable(let why):
        undecodable(id, why)
      case .bytes(let raw) where raster:
        let t = camera.transform(id, extent: 1)
        guard let image = Self.picture(raw) else {
          undecodable(id, "not a PNG or JPEG image")
          continue
        }
        pictures.append(Picture(image: image, corners: [t.apply(0, 0), t.apply(1, 0), t.apply(1, 1), t.apply(0, 1)]))
        record.tilesRead += 1
      case .bytes(let raw):
        do {
          let bytes = try Inflate.ifCompressed(raw, limit: Inflate.tileLimit)
          let tile = try VectorTile(bytes: bytes)
          let entry = kept?.keep(key, tile) ?? StyleTileCache.Entry(tile: tile, features: TileFeatureCache())
          tiles.append(Tile(id: id, tile: entry.tile, square: Self.square(camera, id), features: entry.features))
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

  /// Tile `id`'s square on the frame. Each pixel belongs to the tile its
  /// centre lies in, as a stencil decides it: the square's corners on pixel
  /// boundaries, shared by neighbouring tiles, so no seam shows where they
  /// meet.
  static func square(_ camera: StyleCamera, _ id: StyleTileID) -> [Point] {
    let t = camera.transform(id, extent: 1)
    return [t.apply(0, 0), t.apply(1, 0), t.apply(1, 1), t.apply(0, 1)].map { Point($0.x.rounded(), $0.y.rounded()) }
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
    pictures.append(Picture(image: image, corners: pts))
    record.tilesRead = 1
  }
}
