import Synchronization

/// An RGBA8 image to draw with `DisplayList.drawImage(_:in:opacity:)`: premultiplied
/// pixels in the same layout as `Canvas` (one `UInt32` per pixel, bytes R, G, B, A in
/// memory, R in the low byte; rows top to bottom, no padding).
///
/// An image is immutable once made. It keeps, besides its pixels, the reduced copies
/// (mip levels) that drawing it small needs: each is made at most once, when a
/// `drawImage` call first needs it (while the display list is built, under a lock, so
/// lists may be built on several threads), and only read while tiles are drawn.
public final class RasterImage: Sendable {
  /// Width in pixels (at least 1).
  public let width: Int
  /// Height in pixels (at least 1).
  public let height: Int
  /// Level 0: the pixels themselves.
  let base: ImageLevel
  /// True when every pixel has alpha 0: drawing the image paints nothing.
  public let isFullyTransparent: Bool
  /// Reduced levels made so far, by level number (1, 2, …).
  private let reduced = Mutex<[Int: ImageLevel]>([:])

  /// An image from straight (not premultiplied) RGBA bytes, rows top to bottom, as
  /// `PNGDecoder` returns them. Colour is premultiplied with rounding as
  /// `Color.premultipliedPixel` does: `c × a / 255` to nearest; alpha 0 gives 0, 0, 0, 0.
  /// - Precondition: `width` and `height` are at least 1 and
  ///   `straightRGBA.count == width * height * 4`.
  public init(straightRGBA: [UInt8], width: Int, height: Int) {
    precondition(width > 0 && height > 0, "a RasterImage needs a non-empty size")
    precondition(straightRGBA.count == width * height * 4, "straightRGBA.count must be width * height * 4")
    self.width = width
    self.height = height
    let level = ImageLevel(width: width, height: height)
    straightRGBA.withUnsafeBufferPointer { src in
      for i in 0..<(width * height) {
        let a = UInt32(src[4 * i + 3])
        let r = div255(UInt32(src[4 * i]) &* a)
        let g = div255(UInt32(src[4 * i + 1]) &* a)
        let b = div255(UInt32(src[4 * i + 2]) &* a)
        level.pixels[i] = r | (g << 8) | (b << 16) | (a << 24)
      }
    }
    base = level
    isFullyTransparent = level.isFullyTransparent
  }

  /// An image whose premultiplied pixels (the `Canvas` layout, every channel
  /// at most alpha) `write` fills in place: no copy of a large image is made
  /// (tile mosaics). The pixels start transparent, unless `writesEveryPixel`
  /// promises that `write` sets every one (then they start undefined).
  /// - Precondition: `width` and `height` are at least 1.
  public init(
    width: Int, height: Int, writesEveryPixel: Bool = false, premultipliedWriter write: (UnsafeMutableBufferPointer<UInt32>) -> Void
  ) {
    precondition(width > 0 && height > 0, "a RasterImage needs a non-empty size")
    self.width = width
    self.height = height
    let level = ImageLevel(width: width, height: height, zeroed: !writesEveryPixel)
    write(UnsafeMutableBufferPointer(start: level.pixels, count: width * height))
    base = level
    isFullyTransparent = level.isFullyTransparent
  }

  /// An image from pixels that are already premultiplied (the `Canvas` layout).
  /// Channels above alpha are lowered to alpha.
  /// - Precondition: `width` and `height` are at least 1 and
  ///   `premultipliedPixels.count == width * height`.
  public init(premultipliedPixels: [UInt32], width: Int, height: Int) {
    precondition(width > 0 && height > 0, "a RasterImage needs a non-empty size")
    precondition(premultipliedPixels.count == width * height, "premultipliedPixels.count must be width * height")
    self.width = width
    self.height = height
    let level = ImageLevel(width: width, height: height)
    for (i, p) in premultipliedPixels.enumerated() {
      let a = p >> 24
      let r = min(p & 255, a)
      let g = min((p >> 8) & 255, a)
      let b = min((p >> 16) & 255, a)
      level.pixels[i] = r | (g << 8) | (b << 16) | (a << 24)
    }
    base = level
    isFullyTransparent = level.isFullyTransparent
  }

