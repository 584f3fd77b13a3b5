internal import _MapSnapRaster

/// A tile's image laid onto the device grid of a turned frame (a bearing
/// other than 0), where its square is no longer an axis-aligned rectangle:
/// each device pixel whose centre lies inside the tile's square reads the
/// tile image bilinearly (texel centres at half-integers, edges clamped)
/// at the point the inverse of the tile's transform gives; every other
/// pixel of the square's bounding box is transparent. A pixel belongs to
/// exactly one of two neighbouring tiles, as a stencil decides it, so
/// turned tiles meet without a seam or an overlap.
enum RasterTurn {
  /// The image of `pixels` (premultiplied RGBA8, `width × height`) placed by
  /// `transform` (image pixels to device pixels), resampled over the part
  /// of its bounding box inside a `frameWidth × frameHeight` frame, and
  /// that box (whole device pixels); nil when the tile misses the frame or
  /// the transform is singular.
  static func resample(
    _ pixels: [UInt8], width: Int, height: Int, transform t: TileTransform, frameWidth: Int, frameHeight: Int
  ) -> (image: RasterImage, rect: Rect)? {
    let det = t.a * t.d - t.b * t.c
    guard det != 0, det.isFinite, width > 0, height > 0, pixels.count >= width * height * 4 else { return nil }
    let corners = [t.apply(0, 0), t.apply(Double(width), 0), t.apply(Double(width), Double(height)), t.apply(0, Double(height))]
    let x0 = max(0, Int(corners.map(\.x).min()!.rounded(.down))), x1 = min(frameWidth, Int(corners.map(\.x).max()!.rounded(.up)))
    let y0 = max(0, Int(corners.map(\.y).min()!.rounded(.down))), y1 = min(frameHeight, Int(corners.map(\.y).max()!.rounded(.up)))
    guard x0 < x1, y0 < y1 else { return nil }
    let w = x1 - x0, h = y1 - y0
    // The inverse: image = M⁻¹ · (device − translation).
    let ia = t.d / det, ib = -t.b / det, ic = -t.c / det, id = t.a / det
    var out = [UInt32](repeating: 0, count: w * h)
    let maxU = Double(width), maxV = Double(height)
    pixels.withUnsafeBytes { raw in
      let src = raw.bindMemory(to: UInt8.self)
      out.withUnsafeMutableBufferPointer { dst in
        for y in 0..<h {
          let dy = Double(y0 + y) + 0.5 - t.ty
          for x in 0..<w {
            let dx = Double(x0 + x) + 0.5 - t.tx
            let u = ia * dx + ic * dy, v = ib * dx + id * dy
            guard u >= 0, v >= 0, u < maxU, v < maxV else { continue }
            dst[y * w + x] = bilinear(src, width: width, height: height, u: u - 0.5, v: v - 0.5)
          }
        }
      }
    }
    return (RasterImage(premultipliedPixels: out, width: w, height: h), Rect(minX: Double(x0), minY: Double(y0), maxX: Double(x1), maxY: Double(y1)))
  }

  /// The texels about (`u`, `v`) (texel coordinates, edges clamped) mixed
  /// bilinearly, rounded to 8 bits, packed R, G, B, A from the low byte.
  @inline(__always)
  private static func bilinear(_ src: UnsafeBufferPointer<UInt8>, width: Int, height: Int, u: Double, v: Double) -> UInt32 {
    let cu = min(max(u, 0), Double(width - 1)), cv = min(max(v, 0), Double(height - 1))
    let i0 = Int(cu), j0 = Int(cv)
    let i1 = min(i0 + 1, width - 1), j1 = min(j0 + 1, height - 1)
    let fu = cu - Double(i0), fv = cv - Double(j0)
    let a = (j0 * width + i0) * 4, b = (j0 * width + i1) * 4, c = (j1 * width + i0) * 4, d = (j1 * width + i1) * 4
    var packed: UInt32 = 0
    for k in 0..<4 {
      let top = Double(src[a + k]) + (Double(src[b + k]) - Double(src[a + k])) * fu
      let bottom = Double(src[c + k]) + (Double(src[d + k]) - Double(src[c + k])) * fu
      packed |= UInt32(min(255, max(0, (top + (bottom - top) * fv).rounded()))) << (8 * UInt32(k))
    }
    return packed
  }
}
