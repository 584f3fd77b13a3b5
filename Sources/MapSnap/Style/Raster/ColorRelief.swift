/// The colour-relief layer's ramp: elevations (ascending) paired with premultiplied RGBA8
/// colours, read as MapLibre's shader reads its two stop textures. An elevation is found
/// between stops l and l + 1 by binary search, and the colour is the linear mix of the two
/// at the elevation's fraction of the way between them; below the first stop and above the
/// last, the end colours hold. The stops are either the `color-relief-color` expression's
/// own (for a linear `interpolate` on elevation) or the expression sampled at N elevations
/// between the DEM's minimum and maximum.
struct ColorRelief: Sendable {
  /// The stops' elevations in metres, ascending.
  let elevations: [Float]
  /// The stops' colours: premultiplied RGBA8, four bytes a stop.
  let colors: [UInt8]

  /// A ramp from parallel stops; nil when there are none, when `colors` is not four bytes a
  /// stop, or when the elevations are not ascending.
  init?(elevations: [Float], colors: [UInt8]) {
    guard !elevations.isEmpty, colors.count == elevations.count * 4 else { return nil }
    for i in 1..<max(elevations.count, 1) where !(elevations[i - 1] <= elevations[i]) { return nil }
    self.elevations = elevations
    self.colors = colors
  }

  /// The ramp MapLibre builds from `color-relief-color`: the stops of its `interpolate`
  /// on `elevation` (`stops`, labels ascending, colours straight RGBA 0…1, evaluated at each
  /// label; the interpolation between labels is always linear). No stops (a colour that is
  /// not such an `interpolate`) gives transparent; a single stop is repeated 1 m higher.
  static func interpolating(
    _ stops: [(elevation: Float, color: (r: Double, g: Double, b: Double, a: Double))]
  ) -> ColorRelief? {
    var stops = stops
    if stops.isEmpty { stops = [(0, (0, 0, 0, 0))] }
    if stops.count == 1 { stops.append((stops[0].elevation + 1, stops[0].color)) }
    return ColorRelief(elevations: stops.map(\.elevation), colors: stops.flatMap { premultipliedTexel($0.color) })
  }

  /// A ramp of `count` (≥ 2) stops evenly spaced from `minimum` to `maximum` metres, each
  /// the colour `evaluate` gives there (straight RGBA 0…1), stored to 8 bits and
  /// premultiplied as a texture upload does.
  static func sampled(
    minimum: Float, maximum: Float, count: Int, evaluate: (Float) -> (r: Double, g: Double, b: Double, a: Double)
  ) -> ColorRelief? {
    guard count >= 2, minimum <= maximum else { return nil }
    var elevations = [Float](), colors = [UInt8]()
    elevations.reserveCapacity(count)
    colors.reserveCapacity(count * 4)
    for i in 0..<count {
      let e = minimum + (maximum - minimum) * Float(i) / Float(count - 1)
      elevations.append(e)
      let c = evaluate(e)
      colors.append(contentsOf: ColorRelief.premultipliedTexel(c))
    }
    return ColorRelief(elevations: elevations, colors: colors)
  }

  /// A straight colour (0…1) as the premultiplied RGBA8 texel MapLibre's ramps hold: each
  /// channel floored to 8 bits, then multiplied by alpha and rounded.
  static func premultipliedTexel(_ c: (r: Double, g: Double, b: Double, a: Double)) -> [UInt8] {
    func floor8(_ v: Double) -> UInt32 { UInt32(min(max(v, 0), 1) * 255) }
    let a = floor8(c.a)
    return [
      UInt8((floor8(c.r) * a + 127) / 255), UInt8((floor8(c.g) * a + 127) / 255),
      UInt8((floor8(c.b) * a + 127) / 255), UInt8(a),
    ]
  }

  /// The ramp's colour at `elevation`, premultiplied, channels 0…255 as Floats.
  @inline(__always)
  func color(at elevation: Float) -> RasterRGBA {
    elevations.withUnsafeBufferPointer { e in
      colors.withUnsafeBufferPointer { c in ColorRelief.lookup(elevation, e, c) }
    }
  }

  @inline(__always)
  private static func lookup(_ el: Float, _ e: UnsafeBufferPointer<Float>, _ c: UnsafeBufferPointer<UInt8>) -> RasterRGBA {
    let n = e.count
    if n == 1 { return (Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3])) }
    var l = 0, r = n - 1
    while r - l > 1 {
      let m = (l + r) / 2
      if el < e[m] { r = m } else { l = m }
    }
    let span = e[r] - e[l]
    // Two stops at one elevation: the step happens there.
    let fraction = span > 0 ? (el - e[l]) / span : (el < e[l] ? 0 : 1)
    // The colour texture's linear filter, clamped at its ends (written so NaN lands on the first stop).
    let position = Float(l) + fraction
    let p = position > 0 ? (position < Float(n - 1) ? position : Float(n - 1)) : 0
    let i0 = min(Int(p), n - 2)
    let t = p - Float(i0)
    let a = i0 * 4, b = a + 4
    return (
      Float(c[a]) + (Float(c[b]) - Float(c[a])) * t, Float(c[a + 1]) + (Float(c[b + 1]) - Float(c[a + 1])) * t,
      Float(c[a + 2]) + (Float(c[b + 2]) - Float(c[a + 2])) * t, Float(c[a + 3]) + (Float(c[b + 3]) - Float(c[a + 3])) * t
    )
  }

  /// Colours every pixel of `dem` (dim × dim, the border left out) as premultiplied RGBA8,
  /// times `opacity` (`color-relief-opacity`, 0…1).
  func render(dem: DEMData, opacity: Double) -> [UInt8] {
    let dim = dem.dim, stride = dem.stride
    let o = rasterClamp01(Float(opacity))
    var out = [UInt8](repeating: 0, count: dim * dim * 4)
    out.withUnsafeMutableBufferPointer { op in
      dem.elevations.withUnsafeBufferPointer { grid in
        elevations.withUnsafeBufferPointer { e in
          colors.withUnsafeBufferPointer { c in
            for y in 0..<dim {
              let row = (y + 1) * stride + 1
              for x in 0..<dim {
                let v = ColorRelief.lookup(grid[row + x], e, c)
                let k = (y * dim + x) * 4
                op[k] = UInt8(v.0 * o + 0.5)
                op[k + 1] = UInt8(v.1 * o + 0.5)
                op[k + 2] = UInt8(v.2 * o + 0.5)
                op[k + 3] = UInt8(v.3 * o + 0.5)
              }
            }
          }
        }
      }
    }
    return out
  }
}
