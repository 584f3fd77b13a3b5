/// An sRGB colour with straight (not premultiplied) 8-bit alpha, as written in
/// a scene. Blending happens on the stored sRGB values, as Skia and AGG do.
public struct Color: Sendable, Hashable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var a: UInt8

  @inlinable
  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  public static let black = Color(r: 0, g: 0, b: 0)
  public static let white = Color(r: 255, g: 255, b: 255)
  public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

  /// The same colour with its alpha multiplied by `opacity` (clamped to 0…1),
  /// rounded to the nearest step.
  @inlinable
  public func withOpacity(_ opacity: Double) -> Color {
    let o = min(max(opacity, 0), 1)
    var c = self
    c.a = UInt8((Double(a) * o).rounded())
    return c
  }

  /// The colour as one premultiplied pixel in memory order R, G, B, A
  /// (little-endian `UInt32`: R in the low byte).
  @inlinable
  public var premultipliedPixel: UInt32 {
    let a32 = UInt32(a)
    let r32 = div255(UInt32(r) &* a32)
    let g32 = div255(UInt32(g) &* a32)
    let b32 = div255(UInt32(b) &* a32)
    return r32 | (g32 << 8) | (b32 << 16) | (a32 << 24)
  }
}

/// `v / 255` rounded to nearest, exact for every `v` in 0...255*255.
@inlinable @inline(__always)
public func div255(_ v: UInt32) -> UInt32 {
  let t = v &+ 128
  return (t &+ (t >> 8)) >> 8
}
