/// How a raster-dem tile's red, green and blue bytes encode an elevation in metres:
/// `r·red + g·green + b·blue − baseShift` (alpha is ignored).
enum DEMEncoding: Equatable, Sendable {
  /// Mapbox Terrain-RGB: (R·256² + G·256 + B)·0.1 − 10000.
  case mapbox
  /// Mapzen Terrarium: R·256 + G + B/256 − 32768.
  case terrarium
  /// The source's own `redFactor`, `greenFactor`, `blueFactor` and `baseShift`.
  case custom(red: Double, green: Double, blue: Double, baseShift: Double)

  /// The four factors (red, green, blue, base shift).
  var factors: (red: Double, green: Double, blue: Double, baseShift: Double) {
    switch self {
    case .mapbox: return (6553.6, 25.6, 0.1, 10000)
    case .terrarium: return (256, 1, 1.0 / 256, 32768)
    case let .custom(red, green, blue, baseShift): return (red, green, blue, baseShift)
    }
  }

  /// The elevation one pixel encodes, rounded once to the nearest Float.
  func elevation(r: UInt8, g: UInt8, b: UInt8) -> Float {
    let f = factors
    return Float(Double(r) * f.red + Double(g) * f.green + Double(b) * f.blue - f.baseShift)
  }
}

/// Why a DEM tile cannot be decoded or joined to a neighbour.
enum DEMDataError: Error, Equatable, Sendable {
  /// A DEM tile must be square.
  case notSquare(width: Int, height: Int)
  /// The byte count is not width × height × 4.
  case bufferSize(expected: Int, actual: Int)
  /// A neighbour's size differs from the tile's.
  case dimensionMismatch(tile: Int, neighbour: Int)

  /// The message for the run's report.
  var message: String {
    switch self {
    case let .notSquare(width, height): return "a raster-dem tile must be square, not \(width)×\(height)"
    case let .bufferSize(expected, actual): return "a raster-dem tile needs \(expected) bytes of RGBA, not \(actual)"
    case let .dimensionMismatch(tile, neighbour):
      return "a raster-dem neighbour of size \(neighbour) cannot border a tile of size \(tile)"
    }
  }
}

/// A raster-dem tile decoded to elevations (metres) with a one-pixel border around it,
/// so that the 3×3 slope kernel has neighbours at the tile's edges. The border first
/// repeats the tile's own edge pixels (corners included); `backfillBorder` then replaces
/// each side or corner with the adjoining row, column or pixel of a neighbouring tile.
struct DEMData: Sendable {
  /// The tile's size in pixels (its side, without the border).
  let dim: Int
  /// Elevations of `stride × stride` pixels, row-major, north row first; interior pixel
  /// (x, y) is at `(y + 1) · stride + x + 1`.
  private(set) var elevations: [Float]
  /// The lowest and highest elevations inside the tile (the border excluded).
  let minimum: Float
  let maximum: Float

  /// The side of the stored grid: the tile and its border.
  var stride: Int { dim + 2 }

  /// Decodes `rgba` (straight RGBA8 pixels of a square tile) with `encoding` and fills
  /// the border from the tile's own edges.
  init(rgba: [UInt8], width: Int, height: Int, encoding: DEMEncoding) throws(DEMDataError) {
    guard width == height, width > 0 else { throw .notSquare(width: width, height: height) }
    guard rgba.count == width * height * 4 else { throw .bufferSize(expected: width * height * 4, actual: rgba.count) }
    let dim = width, stride = width + 2
    let f = encoding.factors
    var low = Float.infinity, high = -Float.infinity
    var grid = [Float](repeating: 0, count: stride * stride)
    grid.withUnsafeMutableBufferPointer { out in
      rgba.withUnsafeBufferPointer { src in
        for y in 0..<dim {
          var s = y * dim * 4
          var o = (y + 1) * stride + 1
          for _ in 0..<dim {
            // Summed in Double so that the metre values round once, to the nearest Float.
            let e = Float(Double(src[s]) * f.red + Double(src[s + 1]) * f.green + Double(src[s + 2]) * f.blue - f.baseShift)
            out[o] = e
            low = min(low, e)
            high = max(high, e)
            s += 4
            o += 1
          }
        }
        // Sides repeat the nearest edge pixel; corners the nearest corner pixel.
        for i in 1...dim {
          out[i] = out[stride + i]
          out[(dim + 1) * stride + i] = out[dim * stride + i]
          out[i * stride] = out[i * stride + 1]
          out[i * stride + dim + 1] = out[i * stride + dim]
        }
        out[0] = out[stride + 1]
        out[dim + 1] = out[stride + dim]
        out[(dim + 1) * stride] = out[dim * stride + 1]
        out[(dim + 1) * stride + dim + 1] = out[dim * stride + dim]
      }
    }
    self.dim = dim
    self.elevations = grid
    self.minimum = low
    self.maximum = high
  }

  /// Decodes `tile` and backfills its border from whichever of its eight neighbours are
  /// given: `neighbours[dy + 1][dx + 1]` is the tile `dx` columns east and `dy` rows south
  /// (the middle entry is ignored). Missing neighbours leave the tile's own edge in place.
  init(
    rgba: [UInt8], width: Int, height: Int, encoding: DEMEncoding, neighbours: [[DEMData?]]
  ) throws(DEMDataError) {
    try self.init(rgba: rgba, width: width, height: height, encoding: encoding)
    for dy in -1...1 {
      for dx in -1...1 where dx != 0 || dy != 0 {
        guard dy + 1 < neighbours.count, dx + 1 < neighbours[dy + 1].count,
          let n = neighbours[dy + 1][dx + 1]
        else { continue }
        try backfillBorder(from: n, dx: dx, dy: dy)
      }
    }
  }

  /// The elevation at interior coordinates `x`, `y` in −1…dim (−1 and `dim` are the border).
  @inline(__always)
  func elevation(x: Int, y: Int) -> Float {
    elevations[(y + 1) * stride + x + 1]
  }

  /// Copies into this tile's border the pixels of `neighbour` that adjoin it: the
  /// neighbour lies `dx` tiles east (−1, 0, 1) and `dy` tiles south; a side neighbour
  /// gives one row or column, a diagonal one a single corner pixel.
  mutating func backfillBorder(from neighbour: DEMData, dx: Int, dy: Int) throws(DEMDataError) {
    guard neighbour.dim == dim else { throw .dimensionMismatch(tile: dim, neighbour: neighbour.dim) }
    guard (-1...1).contains(dx), (-1...1).contains(dy), dx != 0 || dy != 0 else { return }
    // The border cells to fill, in this tile's interior coordinates.
    let xs = dx == -1 ? -1 ..< 0 : dx == 1 ? dim ..< dim + 1 : 0 ..< dim
    let ys = dy == -1 ? -1 ..< 0 : dy == 1 ? dim ..< dim + 1 : 0 ..< dim
    let ox = -dx * dim, oy = -dy * dim
    let stride = self.stride
    neighbour.elevations.withUnsafeBufferPointer { src in
      elevations.withUnsafeMutableBufferPointer { dst in
        for y in ys {
          for x in xs {
            dst[(y + 1) * stride + x + 1] = src[(y + oy + 1) * stride + x + ox + 1]
          }
        }
      }
    }
  }
}
