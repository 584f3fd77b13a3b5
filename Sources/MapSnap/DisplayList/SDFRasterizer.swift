internal import _MapSnapRaster
internal import _MapSnapStyle

/// Paints signed-distance-field quads (SDF glyphs and icons) as MapLibre's
/// `symbol_sdf` shader does: at each device pixel's centre inside a quad,
/// the field read bilinearly (0 outside it), its alpha
/// `smoothstep(edge − gamma, edge + gamma, field)` times the opacity, the
/// colour composed source-over onto the quads painted before it. The quads
/// of one call make one premultiplied image over their pixel bounds (cut to
/// the frame), drawn 1:1.
enum SDFRasterizer {
  /// The image of `quads` painted with `paint`'s halo (`halo: true`) or
  /// fill, nil when nothing of it lies in the `width` × `height` frame.
  static func image(_ quads: [SDFQuad], paint: SDFPaint, halo: Bool, width: Int, height: Int) -> (image: RasterImage, rect: Rect)? {
    var bounds = Rect.empty
    for q in quads { for c in q.corners { bounds.include(c) } }
    guard !bounds.isEmpty, bounds.minX.isFinite, bounds.maxX.isFinite, bounds.minY.isFinite, bounds.maxY.isFinite else { return nil }
    let x0 = max(0, Int(bounds.minX.rounded(.down))), x1 = min(width, Int(bounds.maxX.rounded(.up)))
    let y0 = max(0, Int(bounds.minY.rounded(.down))), y1 = min(height, Int(bounds.maxY.rounded(.up)))
    guard x1 > x0, y1 > y0 else { return nil }
    let w = x1 - x0, h = y1 - y0
    // Premultiplied RGBA in floats while quads overlap; bytes at the end.
    var acc = [Float](repeating: 0, count: w * h * 4)
    let edge = halo ? paint.haloEdge : paint.fillEdge
    let gamma = halo ? paint.haloGamma : paint.fillGamma
    acc.withUnsafeMutableBufferPointer { out in
      for q in quads {
        let color = halo ? paint.haloColor : (q.color ?? paint.color)
        paintQuad(q, color: color, edge: edge, gamma: gamma, opacity: paint.opacity, x0: x0, y0: y0, w: w, h: h, into: out)
      }
    }
    var pixels = [UInt32](repeating: 0, count: w * h)
    var any = false
    acc.withUnsafeBufferPointer { acc in
      pixels.withUnsafeMutableBufferPointer { pixels in
        for i in 0..<(w * h) {
          let a = acc[4 * i + 3]
          guard a > 0 else { continue }
          let ab = byte(a)
          let r = min(byte(acc[4 * i]), ab), g = min(byte(acc[4 * i + 1]), ab), b = min(byte(acc[4 * i + 2]), ab)
          pixels[i] = r | (g << 8) | (b << 16) | (ab << 24)
          if ab > 0 { any = true }
        }
      }
    }
    guard any else { return nil }
    return (RasterImage(premultipliedPixels: pixels, width: w, height: h), Rect(minX: Double(x0), minY: Double(y0), maxX: Double(x1), maxY: Double(y1)))
  }

  /// `v` (0…1) as a byte: v × 255 rounded half away from zero, clamped.
  @inline(__always) private static func byte(_ v: Float) -> UInt32 {
    let x = max(0, min(255, v * 255))
    // x − its whole part is exact below 256, so this is `rounded()` without a libm call.
    let whole = Int(x)
    return UInt32(x - Float(whole) >= 0.5 ? whole + 1 : whole)
  }

  /// The largest whole number not above `x` (`rounded(.down)`) without a libm call.
  @inline(__always) private static func floor(_ x: Double) -> Int {
    let t = Int(x)
    return Double(t) > x ? t - 1 : t
  }

  private static func paintQuad(
    _ q: SDFQuad, color: StyleColor, edge: Double, gamma: Double, opacity: Double, x0: Int, y0: Int, w: Int, h: Int,
    into out: UnsafeMutableBufferPointer<Float>
  ) {
    let det = q.xAxis.x * q.yAxis.y - q.xAxis.y * q.yAxis.x
    guard det != 0, det.isFinite, opacity > 0 else { return }
    var b = Rect.empty
    for c in q.corners { b.include(c) }
    let qx0 = max(x0, Int(b.minX.rounded(.down))), qx1 = min(x0 + w, Int(b.maxX.rounded(.up)))
    let qy0 = max(y0, Int(b.minY.rounded(.down))), qy1 = min(y0 + h, Int(b.maxY.rounded(.up)))
    guard qx1 > qx0, qy1 > qy0 else { return }
    let tw = q.texture.width, th = q.texture.height
    let fw = q.fieldWidth, fh = q.fieldHeight
    let lo = edge - gamma, span = 2 * gamma
    let cr = Float(color.r * color.a), cg = Float(color.g * color.a), cb = Float(color.b * color.a), ca = Float(color.a)
    q.field.withUnsafeBufferPointer { field in
      @inline(__always) func texel(_ x: Int, _ y: Int) -> Double {
        guard x >= 0, y >= 0, x < fw, y < fh else { return 0 }
        return Double(field[y * fw + x])
      }
      for py in qy0..<qy1 {
        let cy = Double(py) + 0.5 - q.origin.y
        for px in qx0..<qx1 {
          let cx = Double(px) + 0.5 - q.origin.x
          let u = (cx * q.yAxis.y - cy * q.yAxis.x) / det
          let v = (q.xAxis.x * cy - q.xAxis.y * cx) / det
          guard u >= 0, u < 1, v >= 0, v < 1 else { continue }
          // Field coordinates with texel centres at whole numbers.
          let fx = q.texture.minX + u * tw - 0.5, fy = q.texture.minY + v * th - 0.5
          let ix = floor(fx), iy = floor(fy)
          let ax = fx - Double(ix), ay = fy - Double(iy)
          let t00: Double, t10: Double, t01: Double, t11: Double
          if ix >= 0, iy >= 0, ix + 1 < fw, iy + 1 < fh {
            let k = iy * fw + ix
            (t00, t10, t01, t11) = (Double(field[k]), Double(field[k + 1]), Double(field[k + fw]), Double(field[k + fw + 1]))
          } else {
            (t00, t10, t01, t11) = (texel(ix, iy), texel(ix + 1, iy), texel(ix, iy + 1), texel(ix + 1, iy + 1))
          }
          let top = t00 + (t10 - t00) * ax
          let bottom = t01 + (t11 - t01) * ax
          let d = (top + (bottom - top) * ay) / 255
          var t = span > 0 ? (d - lo) / span : (d >= edge ? 1 : 0)
          t = max(0, min(1, t))
          let alpha = Float(t * t * (3 - 2 * t) * opacity)
          guard alpha > 0 else { continue }
          let i = ((py - y0) * w + (px - x0)) * 4
          let sa = ca * alpha
          let keep = 1 - sa
          out[i] = cr * alpha + out[i] * keep
          out[i + 1] = cg * alpha + out[i + 1] * keep
          out[i + 2] = cb * alpha + out[i + 2] * keep
          out[i + 3] = sa + out[i + 3] * keep
        }
      }
    }
  }
}
