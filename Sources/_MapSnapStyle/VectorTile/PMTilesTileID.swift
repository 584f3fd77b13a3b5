/// PMTiles tile ids: tiles numbered zoom by zoom (all of zoom 0, then all of
/// zoom 1, …), and within a zoom level along the Hilbert curve, so that
/// tiles near each other are near each other in the archive.
package enum PMTilesTileID {
  /// The deepest zoom a 64-bit tile id reaches (4^32 tiles would not fit).
  package static let maxZoom = 31

  /// The id of the first tile of zoom `z`: (4^z − 1) / 3 tiles come before it.
  static func first(ofZoom z: Int) -> UInt64 {
    ((1 as UInt64) << (2 * UInt64(z)) - 1) / 3
  }

  /// The id of tile z/x/y (XYZ scheme: y down from the north), or nil when
  /// x or y is outside zoom `z`.
  package static func id(z: Int, x: Int, y: Int) -> UInt64? {
    guard z >= 0, z <= maxZoom else { return nil }
    let n = UInt64(1) << UInt64(z)
    guard x >= 0, y >= 0, UInt64(x) < n, UInt64(y) < n else { return nil }
    var x = UInt64(x)
    var y = UInt64(y)
    var d: UInt64 = 0
    var s = n >> 1
    while s > 0 {
      let rx: UInt64 = x & s != 0 ? 1 : 0
      let ry: UInt64 = y & s != 0 ? 1 : 0
      d += s * s * ((3 * rx) ^ ry)
      // Rotate the quadrant so that the curve's sub-square starts and ends
      // where the next bit expects.
      if ry == 0 {
        if rx == 1 {
          x = (n - 1) ^ x
          y = (n - 1) ^ y
        }
        swap(&x, &y)
      }
      s >>= 1
    }
    return first(ofZoom: z) + d
  }

  /// The tile z/x/y of `id` (the inverse of `id(z:x:y:)`).
  package static func tile(_ id: UInt64) -> (z: Int, x: Int, y: Int) {
    var z = 0
    while z < maxZoom && id >= first(ofZoom: z + 1) { z += 1 }
    var t = id - first(ofZoom: z)
    let n = UInt64(1) << UInt64(z)
    var x: UInt64 = 0
    var y: UInt64 = 0
    var s: UInt64 = 1
    while s < n {
      let rx = 1 & (t / 2)
      let ry = 1 & (t ^ rx)
      if ry == 0 {
        if rx == 1 {
          x = s - 1 - x
          y = s - 1 - y
        }
        swap(&x, &y)
      }
      x += s * rx
      y += s * ry
      t /= 4
      s <<= 1
    }
    return (z, Int(x), Int(y))
  }
}
