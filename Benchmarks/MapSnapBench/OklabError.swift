// `mapsnap-bench --oklab-error reference.png other.png`: how far another
// encoding of a frame is from the reference, as perceived: mean, 99th
// percentile and largest ΔE in Oklab over all pixels, and the share of
// pixels off by more than a just-noticeable 0.02. Used by
// scripts/bench-palette.py to compare PNG8 files (ours, pngquant's) with the
// PNG32 they came from.
//
// Both images are decoded by PNGDecoder (any colour type), composited over
// white when translucent, and converted to Oklab here, independently of
// the quantiser's own code, so that the measure does not share its bugs.
import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// Prints `meanDeltaE p99DeltaE maxDeltaE shareAbove0.02` for two PNGs of one size; returns the exit status.
func oklabErrorMode(_ paths: [String]) -> Int32 {
  guard paths.count == 2 else {
    print("usage: mapsnap-bench --oklab-error reference.png other.png")
    return 64
  }
  do {
    let a = try PNGDecoder.decode(contentsOf: paths[0])
    let b = try PNGDecoder.decode(contentsOf: paths[1])
    guard a.width == b.width, a.height == b.height else {
      print("error: sizes differ: \(a.width)x\(a.height) and \(b.width)x\(b.height)")
      return 1
    }
    var lab: [UInt32: (Double, Double, Double)] = [:]
    func oklab(_ p: [UInt8], _ i: Int) -> (Double, Double, Double) {
      let key = UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
      if let v = lab[key] { return v }
      let alpha = Double(p[i + 3]) / 255
      func linear(_ c: UInt8) -> Double {
        let s = Double(c) / 255
        let l = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        return l * alpha + (1 - alpha)  // over white, in linear light
      }
      let (r, g, bl) = (linear(p[i]), linear(p[i + 1]), linear(p[i + 2]))
      let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * bl)
      let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * bl)
      let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * bl)
      let v = (
        0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
        1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
        0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
      )
      lab[key] = v
      return v
    }
    let count = a.width * a.height
    var errors = [Double](repeating: 0, count: count)
    var sum = 0.0
    var above = 0
    for k in 0..<count {
      let i = k * 4
      if a.pixels[i..<i + 4] == b.pixels[i..<i + 4] { continue }
      let p = oklab(a.pixels, i)
      let q = oklab(b.pixels, i)
      let e = ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
      errors[k] = e
      sum += e
      if e > 0.02 { above += 1 }
    }
    errors.sort()
    let p99 = errors[min(count - 1, count * 99 / 100)]
    print("\(sum / Double(count)) \(p99) \(errors[count - 1]) \(Double(above) / Double(count))")
    return 0
  } catch {
    print("error: \(error)")
    return 1
  }
}
