/// `raster-resampling`: how a raster tile's texels are read when the tile is drawn at
/// another size. `linear` is the display list's own bilinear image drawing; `nearest` is
/// had by first enlarging the tile with `nearest(…)` to at least its drawn size, so that
/// the bilinear draw only blends across one device pixel at each texel edge.
enum RasterResampling: String, Sendable {
  case linear
  case nearest

  /// `pixels` (4 bytes a pixel, `width × height`) resized to `toWidth × toHeight` by
  /// nearest neighbour: output pixel (X, Y) copies the texel under its centre,
  /// ⌊(X + ½) · width / toWidth⌋, ⌊(Y + ½) · height / toHeight⌋.
  static func nearest(_ pixels: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [UInt8] {
    guard width > 0, height > 0, toWidth > 0, toHeight > 0, pixels.count >= width * height * 4 else { return [] }
    var out = [UInt8](repeating: 0, count: toWidth * toHeight * 4)
    // Source column of every output column, worked out once.
    let columns = (0..<toWidth).map { min((2 * $0 + 1) * width / (2 * toWidth), width - 1) }
    pixels.withUnsafeBytes { srcRaw in
      out.withUnsafeMutableBytes { dstRaw in
        let src = srcRaw.bindMemory(to: UInt32.self)
        let dst = dstRaw.bindMemory(to: UInt32.self)
        columns.withUnsafeBufferPointer { cols in
          for y in 0..<toHeight {
            let sy = min((2 * y + 1) * height / (2 * toHeight), height - 1)
            let srcRow = sy * width, dstRow = y * toWidth
            for x in 0..<toWidth {
              dst[dstRow + x] = src[srcRow + cols[x]]
            }
          }
        }
      }
    }
    return out
  }
}
