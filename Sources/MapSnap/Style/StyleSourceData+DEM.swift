internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

extension StyleSourceData {
  /// One raster-dem tile of the frame: its elevations, the border filled
  /// from the neighbouring tiles the frame reads.
  struct DEMTile: Sendable {
    /// The tile read: the source's zoom, at most its `maxzoom`; `x` beyond
    /// the world's columns for its copies.
    let id: StyleTileID
    let dem: DEMData

    /// The latitudes (degrees) of the tile's north and south edges.
    var latitudes: (north: Double, south: Double) {
      let n = Double(1 << id.z)
      func lat(_ row: Double) -> Double { atan(sinh(.pi * (1 - 2 * row / n))) * 180 / .pi }
      return (lat(Double(id.y)), lat(Double(id.y + 1)))
    }
  }

  /// The encoding a raster-dem source names: `mapbox` (the default),
  /// `terrarium`, or `custom` with its `redFactor`, `greenFactor`,
  /// `blueFactor` (each 1 when not given) and `baseShift` (0); nil for any
  /// other name.
  static func demEncoding(_ source: StyleSource) -> DEMEncoding? {
    func factor(_ key: String, _ fallback: Double) -> Double {
      if case .number(let n)? = source.json[key], n.isFinite { return n }
      return fallback
    }
    switch source.encoding {
    case "mapbox": return .mapbox
    case "terrarium": return .terrarium
    case "custom":
      return .custom(red: factor("redFactor", 1), green: factor("greenFactor", 1), blue: factor("blueFactor", 1), baseShift: factor("baseShift", 0))
    default: return nil
    }
  }

  /// A raster-dem source's tiles for the frame, read as a raster source's
  /// are (its `tileSize`, 512 by default, picks the zoom; past `maxzoom` the
  /// deepest tiles are drawn larger), each decoded once (copies of the world
  /// share it) and its one-pixel border filled from whichever of its eight
  /// neighbours the frame reads, across the antimeridian too, as MapLibre
  /// backfills a DEM from the tiles it holds; a border without a neighbour
  /// repeats the tile's own edge. A tile that does not decode (not a PNG or
  /// JPEG image, not square) is counted undecodable.
  mutating func loadDEM(_ source: StyleSource, camera: StyleCamera, styleFolder: String, localRoot: String?, offline: Bool) {
    guard let encoding = Self.demEncoding(source) else {
      record.problem = "encoding: \(Echo.quoted(source.encoding)) is not a raster-dem encoding (expected \"mapbox\", \"terrarium\" or \"custom\")"
      return
    }
    guard let (set, ids) = frameTiles(source, camera: camera, styleFolder: styleFolder, localRoot: localRoot, offline: offline, raster: true),
      let z = ids.first?.z
    else { return }
    // Each tile of the world once, by its wrapped column.
    var decoded: [StyleTileID: DEMData] = [:]
    var tried: Set<StyleTileID> = []
    for id in ids {
      let key = StyleTileID(z: z, x: id.wrappedX, y: id.y)
      guard tried.insert(key).inserted else { continue }
      switch set.read(z: z, x: key.x, y: key.y) {
      case .absent:
        record.tilesMissing += 1
      case .unreadable(let why):
        undecodable(id, why)
      case .bytes(let raw):
        guard let image = Self.picture(raw) else {
          undecodable(id, "not a PNG or JPEG image")
          continue
        }
        do {
          decoded[key] = try DEMData(rgba: image.pixels, width: image.width, height: image.height, encoding: encoding)
          record.tilesRead += 1
        } catch {
          undecodable(id, error.message)
        }
      }
    }
    let columns = 1 << z
    var filled: [StyleTileID: DEMData] = [:]
    for (key, dem) in decoded {
      var d = dem
      for dy in -1...1 {
        for dx in -1...1 where dx != 0 || dy != 0 {
          let ny = key.y + dy
          guard ny >= 0, ny < columns else { continue }
          let neighbour = StyleTileID(z: z, x: ((key.x + dx) % columns + columns) % columns, y: ny)
          // A neighbour of another size keeps the edge-replicated border.
          if let n = decoded[neighbour] { try? d.backfillBorder(from: n, dx: dx, dy: dy) }
        }
      }
      filled[key] = d
    }
    for id in ids {
      guard let dem = filled[StyleTileID(z: z, x: id.wrappedX, y: id.y)] else { continue }
      dems.append(DEMTile(id: id, dem: dem))
    }
  }
}
