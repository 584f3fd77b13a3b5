#if canImport(Glibc)
  import Glibc
#endif

/// `hillshade-method`: how a slope and its aspect become a colour.
enum HillshadeMethod: String, Sendable, CaseIterable {
  /// MapLibre's own: accent by slope, shadow-to-highlight by aspect, eased by exaggeration.
  case standard
  /// GDAL's default hillshade: the cosine of the angle to the light.
  case basic
  /// GDAL's combined: that angle weighted by the slope.
  case combined
  /// GDAL's Igor: slope times how far the aspect faces away from the light.
  case igor
  /// The basic method averaged over every light.
  case multidirectional
}

/// One light of a hillshade layer, with colours as straight (not premultiplied) RGBA 0…1.
struct HillshadeLight: Equatable, Sendable {
  /// The light's azimuth in radians, clockwise from north, with the map's bearing already
  /// added when `hillshade-illumination-anchor` is `viewport`.
  var azimuth: Double
  /// `hillshade-illumination-altitude` in radians (not used by the standard method).
  var altitude: Double
  /// `hillshade-shadow-color`.
  var shadow: (r: Double, g: Double, b: Double, a: Double)
  /// `hillshade-highlight-color`.
  var highlight: (r: Double, g: Double, b: Double, a: Double)

  init(
    azimuth: Double, altitude: Double = 45 * .pi / 180,
    shadow: (r: Double, g: Double, b: Double, a: Double) = (0, 0, 0, 1),
    highlight: (r: Double, g: Double, b: Double, a: Double) = (1, 1, 1, 1)
  ) {
    self.azimuth = azimuth
    self.altitude = altitude
    self.shadow = shadow
    self.highlight = highlight
  }

  static func == (l: HillshadeLight, r: HillshadeLight) -> Bool {
    l.azimuth == r.azimuth && l.altitude == r.altitude && l.shadow == r.shadow && l.highlight == r.highlight
  }
}

/// The hillshade layer's two passes on the CPU: the prepare pass turns a DEM tile into a
/// per-pixel surface gradient, and the shading pass turns gradients into premultiplied
/// colour, as MapLibre's `hillshade_prepare` and `hillshade` shaders do.
struct Hillshade: Sendable {
  var method: HillshadeMethod = .standard
  /// `hillshade-exaggeration`, 0…1.
  var exaggeration: Double = 0.5
  /// `hillshade-accent-color`, straight RGBA 0…1 (the standard method only).
  var accent: (r: Double, g: Double, b: Double, a: Double) = (0, 0, 0, 1)
  /// The lights; the methods other than `multidirectional` use the first only. Never empty.
  var lights: [HillshadeLight] = [HillshadeLight(azimuth: 335 * .pi / 180)]

  /// log2 of eight times the circumference of the earth in metres (WGS 84 equator,
  /// 40075016.6855785 m): `tileSize · 2^zoom / 2^this` is 1 / (8 · metres per pixel), the
  /// factor that turns the 3×3 kernel's sum into a gradient.
  static let eightCircumferenceLog2 = 28.2562

  /// The gradients the prepare pass stores are clamped to ±this (its 0…1 texture holds
  /// `gradient / 8 + 0.5`), a slope of 76°.
  static let gradientLimit: Float = 4

  /// The standard method steepens the gradient by this arbitrary z-factor before taking
  /// its angle.
  static let standardZFactor: Float = 0.625

  /// The prepare pass's vertical exaggeration at tile zoom `zoom`: below zoom 15 (the
  /// highest zoom of Mapbox terrain tiles) slopes are steepened by `2^((15 − zoom) · k)`,
  /// with k = 0.4 below zoom 2, 0.35 below 4.5 and 0.3 above, so relief stays visible
  /// when zoomed out.
  static func zoomExaggeration(zoom: Double) -> Double {
    let factor = zoom < 2 ? 0.4 : zoom < 4.5 ? 0.35 : 0.3
    return zoom < 15 ? (zoom - 15) * factor : 0
  }

  /// The prepare pass: for every pixel of `dem` (dim × dim), its east and south gradients
  /// (rise over run, metres per metre, positive when the ground climbs eastward or
  /// southward) as interleaved pairs, from the 3×3 Sobel kernel divided by 8 × the pixel
  /// size at tile zoom `zoom`, exaggerated by `zoomExaggeration`, clamped to ±`gradientLimit`.
  static func gradients(dem: DEMData, zoom: Double) -> [Float] {
    let dim = dem.dim, stride = dem.stride
    let scale = Float(Double(dim) / pow(2, zoomExaggeration(zoom: zoom) + eightCircumferenceLog2 - zoom))
    let limit = gradientLimit
    var out = [Float](repeating: 0, count: dim * dim * 2)
    out.withUnsafeMutableBufferPointer { o in
      dem.elevations.withUnsafeBufferPointer { e in
        for y in 0..<dim {
          // Rows y − 1, y, y + 1 of the interior are rows y, y + 1, y + 2 of the grid.
          let up = y * stride, mid = up + stride, down = mid + stride
          for x in 0..<dim {
            let a = e[up + x], b = e[up + x + 1], c = e[up + x + 2]
            let d = e[mid + x], f = e[mid + x + 2]
            let g = e[down + x], h = e[down + x + 1], i = e[down + x + 2]
            let dx = ((c + f + f + i) - (a + d + d + g)) * scale
            let dy = ((g + h + h + i) - (a + b + b + c)) * scale
            let k = (y * dim + x) * 2
            o[k] = min(max(dx, -limit), limit)
            o[k + 1] = min(max(dy, -limit), limit)
          }
        }
      }
    }
    return out
  }

  /// Shades `dem` as a dim × dim tile of premultiplied RGBA8 pixels. `zoom` is the tile's
  /// (overscaled) zoom; `latitudes` the latitudes of the tile's north and south edges in
  /// degrees, whose cosine, interpolated down the tile, divides the gradients to undo the
  /// Mercator stretch.
  func shade(dem: DEMData, zoom: Double, latitudes: (north: Double, south: Double)) -> [UInt8] {
    let dim = dem.dim
    let grad = Hillshade.gradients(dem: dem, zoom: zoom)
    var out = [UInt8](repeating: 0, count: dim * dim * 4)
    let kernel = HillshadeKernel(self)
    grad.withUnsafeBufferPointer { gp in
      out.withUnsafeMutableBufferPointer { op in
        for y in 0..<dim {
          let v = (Double(y) + 0.5) / Double(dim)
          let lat = (latitudes.north - latitudes.south) * (1 - v) + latitudes.south
          let inverseCos = Float(1 / cos(lat * .pi / 180))
          for x in 0..<dim {
            let k = y * dim + x
            let c = kernel.color(dx: gp[k * 2] * inverseCos, dy: gp[k * 2 + 1] * inverseCos)
            let a = rasterClamp01(c.3)
            op[k * 4] = RasterPaint.unorm8(min(c.0, a))
            op[k * 4 + 1] = RasterPaint.unorm8(min(c.1, a))
            op[k * 4 + 2] = RasterPaint.unorm8(min(c.2, a))
            op[k * 4 + 3] = RasterPaint.unorm8(a)
          }
        }
      }
    }
    return out
  }
}
