#if canImport(Glibc)
  import Glibc
#endif

/// A fill's paint that is an image repeated without end over the plane
/// (`DisplayList.fill(_:rule:pattern:)`): the image's pixel grid placed in
/// device space by an affine map, with an opacity.
///
/// Image pixel (i, j)'s top-left corner lies at device point
/// `origin + i · xAxis + j · yAxis`; the image repeats every `width` pixels
/// along `xAxis` and every `height` along `yAxis`.
public struct PatternPaint: Sendable {
  public var image: RasterImage
  /// Where the top-left corner of one repeat of the image lies, in device pixels.
  public var origin: Point
  /// The device displacement of one image pixel along the image's rows.
  public var xAxis: Point
  /// The device displacement of one image pixel down the image's columns.
  public var yAxis: Point
  /// 0...1, multiplied into every sample.
  public var opacity: Double

  public init(image: RasterImage, origin: Point, xAxis: Point, yAxis: Point, opacity: Double = 1) {
    self.image = image
    self.origin = origin
    self.xAxis = xAxis
    self.yAxis = yAxis
    self.opacity = opacity
  }

  /// The image upright, each of its pixels `scale` device pixels square.
  public init(image: RasterImage, origin: Point, scale: Double, opacity: Double = 1) {
    self.init(image: image, origin: origin, xAxis: Point(scale, 0), yAxis: Point(0, scale), opacity: opacity)
  }
}

/// A pattern fill's paint, resolved when the list was built: the inverse of
/// the paint's map, from a device pixel's centre to image coordinates
/// measured from texel centres (`u = ux·x + uy·y + u0`, `v = vx·x + vy·y + v0`,
/// `u0` and `v0` reduced modulo the image's size so the numbers stay small).
struct PatternDraw: @unchecked Sendable {
  /// The image's premultiplied pixels; kept alive by `DisplayList.imageOwners`.
  var pixels: UnsafePointer<UInt32>
  var width: Int
  var height: Int
  var ux, uy, u0, vx, vy, v0: Double
  /// Opacity 0...255.
  var opacity: UInt32

  /// Nil when the map is degenerate (no area) or not finite.
  init?(_ paint: PatternPaint) {
    let a = paint.xAxis, b = paint.yAxis
    let det = a.x * b.y - b.x * a.y
    guard det.isFinite, det.magnitude > 1e-12, paint.origin.x.isFinite, paint.origin.y.isFinite else { return nil }
    // (x, y) − origin = u·a + v·b, solved for (u, v).
    ux = b.y / det
    uy = -b.x / det
    vx = -a.y / det
    vy = a.x / det
    let w = Double(paint.image.width), h = Double(paint.image.height)
    // Texel centres lie at i + 0.5: sampling coordinates are shifted by a half.
    let cu = -(ux * paint.origin.x + uy * paint.origin.y) - 0.5
    let cv = -(vx * paint.origin.x + vy * paint.origin.y) - 0.5
    u0 = cu - (cu / w).rounded(.down) * w
    v0 = cv - (cv / h).rounded(.down) * h
    guard ux.isFinite, uy.isFinite, vx.isFinite, vy.isFinite, u0.isFinite, v0.isFinite else { return nil }
    pixels = UnsafePointer(paint.image.base.pixels)
    width = paint.image.width
    height = paint.image.height
    opacity = DisplayList.groupAlpha(paint.opacity)
  }
}

/// The texels either side of sampling coordinate `t` on an axis of `n`
/// texels that repeats, and the weight 0...256 of the upper one.
@inline(__always)
private func wrappedTexels(_ t: Double, _ n: Int) -> (lo: Int, hi: Int, weight: UInt64) {
  let f = t.rounded(.down)
  var i = Int(f) % n
  if i < 0 { i &+= n }
  let hi = i &+ 1 == n ? 0 : i &+ 1
  return (i, hi, UInt64(((t - f) * 256).rounded()))
}