  /// The `width * height` premultiplied pixels (a copy), in the `Canvas` layout.
  public var pixels: [UInt32] {
    Array(UnsafeBufferPointer(start: base.pixels, count: width * height))
  }

  /// The premultiplied pixel at (x, y).
  public subscript(x: Int, y: Int) -> UInt32 {
    precondition(x >= 0 && x < width && y >= 0 && y < height)
    return base.pixels[y * width + x]
  }

  /// How many reduced (mip) levels have been made so far.
  public var reducedLevelCount: Int { reduced.withLock { $0.count } }

  /// The size of level `k`: each level halves the previous one, rounding up,
  /// down to 1 × 1.
  func levelSize(_ k: Int) -> (width: Int, height: Int) {
    ((width + (1 << k) - 1) >> k, (height + (1 << k) - 1) >> k)
  }

  /// Level `k`, made now (once) if it does not exist yet.
  func level(_ k: Int) -> ImageLevel {
    if k == 0 { return base }
    return reduced.withLock { levels in
      if let level = levels[k] { return level }
      let (w, h) = levelSize(k)
      let level = ImageLevel(boxFiltered: base, width: w, height: h)
      levels[k] = level
      return level
    }
  }
}

/// One resolution of a `RasterImage`: premultiplied pixels in memory it owns, at a
/// fixed address for its whole life (the display list keeps its image alive, so
/// tiles may read the pixels through a plain pointer).
final class ImageLevel: @unchecked Sendable {
  let width: Int
  let height: Int
  let pixels: UnsafeMutablePointer<UInt32>

  init(width: Int, height: Int, zeroed: Bool = true) {
    self.width = width
    self.height = height
    pixels = .allocate(capacity: width * height)
    if zeroed { pixels.initialize(repeating: 0, count: width * height) }
  }

  /// True when every pixel has alpha 0.
  var isFullyTransparent: Bool {
    for i in 0..<(width * height) where pixels[i] >> 24 != 0 { return false }
    return true
  }

  /// `source` reduced to `width` × `height` by area averaging (a box filter): each new
  /// pixel is the mean of the premultiplied source pixels under it, each weighted by
  /// the area it shares with it (exact for any ratio, also odd sizes), rounded to
  /// nearest. Separable: rows first, then columns.
  convenience init(boxFiltered source: ImageLevel, width: Int, height: Int) {
    self.init(width: width, height: height)
    let sw = source.width
    let sh = source.height
    let xTaps = boxTaps(from: sw, to: width)
    let yTaps = boxTaps(from: sh, to: height)
    // Horizontal pass: sh rows of `width` pixels, 4 channels each.
    var rows = [Double](repeating: 0, count: sh * width * 4)
    for y in 0..<sh {
      let src = source.pixels + y * sw
      for x in 0..<width {
        var acc: (Double, Double, Double, Double) = (0, 0, 0, 0)
        for tap in xTaps[x] {
          let p = src[tap.index]
          acc.0 += tap.weight * Double(p & 255)
          acc.1 += tap.weight * Double((p >> 8) & 255)
          acc.2 += tap.weight * Double((p >> 16) & 255)
          acc.3 += tap.weight * Double(p >> 24)
        }
        let o = (y * width + x) * 4
        rows[o] = acc.0
        rows[o + 1] = acc.1
        rows[o + 2] = acc.2
        rows[o + 3] = acc.3
      }
    }
    // Vertical pass. Sums of products with the same weights keep colour ≤ alpha.
    @inline(__always) func byte(_ v: Double) -> UInt32 { UInt32(min(max((v + 0.5).rounded(.down), 0), 255)) }
    for y in 0..<height {
      for x in 0..<width {
        var acc: (Double, Double, Double, Double) = (0, 0, 0, 0)
        for tap in yTaps[y] {
          let o = (tap.index * width + x) * 4
          acc.0 += tap.weight * rows[o]
          acc.1 += tap.weight * rows[o + 1]
          acc.2 += tap.weight * rows[o + 2]
          acc.3 += tap.weight * rows[o + 3]
        }
        let a = byte(acc.3)
        let p = min(byte(acc.0), a) | (min(byte(acc.1), a) << 8) | (min(byte(acc.2), a) << 16) | (a << 24)
        pixels[y * width + x] = p
      }
    }
  }

