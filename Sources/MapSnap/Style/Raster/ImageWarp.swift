internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

/// An image laid over any four device-pixel corners, as MapLibre draws a
/// raster tile under a bearing or an `image` source whose corners are not
/// a rectangle: the quad is two triangles, (top-left, top-right,
/// bottom-left) and (bottom-left, top-right, bottom-right), each mapping the
/// image affinely, as the GPU interpolates texture coordinates across a
/// triangle. A device pixel belongs to the quad when its centre lies inside
/// a triangle (no antialiasing of the quad's edges, as GL draws it); its
/// colour is the texture read at the centre's texture coordinate:
///
/// - `linear`: bilinear interpolation of premultiplied texels (texel
///   centres at `i + ½`), clamped at the image's edges, as `GL_LINEAR`;
/// - `nearest`: the texel under the coordinate, as `GL_NEAREST`.
///
/// The result is an image aligned with the device pixels, drawn 1:1.
enum ImageWarp {
  /// The texels `texels` (premultiplied, packed as `RasterImage` keeps
  /// them: R in the low byte; `iw` × `ih`) over `corners` (top-left,
  /// top-right, bottom-right, bottom-left, device pixels) within a
  /// `width` × `height` frame: the premultiplied pixels of the quad's pixel
  /// bounds cut to the frame, and those bounds. Nil when the quad misses
  /// the frame.
  static func warp(
    _ texels: [UInt32], width iw: Int, height ih: Int, corners: [Point], frameWidth width: Int, frameHeight height: Int, resampling: RasterResampling
  ) -> (image: RasterImage, rect: Rect)? {
    warp(
      texels, width: iw, height: ih, quads: [Quad(corners: corners, texture: Rect(minX: 0, minY: 0, maxX: Double(iw), maxY: Double(ih)))],
      frameWidth: width, frameHeight: height, resampling: resampling)
  }

  /// One quad of an image drawn in pieces (a stretchable icon): its corners
  /// on the frame (top-left, top-right, bottom-right, bottom-left) and the
  /// rectangle of texels it shows (texel units).
  struct Quad: Sendable {
    var corners: [Point]
    var texture: Rect
  }

