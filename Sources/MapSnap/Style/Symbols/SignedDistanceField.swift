/// A signed distance field from an 8-bit coverage mask, as TinySDF makes
/// one for MapLibre's local glyphs: each pixel's squared distance to the
/// shape (outside) and to the background (inside), a partly covered pixel
/// starting at (0.5 − coverage)² or (coverage − 0.5)², then the exact 2-D
/// Euclidean distance transform (Felzenszwalb and Huttenlocher: columns,
/// then rows); the value `255 − 255 × (d / radius + cutoff)` for the signed
/// distance d (positive outside), clamped to 0…255, over the mask grown by
/// `border` on every side.
enum SignedDistanceField {
  static func field(coverage: [UInt8], width: Int, height: Int, border: Int, radius: Double, cutoff: Double) -> [UInt8] {
    let w = width + 2 * border, h = height + 2 * border
    let inf = 1e20
    var outer = [Double](repeating: inf, count: w * h)
    var inner = [Double](repeating: 0, count: w * h)
    for y in 0..<height {
      for x in 0..<width {
        let a = Double(coverage[y * width + x]) / 255
        guard a > 0 else { continue }
        let i = (y + border) * w + x + border
        if a >= 1 {
          outer[i] = 0
          inner[i] = inf
        } else {
          let d = max(0, 0.5 - a)
          outer[i] = d * d
          let e = max(0, a - 0.5)
          inner[i] = e * e
        }
      }
    }
    transform(&outer, w, h)
    transform(&inner, w, h)
    var out = [UInt8](repeating: 0, count: w * h)
    for i in 0..<(w * h) {
      let d = outer[i].squareRoot() - inner[i].squareRoot()
      out[i] = UInt8(max(0, min(255, (255 - 255 * (d / radius + cutoff)).rounded())))
    }
    return out
  }

  /// The 2-D transform in place: every column, then every row.
  private static func transform(_ grid: inout [Double], _ w: Int, _ h: Int) {
    let n = max(w, h)
    var f = [Double](repeating: 0, count: n), d = [Double](repeating: 0, count: n)
    var v = [Int](repeating: 0, count: n), z = [Double](repeating: 0, count: n + 1)
    for x in 0..<w {
      for y in 0..<h { f[y] = grid[y * w + x] }
      line(&f, &d, &v, &z, h)
      for y in 0..<h { grid[y * w + x] = d[y] }
    }
    for y in 0..<h {
      for x in 0..<w { f[x] = grid[y * w + x] }
      line(&f, &d, &v, &z, w)
      for x in 0..<w { grid[y * w + x] = d[x] }
    }
  }

  /// The 1-D squared-distance transform of `f[0..<n]` into `d` (lower envelope of parabolas).
  private static func line(_ f: inout [Double], _ d: inout [Double], _ v: inout [Int], _ z: inout [Double], _ n: Int) {
    guard n > 0 else { return }
    var k = 0
    v[0] = 0
    z[0] = -.infinity
    z[1] = .infinity
    for q in stride(from: 1, to: n, by: 1) {
      func meet(_ r: Int) -> Double { ((f[q] + Double(q * q)) - (f[r] + Double(r * r))) / Double(2 * q - 2 * r) }
      var s = meet(v[k])
      while s <= z[k] {
        k -= 1
        s = meet(v[k])
      }
      k += 1
      v[k] = q
      z[k] = s
      z[k + 1] = .infinity
    }
    k = 0
    for q in 0..<n {
      while z[k + 1] < Double(q) { k += 1 }
      let r = v[k]
      d[q] = Double((q - r) * (q - r)) + f[r]
    }
  }
}