  deinit { pixels.deallocate() }
}

/// For each of `n` output pixels, the input pixels (of `m`) it overlaps and the
/// share of the output pixel each covers (the shares sum to 1).
private func boxTaps(from m: Int, to n: Int) -> [[(index: Int, weight: Double)]] {
  let scale = Double(m) / Double(n)
  return (0..<n).map { i in
    let lo = Double(i) * scale
    let hi = Double(i + 1) * scale
    var taps: [(index: Int, weight: Double)] = []
    var j = Int(lo.rounded(.down))
    while j < m && Double(j) < hi {
      let overlap = min(hi, Double(j + 1)) - max(lo, Double(j))
      if overlap > 0 { taps.append((j, overlap / scale)) }
      j += 1
    }
    return taps
  }
}

/// One `drawImage` command, resolved when the list was built: the level to sample,
/// the destination pixels it touches, and where its per-column and per-row sampling
/// entries start in `DisplayList.imageAxes` (`x1 - x0` column entries, then `y1 - y0`
/// row entries).
struct ImageDraw: @unchecked Sendable {
  /// Pixels of the sampled level; kept alive by `DisplayList.imageOwners`.
  var pixels: UnsafePointer<UInt32>
  /// Destination pixels `x0..<x1` × `y0..<y1`, inside the frame.
  var x0: Int
  var x1: Int
  var y0: Int
  var y1: Int
  var axisStart: Int
  /// Opacity 0...255.
  var opacity: UInt32
}

/// How one destination column (or row) samples the image: the two neighbouring
/// texels (for rows: their offsets `index * levelWidth`), the weight 0...256 of `hi`,
/// and the pixel's coverage by the rectangle along this axis, 0...256.
struct ImageAxis: Sendable {
  var lo: Int32
  var hi: Int32
  var weight: UInt16
  var coverage: UInt16
}

extension DisplayList {
  /// Number of image commands that reached the canvas.
  public var imageCount: Int { images.count }

