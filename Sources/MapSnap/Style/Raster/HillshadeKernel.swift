#if canImport(Glibc)
  import Glibc
#endif

/// A premultiplied RGBA colour as four Floats.
typealias RasterRGBA = (Float, Float, Float, Float)

/// The per-pixel half of a hillshade: one gradient in, one premultiplied colour out, with
/// the layer's uniforms (premultiplied colours, the light's sines and cosines) worked out
/// once. Every method turns the light's azimuth by π, as MapLibre's shader does, so that a
/// direction measured clockwise from north lights the slopes facing it.
struct HillshadeKernel {
  private let method: HillshadeMethod
  private let intensity: Float
  private let accent: RasterRGBA
  private let shadows: [RasterRGBA]
  private let highlights: [RasterRGBA]
  /// Per light: the azimuth turned by π, its cosine and sine, and the altitude's cosine and sine.
  private let azimuths: [Float]
  private let cosAzimuths: [Float]
  private let sinAzimuths: [Float]
  private let cosAltitudes: [Float]
  private let sinAltitudes: [Float]
  /// The first light's colours and turned azimuth, for the single-light methods.
  private let shadow: RasterRGBA
  private let highlight: RasterRGBA
  private let azimuth: Float

  init(_ h: Hillshade) {
    method = h.method
    intensity = Float(h.exaggeration)
    accent = HillshadeKernel.premultiplied(h.accent)
    let lights = h.lights.isEmpty ? [HillshadeLight(azimuth: 335 * .pi / 180)] : h.lights
    shadows = lights.map { HillshadeKernel.premultiplied($0.shadow) }
    highlights = lights.map { HillshadeKernel.premultiplied($0.highlight) }
    azimuths = lights.map { Float($0.azimuth + .pi) }
    cosAzimuths = lights.map { Float(cos($0.azimuth + .pi)) }
    sinAzimuths = lights.map { Float(sin($0.azimuth + .pi)) }
    cosAltitudes = lights.map { Float(cos($0.altitude)) }
    sinAltitudes = lights.map { Float(sin($0.altitude)) }
    shadow = shadows[0]
    highlight = highlights[0]
    azimuth = azimuths[0]
  }

  static func premultiplied(_ c: (r: Double, g: Double, b: Double, a: Double)) -> RasterRGBA {
    (Float(c.r * c.a), Float(c.g * c.a), Float(c.b * c.a), Float(c.a))
  }

  /// The colour for east and south gradients `dx`, `dy` (already divided by the latitude's cosine).
  @inline(__always)
  func color(dx: Float, dy: Float) -> RasterRGBA {
    switch method {
    case .standard: return standard(dx, dy)
    case .basic: return directional(dx * intensity * 2, dy * intensity * 2, light: 0)
    case .multidirectional: return multidirectional(dx * intensity * 2, dy * intensity * 2)
    case .combined: return combined(dx * intensity * 2, dy * intensity * 2)
    case .igor: return igor(dx * intensity * 2, dy * intensity * 2)
    }
  }

  /// The direction the slope faces, as the shader measures it: atan2(dy, −dx), or ±π/2 on
  /// a slope with no east–west part.
  @inline(__always)
  private func aspect(_ dx: Float, _ dy: Float) -> Float {
    dx != 0 ? atan2(dy, -dx) : (dy > 0 ? .pi / 2 : -.pi / 2)
  }

  /// How far a slope facing `aspect` turns from the light at `azimuth` (already turned by
  /// π): 0 facing away (shadow) … 1 facing it (highlight).
  @inline(__always)
  private func facing(aspect: Float, azimuth: Float) -> Float {
    let t = (aspect + azimuth) / .pi + 0.5
    return abs(t - 2 * (t / 2).rounded(.down) - 1)
  }