/// Paints runs of a pattern fill: each pixel's colour is the image sampled
/// at the pixel's centre (bilinear on premultiplied texels, wrapping at
/// the image's edges), from its absolute position only, scaled by
/// `opacity × coverage` and composited source-over.
///
/// Along a run the column texel is kept by stepping (the step from one
/// pixel's `floor(u)` to the next, wrapped), which gives `floor(u) mod
/// width` exactly, without a division per pixel; an image upright on the
/// device grid (`vx == 0`) has one row texel per run.
struct PatternSpans: SpanPainter {
  let pattern: PatternDraw

  @inline(__always)
  func paint(_ row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, coverage: UInt32) {
    if coverage == 0 || count <= 0 { return }
    let p = pattern
    let k = p.opacity == 255 ? coverage : div255(p.opacity &* coverage)
    if k == 0 { return }
    let w = p.width
    let cy = Double(y) + 0.5
    let ru = p.uy * cy + p.u0
    let rv = p.vy * cy + p.v0
    let upright = p.vx == 0
    // vx · cx + rv is rv for every pixel when vx is 0.
    var tv = wrappedTexels(rv, p.height)
    var lo = p.pixels + tv.lo &* w
    var hi = p.pixels + tv.hi &* w
    var column = 0
    var lastFloor = 0
    for i in x..<(x &+ count) {
      let cx = Double(i) + 0.5
      let u = p.ux * cx + ru
      let f = u.rounded(.down)
      let fi = Int(f)
      let step = fi &- lastFloor
      if i == x || step >= w || step <= -w {
        column = fi % w
        if column < 0 { column &+= w }
      } else {
        column &+= step
        if column >= w { column &-= w } else if column < 0 { column &+= w }
      }
      lastFloor = fi
      let next = column &+ 1 == w ? 0 : column &+ 1
      if !upright {
        tv = wrappedTexels(p.vx * cx + rv, p.height)
        lo = p.pixels + tv.lo &* w
        hi = p.pixels + tv.hi &* w
      }
      let s = bilinear(lo[column], lo[next], hi[column], hi[next], UInt64(((u - f) * 256).rounded()), tv.weight)
      if s == 0 { continue }
      if k == 255 {
        row[i] = s >> 24 == 255 ? s : srcOver(row[i], s)
      } else {
        row[i] = srcOver(row[i], scalePixel(s, k))
      }
    }
  }
}

extension DisplayList {
  /// Number of pattern fills that reached the canvas.
  public var patternCount: Int { patterns.count }

  /// Fills `path` (every contour taken as closed) with `pattern`: the same
  /// coverage as `fill(_:rule:color:)` gives the path, each pixel's colour
  /// the pattern's sample at its centre (`PatternSpans`). Returns false,
  /// drawing nothing, when the path covers nothing inside the frame, the
  /// image is fully transparent, the opacity rounds to 0 or the pattern's
  /// map has no area.
  @discardableResult
  public mutating func fill(_ path: Path, rule: FillRule = .nonZero, pattern: PatternPaint) -> Bool {
    guard !pattern.image.isFullyTransparent, let draw = PatternDraw(pattern), draw.opacity > 0 else { return false }
    guard fill(path, rule: rule, color: .black, testingCoverage: true) else { return false }
    attachPattern(draw, owner: pattern.image)
    return true
  }

  /// `path` stroked with `style` (`strokeOutline`), filled with `pattern`.
  @discardableResult
  public mutating func fillStroke(of path: Path, style: StrokeStyle, tolerance: Double, pattern: PatternPaint) -> Bool {
    guard !pattern.image.isFullyTransparent, let draw = PatternDraw(pattern), draw.opacity > 0 else { return false }
    guard fillStroke(of: path, style: style, tolerance: tolerance, color: .black) else { return false }
    attachPattern(draw, owner: pattern.image)
    return true
  }

  /// Makes the fill just recorded paint `draw`.
  private mutating func attachPattern(_ draw: PatternDraw, owner: RasterImage) {
    items[items.count - 1].pattern = Int32(patterns.count)
    patterns.append(draw)
    if imageOwners.last !== owner { imageOwners.append(owner) }
  }
}
