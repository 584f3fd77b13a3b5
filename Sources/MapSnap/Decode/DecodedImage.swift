/// A decoded PNG: 8-bit straight (un-premultiplied) RGBA, row-major, no padding.
public struct DecodedImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width * height * 4` bytes: R, G, B, A per pixel, rows top to bottom,
  /// alpha straight (not premultiplied). Sources without alpha have A = 255.
  public var pixels: [UInt8]
  /// Whether the file itself carried transparency: an alpha channel (colour
  /// type 4 or 6) or a tRNS chunk. False for RGB, gray and palette PNGs
  /// without tRNS, even though ``pixels`` always has an alpha byte.
  public let sourceHasAlpha: Bool

  /// Creates an image; `pixels.count` must be `width * height * 4`.
  public init(width: Int, height: Int, pixels: [UInt8], sourceHasAlpha: Bool) {
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                 "DecodedImage: pixels.count must be width * height * 4")
    self.width = width
    self.height = height
    self.pixels = pixels
    self.sourceHasAlpha = sourceHasAlpha
  }

  /// The pixels as one `UInt32` each (R in the low byte, straight alpha):
  /// the form `PixelMatch` compares.
  public var packedPixels: [UInt32] {
    var out = [UInt32](repeating: 0, count: width * height)
    pixels.withUnsafeBufferPointer { p in
      for i in out.indices {
        out[i] = UInt32(p[4 * i]) | UInt32(p[4 * i + 1]) << 8 | UInt32(p[4 * i + 2]) << 16 | UInt32(p[4 * i + 3]) << 24
      }
    }
    return out
  }
}
