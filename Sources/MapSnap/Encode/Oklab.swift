#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Björn Ottosson's Oklab colour space (2020), the space in which the palette
/// quantiser (``PaletteQuantizer``) measures colour differences: Euclidean
/// distance in Oklab follows perceived difference far better than distance in
/// sRGB, with no more work than a matrix, a cube root and a matrix.
///
/// `L` is lightness in `0...1` (black 0, white 1); `a` and `b` are the
/// green–red and blue–yellow axes, within about `±0.4` for sRGB colours. A
/// difference (ΔE) of about 0.02 is just noticeable side by side.
///
/// Colours enter as 8-bit sRGB (straight alpha), decoded to linear light with
/// the exact sRGB transfer curve (a table of 256 values), and leave as 8-bit
/// sRGB rounded to nearest. All arithmetic is IEEE `Double` or `Float` without
/// fused or reordered operations, so the same input gives the same bits on
/// every run and thread.
struct Oklab: Equatable {
  var l: Double
  var a: Double
  var b: Double

  init(l: Double, a: Double, b: Double) {
    self.l = l
    self.a = a
    self.b = b
  }

  /// The Oklab coordinates of an 8-bit sRGB colour.
  init(red: UInt8, green: UInt8, blue: UInt8) {
    let table = Self.linearTable
    self.init(linearRed: table[Int(red)], green: table[Int(green)], blue: table[Int(blue)])
  }

  /// The Oklab coordinates of a linear-light RGB colour (components `0...1`).
  init(linearRed r: Double, green g: Double, blue b: Double) {
    let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    self.l = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
    self.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
    self.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
  }

  /// The colour as linear-light RGB, not clamped (colours outside the sRGB
  /// gamut have components outside `0...1`).
  var linearRGB: (red: Double, green: Double, blue: Double) {
    let l1 = l + 0.3963377774 * a + 0.2158037573 * b
    let m1 = l - 0.1055613458 * a - 0.0638541728 * b
    let s1 = l - 0.0894841775 * a - 1.2914855480 * b
    let l3 = l1 * l1 * l1
    let m3 = m1 * m1 * m1
    let s3 = s1 * s1 * s1
    return (
      4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3,
      -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3,
      -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3
    )
  }

  /// The nearest 8-bit sRGB colour: each linear component clamped to `0...1`,
  /// encoded with the sRGB curve and rounded to nearest.
  var srgb8: (red: UInt8, green: UInt8, blue: UInt8) {
    let c = linearRGB
    return (Self.encode(c.red), Self.encode(c.green), Self.encode(c.blue))
  }

  /// Euclidean distance (ΔE) between two Oklab colours.
  func distance(to other: Oklab) -> Double {
    let dl = l - other.l
    let da = a - other.a
    let db = b - other.b
    return (dl * dl + da * da + db * db).squareRoot()
  }

  /// sRGB 8-bit value → linear light, the exact piecewise curve of IEC 61966-2-1.
  static let linearTable: [Double] = (0..<256).map { (v: Int) -> Double in
    let c = Double(v) / 255
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  /// Linear light (clamped to `0...1`) → 8-bit sRGB, rounded to nearest.
  static func encode(_ linear: Double) -> UInt8 {
    let x = min(1, max(0, linear))
    let c = x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
    return UInt8(min(255, max(0, (c * 255).rounded())))
  }
}