  /// MapLibre's standard method: the slope (steepened by `Hillshade.standardZFactor`) is
  /// eased exponentially by the exaggeration (base 1.875 − 1.75·exaggeration, the style
  /// specification's exponential interpolation over 0…π/2), the accent colour grows with
  /// 1 − cos of it, the shadow-to-highlight mix by aspect with its sine, and both fade
  /// out for exaggerations under 0.5; the shade is laid over the accent.
  private func standard(_ dx: Float, _ dy: Float) -> RasterRGBA {
    let slope = atan(Hillshade.standardZFactor * (dx * dx + dy * dy).squareRoot())
    let base = 1.875 - intensity * 1.75
    let maxValue = Float.pi / 2
    let scaled = intensity != 0.5 ? (pow(base, slope) - 1) / (pow(base, maxValue) - 1) * maxValue : slope
    let fade = min(max(intensity * 2, 0), 1)
    let accentWeight = (1 - cos(scaled)) * fade
    let shade = facing(aspect: aspect(dx, dy), azimuth: azimuth)
    let shadeWeight = sin(scaled) * fade
    let s = shadow, h = highlight
    let sc = (
      (s.0 + (h.0 - s.0) * shade) * shadeWeight, (s.1 + (h.1 - s.1) * shade) * shadeWeight,
      (s.2 + (h.2 - s.2) * shade) * shadeWeight, (s.3 + (h.3 - s.3) * shade) * shadeWeight
    )
    let under = 1 - sc.3
    return (
      accent.0 * accentWeight * under + sc.0, accent.1 * accentWeight * under + sc.1,
      accent.2 * accentWeight * under + sc.2, accent.3 * accentWeight * under + sc.3
    )
  }

  /// The cosine of the angle between the surface normal and light `i` (GDAL's hillshade).
  @inline(__always)
  private func cosineToLight(_ dx: Float, _ dy: Float, light i: Int) -> Float {
    (sinAltitudes[i] - (dy * cosAzimuths[i] * cosAltitudes[i] - dx * sinAzimuths[i] * cosAltitudes[i]))
      / (1 + dx * dx + dy * dy).squareRoot()
  }

  /// GDAL's basic method for light `i`: lit past half (highlight by 2·shade − 1), shadow
  /// below it (by 1 − 2·shade).
  @inline(__always)
  private func directional(_ dx: Float, _ dy: Float, light i: Int) -> RasterRGBA {
    let shade = rasterClamp01(cosineToLight(dx, dy, light: i))
    if shade > 0.5 {
      let w = 2 * shade - 1, h = highlights[i]
      return (h.0 * w, h.1 * w, h.2 * w, h.3 * w)
    }
    let w = 1 - 2 * shade, s = shadows[i]
    return (s.0 * w, s.1 * w, s.2 * w, s.3 * w)
  }

  /// The basic method's mean over every light.
  private func multidirectional(_ dx: Float, _ dy: Float) -> RasterRGBA {
    var sum: RasterRGBA = (0, 0, 0, 0)
    let n = Float(shadows.count)
    for i in 0..<shadows.count {
      let c = directional(dx, dy, light: i)
      sum = (sum.0 + c.0 / n, sum.1 + c.1 / n, sum.2 + c.2 / n, sum.3 + c.3 / n)
    }
    return sum
  }

  /// GDAL's combined method: the angle to the light (0…π/2) weighted by the slope angle,
  /// shadow by the angle, highlight by its complement.
  private func combined(_ dx: Float, _ dy: Float) -> RasterRGBA {
    let angle = min(max(acos(min(max(cosineToLight(dx, dy, light: 0), -1), 1)), 0), .pi / 2)
    let slope = atan((dx * dx + dy * dy).squareRoot()) * 4 / (.pi * .pi)
    let ws = angle * slope, wh = (.pi / 2 - angle) * slope
    let s = shadow, h = highlight
    return (s.0 * ws + h.0 * wh, s.1 * ws + h.1 * wh, s.2 * ws + h.2 * wh, s.3 * ws + h.3 * wh)
  }

  /// GDAL's Igor method: the slope angle (as 0…1) times how far the aspect faces away from
  /// the light for the shadow, times how far it faces it for the highlight.
  private func igor(_ dx: Float, _ dy: Float) -> RasterRGBA {
    let slope = atan((dx * dx + dy * dy).squareRoot()) * 2 / .pi
    let away = 1 - facing(aspect: aspect(dx, dy), azimuth: azimuth)
    let ws = slope * away, wh = slope * (1 - away)
    let s = shadow, h = highlight
    return (s.0 * ws + h.0 * wh, s.1 * ws + h.1 * wh, s.2 * ws + h.2 * wh, s.3 * ws + h.3 * wh)
  }
}
