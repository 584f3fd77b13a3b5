/// An image reduced to a palette by ``PaletteQuantizer``: what a PNG of
/// colour type 3 holds.
package struct QuantizedImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// The palette, at most 256 entries, each a straight-alpha (not
  /// premultiplied) RGBA8 colour in the pixel layout (bytes R, G, B, A in
  /// memory). No two entries are equal. The entries whose alpha is not 255
  /// come first (``translucentCount`` of them), by alpha and then value,
  /// so that PNG's `tRNS` chunk is as short as it can be; the opaque
  /// entries follow, by value.
  public let palette: [UInt32]
  /// How many of the first palette entries are not opaque (alpha < 255).
  public let translucentCount: Int
  /// One palette index per pixel, rows top to bottom, no padding.
  public let indices: [UInt8]
  /// True when the image had at most the asked number of distinct pixel
  /// values: the palette holds exactly those colours, and every pixel is
  /// its own colour (as the true-colour PNG's straight-alpha pixel).
  public let isLossless: Bool

  /// The pixels as the palette gives them back: straight RGBA8, one `UInt32`
  /// per pixel in the pixel layout.
  public var straightPixels: [UInt32] {
    indices.map { palette[Int($0)] }
  }
}