  /// `quads`, each showing its part of the texels, into one image: a pixel
  /// takes the first quad whose triangles hold its centre, so pieces that
  /// share an edge cover it once. Texels are read across a piece's edge as
  /// from one atlas (sampling clamps only at the whole image's edges).
  static func warp(
    _ texels: [UInt32], width iw: Int, height ih: Int, quads: [Quad], frameWidth width: Int, frameHeight height: Int, resampling: RasterResampling
  ) -> (image: RasterImage, rect: Rect)? {
    guard !quads.isEmpty, iw > 0, ih > 0, texels.count >= iw * ih,
      quads.allSatisfy({ q in q.corners.count == 4 && q.corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) })
    else { return nil }
    let xs = quads.flatMap { $0.corners.map(\.x) }, ys = quads.flatMap { $0.corners.map(\.y) }
    let x0 = max(0, Int(xs.min()!.rounded(.down))), x1 = min(width, Int(xs.max()!.rounded(.up)))
    let y0 = max(0, Int(ys.min()!.rounded(.down))), y1 = min(height, Int(ys.max()!.rounded(.up)))
    guard x1 > x0, y1 > y0 else { return nil }
    let w = x1 - x0, h = y1 - y0
    // Each triangle with its vertices' coordinates in its quad's texture
    // (0…1 across it) and that texture's rectangle of texels.
    let triangles = quads.flatMap { q -> [Triangle] in
      let tl = q.corners[0], tr = q.corners[1], br = q.corners[2], bl = q.corners[3]
      return [
        Triangle(tl, tr, bl, (0, 0), (1, 0), (0, 1), texels: q.texture),
        Triangle(bl, tr, br, (0, 1), (1, 0), (1, 1), texels: q.texture),
      ].compactMap { $0 }
    }
    guard !triangles.isEmpty else { return nil }
    var out = [UInt32](repeating: 0, count: w * h)
    texels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for row in 0..<h {
          let py = Double(y0 + row) + 0.5
          for col in 0..<w {
            let px = Double(x0 + col) + 0.5
            for t in triangles {
              guard let (s, r) = t.texture(px, py) else { continue }
              let u = t.texels.minX + s * t.texels.width, v = t.texels.minY + r * t.texels.height
              dst[row * w + col] =
                resampling == .nearest
                ? src[min(ih - 1, max(0, Int(v.rounded(.down)))) * iw + min(iw - 1, max(0, Int(u.rounded(.down))))]
                : bilinear(src, iw, ih, u - 0.5, v - 0.5)
              break
            }
          }
        }
      }
    }
    return (RasterImage(premultipliedPixels: out, width: w, height: h), Rect(minX: Double(x0), minY: Double(y0), maxX: Double(x1), maxY: Double(y1)))
  }

  /// One triangle of the quad: the affine map from device pixels to texture coordinates.
  private struct Triangle {
    let a: Point, b: Point, c: Point
    let ta: (Double, Double), tb: (Double, Double), tc: (Double, Double)
    let area: Double
    let texels: Rect

    init?(_ a: Point, _ b: Point, _ c: Point, _ ta: (Double, Double), _ tb: (Double, Double), _ tc: (Double, Double), texels: Rect) {
      let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
      guard area != 0, area.isFinite else { return nil }
      (self.a, self.b, self.c, self.ta, self.tb, self.tc, self.area, self.texels) = (a, b, c, ta, tb, tc, area, texels)
    }

    /// How far outside an edge, in barycentric weight, a point still counts
    /// as on it: a pixel centre on the diagonal the two triangles share
    /// computes a weight of about −1e-16 in both, and belongs to the first.
    static let edgeTolerance = 1e-9

    /// The texture coordinate at (x, y), nil outside (edges included).
    @inline(__always) func texture(_ x: Double, _ y: Double) -> (Double, Double)? {
      let wa = ((b.x - x) * (c.y - y) - (b.y - y) * (c.x - x)) / area
      let wb = ((c.x - x) * (a.y - y) - (c.y - y) * (a.x - x)) / area
      let wc = 1 - wa - wb
      let e = -Self.edgeTolerance
      guard wa >= e, wb >= e, wc >= e else { return nil }
      return (wa * ta.0 + wb * tb.0 + wc * tc.0, wa * ta.1 + wb * tb.1 + wc * tc.1)
    }
  }

  /// Bilinear read of premultiplied texels at texel-space (x, y), clamped at the edges.
  @inline(__always) private static func bilinear(_ src: UnsafeBufferPointer<UInt32>, _ w: Int, _ h: Int, _ x: Double, _ y: Double) -> UInt32 {
    let fx = x.rounded(.down), fy = y.rounded(.down)
    let ax = x - fx, ay = y - fy
    let xa = min(w - 1, max(0, Int(fx))), xb = min(w - 1, max(0, Int(fx) + 1))
    let ya = min(h - 1, max(0, Int(fy))), yb = min(h - 1, max(0, Int(fy) + 1))
    let p00 = src[ya * w + xa], p10 = src[ya * w + xb], p01 = src[yb * w + xa], p11 = src[yb * w + xb]
    var result: UInt32 = 0
    for shift in stride(from: UInt32(0), to: 32, by: 8) {
      func c(_ p: UInt32) -> Double { Double((p >> shift) & 0xFF) }
      let top = c(p00) + (c(p10) - c(p00)) * ax
      let bottom = c(p01) + (c(p11) - c(p01)) * ax
      let v = UInt32(min(255, max(0, (top + (bottom - top) * ay).rounded())))
      result |= v << shift
    }
    return result
  }
}
