/// Coverage masks (8-bit alpha) of small shapes such as glyphs and their
/// halos, rasterised once by the cell rasteriser and then only copied: a
/// label's letters are blitted, not rasterised again for every occurrence.
///
/// Masks are added before the tiles are drawn; the tiles only read them.
public final class MaskAtlas: @unchecked Sendable {
  struct Entry {
    var offset: Int
    var width: Int32
    var height: Int32
    /// Mask origin relative to the point it is placed at.
    var left: Int32
    var top: Int32
  }

  private(set) var bytes: [UInt8] = []
  private(set) var entries: [Entry] = []

  public init() {}

  /// Number of masks held.
  public var count: Int { entries.count }

  /// Rasterises `path` (device pixels relative to the placement point, filled
  /// non-zero) into a new mask and returns its index; nil when it covers no
  /// pixel.
  public func add(_ path: Path) -> Int? {
    Self.rasterize(path).map(append)
  }

  /// A mask rasterised, not yet in an atlas: its coverage rows and where it
  /// lies relative to its placement point.
  public struct Mask: Sendable {
    package var bytes: [UInt8]
    package var width: Int32
    package var height: Int32
    package var left: Int32
    package var top: Int32
  }

  /// `path` rasterised as `add` does, touching no atlas: masks are made on
  /// several threads at once and appended in order (`append`), so an atlas
  /// holds the same masks at the same indices as one filled by `add`.
  public static func rasterize(_ path: Path) -> Mask? {
    let b = path.bounds
    guard !b.isEmpty, b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else { return nil }
    let x0 = Int(b.minX.rounded(.down))
    let y0 = Int(b.minY.rounded(.down))
    let w = Int(b.maxX.rounded(.up)) - x0
    let h = Int(b.maxY.rounded(.up)) - y0
    guard w > 0, h > 0, w <= 4096, h <= 4096 else { return nil }
    var shifted = path
    for i in shifted.points.indices { shifted.points[i] = shifted.points[i] - Point(Double(x0), Double(y0)) }
    var list = DisplayList(width: w, height: h, background: .transparent)
    guard list.fill(shifted, rule: .nonZero, color: .black) else { return nil }
    let canvas = Canvas(width: w, height: h)
    TileRenderer.render(list, into: canvas, options: RenderOptions(threads: 1, tileRows: h))
    // A shape too thin to cover any pixel has no mask.
    guard canvas.buffer.contains(where: { $0 >> 24 != 0 }) else { return nil }
    return Mask(
      bytes: canvas.buffer.map { UInt8(truncatingIfNeeded: $0 >> 24) }, width: Int32(w), height: Int32(h), left: Int32(x0), top: Int32(y0))
  }

  /// Adds `mask` and returns its index.
  public func append(_ mask: Mask) -> Int {
    let offset = bytes.count
    bytes += mask.bytes
    entries.append(Entry(offset: offset, width: mask.width, height: mask.height, left: mask.left, top: mask.top))
    return entries.count - 1
  }

  /// The columns a mask covers when placed at column `x`.
  func columns(of mask: Int, at x: Int) -> (Int, Int) {
    let e = entries[mask]
    return (x + Int(e.left), x + Int(e.left) + Int(e.width) - 1)
  }

  /// The rows a mask covers when placed at row `y`.
  func rows(of mask: Int, at y: Int) -> (Int, Int) {
    let e = entries[mask]
    return (y + Int(e.top), y + Int(e.top) + Int(e.height) - 1)
  }
}

/// One mask placed at an integer device position.
struct MaskPlacement: Sendable {
  var mask: Int32
  var x: Int32
  var y: Int32
}

/// Paints `placements` of `atlas` masks with `paint` into band rows
/// `top..<bottom` of `target` (row `top` at `target`).
@inline(__always)
func blitMasks(
  _ placements: UnsafeBufferPointer<MaskPlacement>, atlas: MaskAtlas, paint: UInt32,
  into target: UnsafeMutablePointer<UInt32>, width: Int, top: Int, bottom: Int
) {
  atlas.bytes.withUnsafeBufferPointer { bytes in
    atlas.entries.withUnsafeBufferPointer { entries in
      let opaque = paint >> 24 == 255
      for p in placements {
        let e = entries[Int(p.mask)]
        let y0 = Int(p.y) + Int(e.top)
        let x0 = Int(p.x) + Int(e.left)
        let r0 = max(y0, top)
        let r1 = min(y0 + Int(e.height), bottom)
        if r0 >= r1 { continue }
        let c0 = max(x0, 0)
        let c1 = min(x0 + Int(e.width), width)
        if c0 >= c1 { continue }
        for row in r0..<r1 {
          let src = bytes.baseAddress! + e.offset + (row - y0) * Int(e.width) - x0
          let dst = target + (row - top) * width
          for x in c0..<c1 {
            let cov = UInt32(src[x])
            if cov == 0 { continue }
            if cov == 255 && opaque {
              dst[x] = paint
            } else {
              dst[x] = srcOver(dst[x], scalePixel(paint, cov))
            }
          }
        }
      }
    }
  }
}