  /// Draws `image` scaled into the device-pixel rectangle `rect` (edges may be
  /// fractional), composited source-over with `opacity` (0...1) into the current group.
  /// Returns false, drawing nothing, when `rect` is empty, not finite or outside the
  /// frame, or `opacity` is 0.
  ///
  /// The rule, for every destination pixel, from its absolute position only (so the
  /// output is the same for any tile height and thread count):
  /// - **Coverage** is the exact area the pixel shares with `rect`, its edges rounded to
  ///   1/256 px as fills' are, so fractional edges are anti-aliased as a fill's would be
  ///   (`min(255, coverX × coverY / 256)` with each axis in 0...256).
  /// - **Colour** is the image sampled at the pixel centre, mapped into image space
  ///   (the image's full extent spans `rect`; texel centres at `i + 0.5`), by bilinear
  ///   interpolation of *premultiplied* values (a transparent texel adds no colour: no
  ///   dark fringes), weights in 1/256, clamped at the image edges.
  /// - **Reduction**: while `rect` is less than half a level's width and less than half
  ///   its height, the next level is used: the image reduced to half size (rounded up)
  ///   by area averaging, made from the full image once per level and kept in the
  ///   image. So a strong reduction averages every source pixel instead of aliasing.
  /// - **Blending**: premultiplied source-over of the sample scaled by
  ///   `opacity × coverage` (each 0...255, product divided by 255 rounded).
  @discardableResult
  public mutating func drawImage(_ image: RasterImage, in rect: Rect, opacity: Double = 1) -> Bool {
    guard !image.isFullyTransparent, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite,
      rect.maxX > rect.minX, rect.maxY > rect.minY, opacity > 0
    else { return false }
    let alpha = UInt32((min(opacity, 1) * 255).rounded())
    guard alpha > 0 else { return false }
    // Edges in 1/256 px, clamped to the frame, rounded as the edge builder rounds.
    @inline(__always) func fixed(_ v: Double, _ limit: Int) -> Int {
      Int((min(max(v, 0), Double(limit)) * 256 + 0.5).rounded(.down))
    }
    let qx0 = fixed(rect.minX, width)
    let qx1 = fixed(rect.maxX, width)
    let qy0 = fixed(rect.minY, height)
    let qy1 = fixed(rect.maxY, height)
    guard qx0 < qx1, qy0 < qy1 else { return false }
    let x0 = qx0 >> 8
    let x1 = (qx1 + 255) >> 8
    let y0 = qy0 >> 8
    let y1 = (qy1 + 255) >> 8

    // The level: halve while the rectangle is under half the level in both directions.
    var k = 0
    var (lw, lh) = (image.width, image.height)
    while lw > 1 || lh > 1 {
      guard rect.width * 2 < Double(lw) && rect.height * 2 < Double(lh) else { break }
      k += 1
      (lw, lh) = image.levelSize(k)
    }
    let level = image.level(k)

    let axisStart = imageAxes.count
    @inline(__always) func axis(
      _ p: Int, q0: Int, q1: Int, origin: Double, extent: Double, texels: Int, stride: Int
    ) -> ImageAxis {
      let cover = min((p + 1) << 8, q1) - max(p << 8, q0)
      var u = (Double(p) + 0.5 - origin) / extent * Double(texels) - 0.5
      u = min(max(u, -1), Double(texels))
      let f = u.rounded(.down)
      let i = Int(f)
      let w = UInt16(((u - f) * 256).rounded())
      let lo = min(max(i, 0), texels - 1)
      let hi = min(max(i + 1, 0), texels - 1)
      return ImageAxis(
        lo: Int32(lo * stride), hi: Int32(hi * stride), weight: w,
        coverage: UInt16(min(max(cover, 0), 256)))
    }
    for px in x0..<x1 {
      imageAxes.append(axis(px, q0: qx0, q1: qx1, origin: rect.minX, extent: rect.width, texels: lw, stride: 1))
    }
    for py in y0..<y1 {
      imageAxes.append(axis(py, q0: qy0, q1: qy1, origin: rect.minY, extent: rect.height, texels: lh, stride: lw))
    }
    if imageOwners.last !== image { imageOwners.append(image) }
    imagePixels += (x1 - x0) * (y1 - y0)
    items.append(DrawItem(kind: .image, edgeStart: images.count, minRow: Int32(y0), maxRow: Int32(y1 - 1)))
    images.append(
      ImageDraw(
        pixels: UnsafePointer(level.pixels), x0: x0, x1: x1, y0: y0, y1: y1, axisStart: axisStart,
        opacity: alpha))
    return true
  }
}

