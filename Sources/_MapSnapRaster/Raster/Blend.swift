// Premultiplied source-over on packed RGBA8, two channels per 32-bit lane
// (R,B in 0x00FF00FF and G,A shifted down), with exact rounding of x/255.

/// `pixel * k / 255` per channel, rounded, for `k` in 0...255.
@inline(__always)
func scalePixel(_ p: UInt32, _ k: UInt32) -> UInt32 {
  var rb = (p & 0x00FF_00FF) &* k &+ 0x0080_0080
  rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
  var ga = ((p >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
  ga = (ga &+ ((ga >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
  return rb | ga
}

/// Source-over: `src + dst * (255 - srcAlpha) / 255`, both premultiplied.
@inline(__always)
func srcOver(_ dst: UInt32, _ src: UInt32) -> UInt32 {
  let inv = 255 &- (src >> 24)
  return src &+ scalePixel(dst, inv)
}

/// Paints `count` pixels from `row` with premultiplied `paint` at coverage
/// `alpha` (0...255).
@inline(__always)
func blendSpan(_ row: UnsafeMutablePointer<UInt32>, _ count: Int, _ paint: UInt32, _ alpha: UInt32) {
  if alpha == 0 || count <= 0 { return }
  if alpha == 255 && paint >> 24 == 255 {
    row.update(repeating: paint, count: count)
    return
  }
  let src = alpha == 255 ? paint : scalePixel(paint, alpha)
  if src == 0 { return }
  for i in 0..<count {
    row[i] = srcOver(row[i], src)
  }
}

/// Composites `count` pixels of `src` over `dst` at `opacity` (0...255).
@inline(__always)
func compositeRow(
  _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafeMutablePointer<UInt32>, _ count: Int,
  _ opacity: UInt32
) {
  for i in 0..<count {
    let s = src[i]
    if s == 0 { continue }
    dst[i] = srcOver(dst[i], opacity == 255 ? s : scalePixel(s, opacity))
  }
}
