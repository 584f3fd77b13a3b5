#if canImport(Glibc)
  import Glibc
#endif

/// One point of a heatmap layer, in the density buffer's pixels.
struct HeatmapPoint: Equatable, Sendable {
  /// The point's position; pixel (i, j) covers i…i + 1, j…j + 1, so its centre is at i + 0.5.
  var x: Float
  var y: Float
  /// `heatmap-radius` in the density buffer's pixels (the style's pixels × pixel ratio ÷
  /// the buffer's downscale).
  var radius: Float
  /// `heatmap-weight`.
  var weight: Float

  init(x: Float, y: Float, radius: Float, weight: Float) {
    self.x = x
    self.y = y
    self.radius = radius
    self.weight = weight
  }
}

/// The heatmap layer on the CPU, as MapLibre draws it: every point adds a Gaussian kernel
/// to a density buffer (additive blending into a float texture, which MapLibre makes a
/// quarter of the frame's size in each direction), then each frame pixel reads the density
/// (bilinearly, from the smaller buffer) and looks it up in the 256-entry `heatmap-color` ramp.
enum Heatmap {
  /// The Gaussian's normalising coefficient 1 / √(2π).
  static let gaussCoefficient: Float = 0.3989422804014327
  /// The kernel's value taken as zero: the kernel's square ends where the point's peak
  /// falls to this (one sixteenth of an 8-bit step, MapLibre's choice against seams where
  /// kernels overlap).
  static let zero: Float = 1.0 / 255.0 / 16.0
  /// The Gaussian's standard deviation is the radius / this, so the radius is three sigmas.
  static let sigmasPerRadius: Float = 3
  /// How many times smaller MapLibre's density buffer is than the frame in each direction.
  static let downscale = 4

  /// The half-side, in radii, of the square a point's kernel covers: where
  /// `weight · intensity · GAUSS · exp(−½·3²·s²)` falls to `zero`; 0 when the peak is
  /// already below it (the point adds nothing).
  static func extent(weight: Float, intensity: Float) -> Float {
    let peak = weight * intensity * gaussCoefficient
    guard peak > zero else { return 0 }
    return (-2 * log(zero / peak)).squareRoot() / sigmasPerRadius
  }

  /// Adds every point's kernel, in the order given, to rows `rows` of `density` (a
  /// `width × height` row-major buffer). The kernel at a pixel centre a distance d from the
  /// point is `weight · intensity · GAUSS · exp(−½·3²·(d/radius)²)`, over the square of
  /// half-side `extent · radius` (pixel centres in [x − e, x + e)). Each pixel sums its
  /// points in their order, so splitting the rows among threads gives the same bytes.
  static func accumulate(
    into density: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, rows: Range<Int>,
    points: UnsafeBufferPointer<HeatmapPoint>, intensity: Float
  ) {
    let rows = rows.clamped(to: 0..<height)
    guard !rows.isEmpty, width > 0, density.count >= width * height else { return }
    // One column factor per pixel of a kernel's span, reused across points.
    let columnFactors = UnsafeMutableBufferPointer<Float>.allocate(capacity: width)
    defer { columnFactors.deallocate() }
    let falloff = -0.5 * sigmasPerRadius * sigmasPerRadius
    for point in points {
      guard point.radius > 0, point.radius.isFinite, point.weight.isFinite, point.x.isFinite, point.y.isFinite
      else { continue }
      let s = extent(weight: point.weight, intensity: intensity)
      guard s > 0, s.isFinite else { continue }
      let half = s * point.radius
      // Pixels whose centres lie in [c − half, c + half), the bounds kept to the buffer
      // (and so to Int) before converting.
      func first(_ edge: Float, _ limit: Int) -> Int {
        Int(min(max((edge - 0.5).rounded(.up), -1), Float(limit) + 1))
      }
      let x0 = max(first(point.x - half, width), 0), x1 = min(first(point.x + half, width), width)
      let y0 = max(first(point.y - half, height), rows.lowerBound)
      let y1 = min(first(point.y + half, height), rows.upperBound)
      guard x0 < x1, y0 < y1 else { continue }
      let inverseRadius = 1 / point.radius
      let peak = point.weight * intensity * gaussCoefficient
      for x in x0..<x1 {
        let u = (Float(x) + 0.5 - point.x) * inverseRadius
        columnFactors[x] = exp(falloff * u * u)
      }
      for y in y0..<y1 {
        let v = (Float(y) + 0.5 - point.y) * inverseRadius
        let rowFactor = peak * exp(falloff * v * v)
        let base = y * width
        for x in x0..<x1 {
          density[base + x] += rowFactor * columnFactors[x]
        }
      }
    }
  }

