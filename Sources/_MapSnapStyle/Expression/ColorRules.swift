#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The specification's colour rules: `rgba` ranges, colours from arrays, and
/// interpolation in RGB, HCL and CIELAB.
enum ColorRules {
  /// nil when r, g, b are in 0–255 and a (if given) in 0–1; else the message.
  static func validateRGBA(_ v: [Double]) -> String? {
    let text = { (values: [Double]) in "[" + values.map { StyleValue.javaScriptString($0) }.joined(separator: ", ") + "]" }
    if !v.prefix(3).allSatisfy({ $0 >= 0 && $0 <= 255 }) {
      return "Invalid rgba value \(text(v)): 'r', 'g', and 'b' must be between 0 and 255."
    }
    if v.count == 4, !(v[3] >= 0 && v[3] <= 1) {
      return "Invalid rgba value \(text(v)): 'a' must be between 0 and 1."
    }
    return nil
  }

  /// `[r, g, b]` or `[r, g, b, a]` (0–255, alpha 0–1) as a colour.
  static func colorFromArray(_ items: [StyleValue]) -> Result<StyleColor, ExpressionEvaluationError> {
    guard items.count == 3 || items.count == 4 else {
      return .failure(ExpressionEvaluationError("Invalid rgba value \(StyleValue.array(items).compactJSON): expected an array containing either three or four numeric values."))
    }
    var v: [Double] = []
    for item in items {
      guard case .number(let n) = item else {
        return .failure(ExpressionEvaluationError("Invalid rgba value \(StyleValue.array(items).compactJSON): 'r', 'g', and 'b' must be between 0 and 255."))
      }
      v.append(n)
    }
    if let message = validateRGBA(v) { return .failure(ExpressionEvaluationError(message)) }
    return .success(StyleColor(r: v[0] / 255, g: v[1] / 255, b: v[2] / 255, a: v.count == 4 ? v[3] : 1))
  }

  /// A value as the "Could not parse color from value '...'" message quotes it.
  static func describe(_ v: StyleValue) -> String {
    if case .string(let s) = v { return s }
    return v.compactJSON
  }

  static func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + t * (b - a) }

  enum Space { case rgb, hcl, lab }

  /// Interpolates straight-alpha colours in the given space.
  static func interpolate(_ from: StyleColor, _ to: StyleColor, _ t: Double, space: Space) -> StyleColor {
    switch space {
    case .rgb:
      return StyleColor(r: mix(from.r, to.r, t), g: mix(from.g, to.g, t), b: mix(from.b, to.b, t), a: mix(from.a, to.a, t))
    case .lab:
      let a = rgbToLab(from), b = rgbToLab(to)
      return labToRGB((mix(a.0, b.0, t), mix(a.1, b.1, t), mix(a.2, b.2, t)), alpha: mix(from.a, to.a, t))
    case .hcl:
      let a = rgbToHCL(from), b = rgbToHCL(to)
      var hue: Double
      var chroma: Double?
      if !a.h.isNaN, !b.h.isNaN {
        var dh = b.h - a.h
        if b.h > a.h, dh > 180 { dh -= 360 } else if b.h < a.h, a.h - b.h > 180 { dh += 360 }
        hue = a.h + t * dh
      } else if !a.h.isNaN {
        hue = a.h
        if b.l == 1 || b.l == 0 { chroma = a.c }
      } else if !b.h.isNaN {
        hue = b.h
        if a.l == 1 || a.l == 0 { chroma = b.c }
      } else {
        hue = .nan
      }
      let c = chroma ?? mix(a.c, b.c, t)
      let l = mix(a.l, b.l, t)
      let rad = hue.isNaN ? 0 : hue * .pi / 180
      return labToRGB((l, cos(rad) * c, sin(rad) * c), alpha: mix(from.a, to.a, t))
    }
  }

  // CIE constants: the D50 white point and the piecewise cube-root breakpoints.
  private static let xn = 0.96422, yn = 1.0, zn = 0.82521
  private static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * (6.0 / 29) * (6.0 / 29), t3 = (6.0 / 29) * (6.0 / 29) * (6.0 / 29)

  private static func rgbToXYZ(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
  private static func xyzToLab(_ t: Double) -> Double { t > t3 ? pow(t, 1.0 / 3) : t / t2 + t0 }
  private static func labToXYZ(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }
  private static func xyzToRGB(_ x: Double) -> Double { x <= 0.00304 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055 }

  static func rgbToLab(_ c: StyleColor) -> (Double, Double, Double) {
    let r = rgbToXYZ(c.r), g = rgbToXYZ(c.g), b = rgbToXYZ(c.b)
    let y = xyzToLab((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / yn)
    var x = y, z = y
    if !(r == g && g == b) {
      x = xyzToLab((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / xn)
      z = xyzToLab((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / zn)
    }
    let l = 116 * y - 16
    return (l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z))
  }

  static func labToRGB(_ lab: (Double, Double, Double), alpha: Double) -> StyleColor {
    var y = (lab.0 + 16) / 116
    var x = lab.1.isNaN ? y : y + lab.1 / 500
    var z = lab.2.isNaN ? y : y - lab.2 / 200
    y = yn * labToXYZ(y)
    x = xn * labToXYZ(x)
    z = zn * labToXYZ(z)
    let clamp = { (v: Double) in min(max(v, 0), 1) }
    return StyleColor(
      r: clamp(xyzToRGB(3.1338561 * x - 1.6168667 * y - 0.4906146 * z)),
      g: clamp(xyzToRGB(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z)),
      b: clamp(xyzToRGB(0.0719453 * x - 0.2289914 * y + 1.4052427 * z)), a: alpha)
  }

  static func rgbToHCL(_ c: StyleColor) -> (h: Double, c: Double, l: Double) {
    let (l, a, b) = rgbToLab(c)
    let chroma = (a * a + b * b).squareRoot()
    var h = (chroma * 10000).rounded() != 0 ? atan2(b, a) * 180 / .pi : .nan
    if h < 0 { h += 360 }
    return (h, chroma, l)
  }
}