extension ImageDraw {
  /// Draws the rows of this image in `top..<bottom` into `target` (row `top` at
  /// `target`, `width` pixels a row). Reads only; every value comes from the
  /// absolute pixel position.
  @inline(__always)
  func draw(
    axes: UnsafePointer<ImageAxis>, into target: UnsafeMutablePointer<UInt32>, width: Int,
    top: Int, bottom: Int
  ) {
    let r0 = max(y0, top)
    let r1 = min(y1, bottom)
    if r0 >= r1 { return }
    let xs = axes + axisStart
    let ys = xs + (x1 &- x0)
    let src = pixels
    let alpha = opacity
    for py in r0..<r1 {
      let ya = ys[py &- y0]
      let coverY = UInt32(ya.coverage)
      if coverY == 0 { continue }
      let rowLo = src + Int(ya.lo)
      let rowHi = src + Int(ya.hi)
      let wy = UInt64(ya.weight)
      let dst = target + (py &- top) &* width
      var px = x0
      // Rows wholly inside the rectangle of an opaque draw: pixels wholly
      // inside too take the sample as it is (the same result as below).
      if coverY == 256 && alpha == 255 {
        while px < x1 {
          let xa = xs[px &- x0]
          if xa.coverage == 256 {
            let lo = Int(xa.lo)
            let hi = Int(xa.hi)
            let s = bilinear(rowLo[lo], rowLo[hi], rowHi[lo], rowHi[hi], UInt64(xa.weight), wy)
            if s >> 24 == 255 {
              dst[px] = s
            } else if s != 0 {
              dst[px] = srcOver(dst[px], s)
            }
            px &+= 1
            continue
          }
          var cover = UInt32(xa.coverage)
          if cover > 255 { cover = 255 }
          if cover != 0 {
            let s = bilinear(rowLo[Int(xa.lo)], rowLo[Int(xa.hi)], rowHi[Int(xa.lo)], rowHi[Int(xa.hi)], UInt64(xa.weight), wy)
            if s != 0 { dst[px] = cover == 255 ? (s >> 24 == 255 ? s : srcOver(dst[px], s)) : srcOver(dst[px], scalePixel(s, cover)) }
          }
          px &+= 1
        }
        continue
      }
      while px < x1 {
        let xa = xs[px &- x0]
        var cover = (UInt32(xa.coverage) &* coverY) >> 8
        if cover > 255 { cover = 255 }
        let k = alpha == 255 ? cover : div255(alpha &* cover)
        if k != 0 {
          let lo = Int(xa.lo)
          let hi = Int(xa.hi)
          let s = bilinear(rowLo[lo], rowLo[hi], rowHi[lo], rowHi[hi], UInt64(xa.weight), wy)
          if s != 0 {
            if k == 255 {
              dst[px] = s >> 24 == 255 ? s : srcOver(dst[px], s)
            } else {
              dst[px] = srcOver(dst[px], scalePixel(s, k))
            }
          }
        }
        px &+= 1
      }
    }
  }
}

/// Bilinear mix of four premultiplied pixels (`a` `b` on the upper row, `c` `d` below)
/// with weights `wx`, `wy` in 0...256 for the right and lower pixels, rounded to
/// nearest. Two channels per 64-bit lane pair, so every channel keeps 24 bits.
@inline(__always)
func bilinear(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ wx: UInt64, _ wy: UInt64) -> UInt32 {
  if wx == 0 && wy == 0 { return a }
  let ix = 256 &- UInt32(truncatingIfNeeded: wx)
  let iy = 256 &- UInt32(truncatingIfNeeded: wy)
  let x = UInt32(truncatingIfNeeded: wx)
  let y = UInt32(truncatingIfNeeded: wy)
  // The four channels at once: each at most 255 × 65536 + 32768 < 2²⁴, so
  // 32-bit lanes hold the exact sum; the result is its bits 16...23.
  @inline(__always) func lanes(_ p: UInt32) -> SIMD4<UInt32> {
    SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(p, to: SIMD4<UInt8>.self))
  }
  let sum = lanes(a) &* (ix &* iy) &+ lanes(b) &* (x &* iy) &+ lanes(c) &* (ix &* y) &+ lanes(d) &* (x &* y) &+ 32768
  let out = SIMD4<UInt8>(truncatingIfNeeded: sum &>> 16)
  return unsafeBitCast(out, to: UInt32.self)
}