  /// A `width × height` density buffer with every point added (see `accumulate`).
  static func density(width: Int, height: Int, points: [HeatmapPoint], intensity: Float) -> [Float] {
    var out = [Float](repeating: 0, count: max(width, 0) * max(height, 0))
    out.withUnsafeMutableBufferPointer { d in
      points.withUnsafeBufferPointer { p in
        accumulate(into: d, width: width, height: height, rows: 0..<height, points: p, intensity: intensity)
      }
    }
    return out
  }

  /// The 256-entry `heatmap-color` ramp (premultiplied RGBA8, four bytes an entry): entry
  /// i is `evaluate(i / 255)` (straight RGBA 0…1), stored as MapLibre's ramp texture holds it.
  static func colorRamp(_ evaluate: (Double) -> (r: Double, g: Double, b: Double, a: Double)) -> [UInt8] {
    var ramp = [UInt8]()
    ramp.reserveCapacity(256 * 4)
    for i in 0..<256 {
      ramp.append(contentsOf: ColorRelief.premultipliedTexel(evaluate(Double(i) / 255)))
    }
    return ramp
  }

  /// Colours rows `rows` of an `outWidth × outHeight` frame of premultiplied RGBA8 from a
  /// `width × height` density buffer covering the same frame: each pixel centre samples
  /// the density bilinearly (edges clamped), the value t looks up `ramp` (256 entries,
  /// linearly filtered at t · 256 − ½, clamped), and the colour is scaled by `opacity`
  /// (`heatmap-opacity`).
  static func colorize(
    density: UnsafeBufferPointer<Float>, width: Int, height: Int,
    into out: UnsafeMutableBufferPointer<UInt8>, outWidth: Int, outHeight: Int, rows: Range<Int>,
    ramp: UnsafeBufferPointer<UInt8>, opacity: Float
  ) {
    let rows = rows.clamped(to: 0..<outHeight)
    guard width > 0, height > 0, outWidth > 0, ramp.count >= 256 * 4,
      density.count >= width * height, out.count >= outWidth * outHeight * 4
    else { return }
    let o = rasterClamp01(opacity)
    // The ramp as Floats with the opacity applied, and each output column's two density
    // texels and weight, worked out once per call.
    let table = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256 * 4)
    defer { table.deallocate() }
    for i in 0..<(256 * 4) { table[i] = Float(ramp[i]) * o }
    let columnTexel = UnsafeMutableBufferPointer<Int>.allocate(capacity: outWidth)
    defer { columnTexel.deallocate() }
    let columnWeight = UnsafeMutableBufferPointer<Float>.allocate(capacity: outWidth)
    defer { columnWeight.deallocate() }
    let sx = Float(width) / Float(outWidth), sy = Float(height) / Float(outHeight)
    for x in 0..<outWidth {
      let fx = min(max((Float(x) + 0.5) * sx - 0.5, 0), Float(width - 1))
      let i0 = min(Int(fx), width - 1)
      columnTexel[x] = i0
      columnWeight[x] = fx - Float(i0)
    }
    for y in rows {
      let fy = min(max((Float(y) + 0.5) * sy - 0.5, 0), Float(height - 1))
      let j0 = min(Int(fy), height - 1), j1 = min(j0 + 1, height - 1)
      let ty = fy - Float(j0)
      let top = j0 * width, bottom = j1 * width
      var k = y * outWidth * 4
      for x in 0..<outWidth {
        let i0 = columnTexel[x], i1 = min(i0 + 1, width - 1), tx = columnWeight[x]
        let upper = density[top + i0] + (density[top + i1] - density[top + i0]) * tx
        let lower = density[bottom + i0] + (density[bottom + i1] - density[bottom + i0]) * tx
        let t = upper + (lower - upper) * ty
        // NaN and negatives land on the first entry.
        let position = t * 256 - 0.5
        let p = position > 0 ? (position < 255 ? position : 255) : 0
        let r0 = min(Int(p), 254)
        let f = p - Float(r0)
        let a = r0 * 4
        out[k] = UInt8(table[a] + (table[a + 4] - table[a]) * f + 0.5)
        out[k + 1] = UInt8(table[a + 1] + (table[a + 5] - table[a + 1]) * f + 0.5)
        out[k + 2] = UInt8(table[a + 2] + (table[a + 6] - table[a + 2]) * f + 0.5)
        out[k + 3] = UInt8(table[a + 3] + (table[a + 7] - table[a + 3]) * f + 0.5)
        k += 4
      }
    }
  }
}
