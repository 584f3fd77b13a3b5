import Foundation
import Testing

@testable import _MapSnapRaster

/// `StripRenderer` keeps its workers' scratch (`BandWorkerPool`) from strip
/// to strip: a renderer that has drawn other strips draws a strip exactly
/// as a fresh one does, and keeps no more scratch than it had workers.
@Suite struct StripRendererTests {
  /// Rings of seeded radii, translucent fills and a translucent group (so
  /// a worker's group buffer is used), over 200 rows.
  func list() -> DisplayList {
    var list = DisplayList(width: 180, height: 200, background: .white)
    var s: UInt64 = 7
    func ring(cx: Double, cy: Double, r: Double) -> Path {
      var pts: [Point] = []
      for i in 0..<90 {
        s = s &* 6364136223846793005 &+ 1442695040888963407
        let k = r * (0.7 + 0.3 * Double(s >> 11) / Double(1 << 53))
        let a = Double(i) / 90 * 2 * Double.pi
        pts.append(Point(cx + k * cos(a), cy + k * sin(a)))
      }
      var p = Path()
      p.addContour(pts, closed: true)
      return p
    }
    list.fill(ring(cx: 60, cy: 60, r: 50), color: Color(r: 200, g: 30, b: 30, a: 200))
    list.beginGroup(opacity: 0.5)
    list.fill(ring(cx: 100, cy: 110, r: 70), color: Color(r: 30, g: 160, b: 60, a: 255))
    list.fill(ring(cx: 120, cy: 90, r: 40), color: Color(r: 20, g: 40, b: 220, a: 120))
    list.endGroup()
    list.fill(ring(cx: 90, cy: 160, r: 35), color: Color(r: 250, g: 200, b: 0, a: 160))
    return list
  }

  func draw(_ renderer: StripRenderer, rows: Range<Int>) -> [UInt32] {
    let width = renderer.list.width
    let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: rows.count * width)
    defer { pixels.deallocate() }
    renderer.render(rows: rows, into: pixels)
    return Array(UnsafeBufferPointer(start: pixels, count: rows.count * width))
  }

  @Test func aRendererThatDrewOtherStripsDrawsAsAFreshOne() {
    let list = list()
    for threads in [1, 2, 3] {
      let options = RenderOptions(threads: threads, tileRows: 16)
      let kept = StripRenderer(list, options: options)
      // Strips that cut bands, twice over, through the same renderer.
      let cuts = [0, 37, 64, 101, 150, 200]
      for _ in 0..<2 {
        for k in 0..<(cuts.count - 1) {
          let rows = cuts[k]..<cuts[k + 1]
          #expect(draw(kept, rows: rows) == draw(StripRenderer(list, options: options), rows: rows), "threads \(threads), rows \(rows)")
        }
      }
      #expect(kept.scratch.idleCount <= threads, "scratch kept for more workers than drew")
      #expect(kept.scratch.idleCount >= 1)
    }
  }
}
