import _MapSnapRaster

/// A straight-alpha RGBA image from per-pixel (r, g, b, a) tuples, row-major:
/// the images the raster tests draw.
func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> RasterImage {
  var bytes: [UInt8] = []
  for y in 0..<height {
    for x in 0..<width {
      let p = pixel(x, y)
      bytes += [p.0, p.1, p.2, p.3]
    }
  }
  return RasterImage(straightRGBA: bytes, width: width, height: height)
}
