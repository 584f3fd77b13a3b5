#if canImport(Glibc)
  import Glibc
#endif

/// The raster layer's colour adjustments, applied to premultiplied RGBA8 pixels in the
/// order and with the formulas of MapLibre's raster shader: un-premultiply, turn the hue
/// by the spin weights, move towards the grey of the pixel's channel mean (saturation),
/// stretch about mid-grey (contrast), map 0…1 onto brightness-min…brightness-max, then
/// premultiply by the pixel's alpha times `opacity`.
struct RasterPaint: Equatable, Sendable {
  /// `raster-opacity`, 0…1: multiplies every pixel's alpha.
  var opacity: Double = 1
  /// `raster-hue-rotate`, degrees.
  var hueRotate: Double = 0
  /// `raster-brightness-min`, 0…1: the value black maps to.
  var brightnessMin: Double = 0
  /// `raster-brightness-max`, 0…1: the value white maps to.
  var brightnessMax: Double = 1
  /// `raster-saturation`, −1…1.
  var saturation: Double = 0
  /// `raster-contrast`, −1…1.
  var contrast: Double = 0

  init(
    opacity: Double = 1, hueRotate: Double = 0, brightnessMin: Double = 0, brightnessMax: Double = 1,
    saturation: Double = 0, contrast: Double = 0
  ) {
    self.opacity = opacity
    self.hueRotate = hueRotate
    self.brightnessMin = brightnessMin
    self.brightnessMax = brightnessMax
    self.saturation = saturation
    self.contrast = contrast
  }

  /// True when every property has its default, so the pixels are left as they are.
  var isIdentity: Bool {
    opacity == 1 && hueRotate == 0 && brightnessMin == 0 && brightnessMax == 1 && saturation == 0 && contrast == 0
  }

  /// The hue rotation as three weights (a rotation about the grey axis of RGB space):
  /// out.r = w·(r, g, b), out.g = w.zxy·(r, g, b), out.b = w.yzx·(r, g, b).
  var spinWeights: (Float, Float, Float) {
    let angle = hueRotate * .pi / 180
    let s = sin(angle), c = cos(angle), root3 = 3.0.squareRoot()
    return (Float((2 * c + 1) / 3), Float((-root3 * s - c + 1) / 3), Float((root3 * s - c + 1) / 3))
  }

  /// How far each channel moves towards the mean: `-saturation` when desaturating, and
  /// `1 − 1/(1.001 − saturation)` (negative, pushing away from grey) when saturating.
  var saturationFactor: Float {
    Float(saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation)
  }

  /// The slope of the contrast line about 0.5: `1/(1 − contrast)` above 0, `1 + contrast` below.
  var contrastFactor: Float {
    Float(contrast > 0 ? 1 / (1 - contrast) : 1 + contrast)
  }

  /// Adjusts `pixels` (premultiplied RGBA8, 4 bytes a pixel) in place. Colours leaving
  /// 0…1 are clamped before premultiplying, so every result stays a valid premultiplied pixel.
  func apply(to pixels: inout [UInt8]) {
    if isIdentity { return }
    pixels.withUnsafeMutableBufferPointer { apply(to: $0) }
  }

  /// Adjusts the premultiplied RGBA8 pixels at `buffer` in place (see `apply(to:)`).
  func apply(to buffer: UnsafeMutableBufferPointer<UInt8>) {
    if isIdentity { return }
    let (w0, w1, w2) = spinWeights
    let sat = saturationFactor, con = contrastFactor
    let low = Float(brightnessMin), high = Float(brightnessMax)
    let alphaScale = Float(min(max(opacity, 0), 1))
    let count = buffer.count / 4
    for p in 0..<count {
      let i = p &* 4
      let a8 = buffer[i + 3]
      if a8 == 0 { continue }
      let a = Float(a8) / 255
      // c/255 ÷ a/255 = c/a: the straight colour.
      let inverse = 1 / Float(a8)
      let r = Float(buffer[i]) * inverse, g = Float(buffer[i + 1]) * inverse, b = Float(buffer[i + 2]) * inverse
      // Hue first; the saturation's mean is taken from the colour before the turn, as the shader does.
      var sr = r * w0 + g * w1 + b * w2
      var sg = r * w2 + g * w0 + b * w1
      var sb = r * w1 + g * w2 + b * w0
      let mean = (r + g + b) / 3
      sr += (mean - sr) * sat
      sg += (mean - sg) * sat
      sb += (mean - sb) * sat
      sr = (sr - 0.5) * con + 0.5
      sg = (sg - 0.5) * con + 0.5
      sb = (sb - 0.5) * con + 0.5
      let outA = a * alphaScale
      buffer[i] = RasterPaint.unorm8(rasterClamp01(low + (high - low) * sr) * outA)
      buffer[i + 1] = RasterPaint.unorm8(rasterClamp01(low + (high - low) * sg) * outA)
      buffer[i + 2] = RasterPaint.unorm8(rasterClamp01(low + (high - low) * sb) * outA)
      buffer[i + 3] = RasterPaint.unorm8(outA)
    }
  }

  /// `v` (0…1) as an 8-bit channel, rounded to nearest as a GPU stores a colour.
  @inline(__always)
  static func unorm8(_ v: Float) -> UInt8 {
    UInt8(rasterClamp01(v) * 255 + 0.5)
  }
}

/// `v` clamped to 0…1 (NaN gives 0).
@inline(__always)
func rasterClamp01(_ v: Float) -> Float {
  v > 0 ? (v < 1 ? v : 1) : 0
}
