/// An RGBA8 image in premultiplied alpha, one `UInt32` per pixel with the
/// bytes in memory order R, G, B, A, rows top to bottom with no padding.
public final class Canvas: @unchecked Sendable {
  public let width: Int
  public let height: Int
  /// `width * height` pixels; owned by the canvas and freed with it.
  public let pixels: UnsafeMutablePointer<UInt32>

  /// A canvas cleared to transparent.
  public init(width: Int, height: Int) {
    precondition(width > 0 && height > 0, "a canvas needs a non-empty size")
    self.width = width
    self.height = height
    pixels = .allocate(capacity: width * height)
    pixels.initialize(repeating: 0, count: width * height)
  }

  deinit { pixels.deallocate() }

  /// The pixels as a buffer (valid while the canvas lives).
  public var buffer: UnsafeBufferPointer<UInt32> {
    UnsafeBufferPointer(start: pixels, count: width * height)
  }

  /// The premultiplied pixel at (x, y).
  public subscript(x: Int, y: Int) -> UInt32 {
    precondition(x >= 0 && x < width && y >= 0 && y < height)
    return pixels[y * width + x]
  }

  /// The pixel at (x, y) as (r, g, b, a) premultiplied bytes.
  public func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let p = self[x, y]
    return (UInt8(p & 255), UInt8((p >> 8) & 255), UInt8((p >> 16) & 255), UInt8(p >> 24))
  }
}
