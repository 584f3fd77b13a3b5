import Foundation
import Testing

@testable import _MapSnapRaster

/// `EdgeBlock` and `DisplayList.append`: a frame's list holds the blocks of
/// the lists appended to it (no copy), draws what one serial list draws, and
/// copies of a list never see each other's fills.
@Suite struct EdgeBlockTests {
  /// A seeded ring of `n` points around `(cx, cy)`, tall enough to span
  /// several 64-row buckets (so its edges are bucket-sorted).
  func ring(_ n: Int, cx: Double, cy: Double, r: Double, seed: UInt64) -> Path {
    var s = seed
    var pts: [Point] = []
    for i in 0..<n {
      s = s &* 6364136223846793005 &+ 1442695040888963407
      let k = r * (0.6 + 0.4 * Double(s >> 11) / Double(1 << 53))
      let a = Double(i) / Double(n) * 2 * Double.pi
      pts.append(Point(cx + k * cos(a), cy + k * sin(a)))
    }
    var p = Path()
    p.addContour(pts, closed: true)
    return p
  }

  func pixels(_ list: DisplayList, threads: Int = 2, rows: Int = 16) -> [UInt32] {
    let canvas = Canvas(width: list.width, height: list.height)
    TileRenderer.render(list, into: canvas, options: .init(threads: threads, tileRows: rows))
    return Array(canvas.buffer)
  }

  @Test func appendedPartsDrawWhatOneSerialListDraws() {
    let colors = [Color(r: 200, g: 30, b: 30, a: 200), Color(r: 30, g: 160, b: 60, a: 255), Color(r: 20, g: 40, b: 220, a: 120)]
    let rings = (0..<9).map { ring(300 + 50 * $0, cx: 40 + 30 * Double($0), cy: 150, r: 60 + 8 * Double($0), seed: UInt64($0 + 1)) }
    var serial = DisplayList(width: 320, height: 300, background: .white)
    var frame = DisplayList(width: 320, height: 300, background: .white)
    var parts: [DisplayList] = []
    for k in 0..<3 {
      var part = DisplayList(width: 320, height: 300, background: .transparent)
      for j in 0..<3 { part.fill(rings[3 * k + j], color: colors[j]) }
      parts.append(part)
    }
    // The frame fills one ring of its own first, then a group around part 1.
    serial.fill(rings[0], color: colors[2])
    frame.fill(rings[0], color: colors[2])
    for k in 0..<3 {
      if k == 1 { serial.beginGroup(opacity: 0.5); frame.beginGroup(opacity: 0.5) }
      for j in 0..<3 { serial.fill(rings[3 * k + j], color: colors[j]) }
      frame.append(parts[k])
      if k == 1 { serial.endGroup(); frame.endGroup() }
    }
    // And fills after the parts, into a block of its own.
    serial.fill(rings[8], color: colors[0])
    frame.fill(rings[8], color: colors[0])
    #expect(frame.edgeCount == serial.edgeCount)
    #expect(frame.fillCount == serial.fillCount)
    // The parts' blocks, not copies of them.
    for part in parts { #expect(frame.sealedEdges.contains { $0 === part.edges }) }
    let reference = pixels(serial, threads: 1, rows: 300)
    for (threads, rows) in [(1, 300), (2, 16), (3, 7)] {
      #expect(pixels(frame, threads: threads, rows: rows) == reference, "threads \(threads), rows \(rows)")
    }
  }

  @Test func aCopyOfAListKeepsItsOwnFills() {
    var a = DisplayList(width: 200, height: 200, background: .white)
    a.fill(ring(400, cx: 100, cy: 100, r: 80, seed: 7), color: .black)
    let before = pixels(a)
    let count = a.edgeCount
    var b = a
    b.fill(ring(200, cx: 60, cy: 60, r: 40, seed: 8), color: Color(r: 255, g: 0, b: 0, a: 255))
    #expect(a.edgeCount == count)
    #expect(b.edgeCount > count)
    #expect(a.edges !== b.edges)
    #expect(pixels(a) == before)
    #expect(pixels(b) != before)
  }

  @Test func aBlockKeepsEveryEdgeAcrossItsGrowth() {
    let block = EdgeBlock()
    for i in 0..<100_000 {
      block.append(Edge(x0: Int32(i), y0: Int32(i), x1: Int32(i + 1), y1: Int32(i + 2), winding: i % 2 == 0 ? 1 : -1))
    }
    #expect(block.count == 100_000)
    #expect(block.capacity >= 100_000)
    let b = block.buffer
    #expect(b.indices.allSatisfy { b[$0].x0 == Int32($0) && b[$0].y1 == Int32($0 + 2) })
    let c = block.copy()
    block.removeAll(from: 10)
    #expect(block.count == 10 && c.count == 100_000 && c.buffer[99_999].x1 == 100_000)
  }

  /// An edge is 16 bytes: its bottom and winding share one word, and read
  /// back as given, up to the tallest edge a canvas can hold.
  @Test func anEdgeKeepsItsBottomAndWindingInSixteenBytes() {
    #expect(MemoryLayout<Edge>.stride == 16)
    for (y0, y1) in [(0, 1), (5, 5), (1000, 1000 + 64 * 256), (0, 32768 * 256), (1 << 23, (1 << 23) + 7), (0, (1 << 30) - 1)] {
      for w: Int32 in [1, -1] {
        let e = Edge(x0: -3, y0: Int32(y0), x1: 1 << 23, y1: Int32(y1), winding: w)
        #expect(e.x0 == -3 && e.x1 == 1 << 23 && e.y0 == Int32(y0) && e.y1 == Int32(y1) && e.winding == w, "\(y0)...\(y1) \(w)")
      }
    }
    let down = Edge(x0: 0, y0: 0, x1: 0, y1: 256, winding: 1)
    #expect(down != Edge(x0: 0, y0: 0, x1: 0, y1: 256, winding: -1))
    #expect(down != Edge(x0: 0, y0: 0, x1: 0, y1: 257, winding: 1))
  }

  @Test func bucketSortGroupsEveryEdgeInPlace() {
    var s: UInt64 = 12345
    func next(_ n: Int32) -> Int32 {
      s = s &* 6364136223846793005 &+ 1442695040888963407
      return Int32(truncatingIfNeeded: s >> 33) % n
    }
    func edge(row: Int32, _ i: Int) -> Edge {
      let y0 = row * 256 + next(256)
      return Edge(x0: next(100_000), y0: y0, x1: next(100_000), y1: y0 + 1 + next(60 * 256), winding: i % 2 == 0 ? 1 : -1)
    }
    // Rows 100...1299 (buckets 1...20) but none of 700...899 (buckets 11
    // to 13 empty), and a run of 500 edges of bucket 10 in the middle.
    var mixed: [Edge] = []
    for i in 0..<5000 {
      var row = 100 + next(1000)
      if row >= 700 { row += 200 }
      mixed.append(edge(row: i >= 2000 && i < 2500 ? 640 : row, i))
    }
    let cases: [(name: String, edges: [Edge])] = [
      ("mixed", mixed),
      ("bottom to top", mixed.sorted { $0.y0 > $1.y0 }),
      ("all in the last bucket", (0..<300).map { edge(row: 1280 + next(20), $0) }),
      ("none", []),
    ]
    let first = 100 >> 6
    let last = 1299 >> 6
    func key(_ e: Edge) -> [Int32] { [e.y0, e.x0, e.y1, e.x1, e.winding] }
    for c in cases {
      var edges = c.edges
      let offsets = edges.withUnsafeMutableBufferPointer { EdgeBuckets.sort($0, firstBucket: first, lastBucket: last) }
      #expect(offsets.count == last - first + 2, "\(c.name)")
      #expect(offsets.first == 0 && offsets.last == Int32(edges.count), "\(c.name)")
      for b in 0..<(last - first + 1) {
        let range = Int(offsets[b])..<Int(offsets[b + 1])
        #expect(range.allSatisfy { Int(edges[$0].y0 >> 14) == first + b }, "\(c.name), bucket \(b)")
        #expect(range.count == c.edges.filter { Int($0.y0 >> 14) == first + b }.count, "\(c.name), bucket \(b)")
      }
      // The same edges, each once.
      #expect(edges.map(key).sorted { $0.lexicographicallyPrecedes($1) } == c.edges.map(key).sorted { $0.lexicographicallyPrecedes($1) }, "\(c.name)")
    }
    // Buckets 11 to 13 of the mixed case are empty.
    var edges = mixed
    let offsets = edges.withUnsafeMutableBufferPointer { EdgeBuckets.sort($0, firstBucket: first, lastBucket: last) }
    #expect((11...13).allSatisfy { offsets[$0 - first] == offsets[$0 - first + 1] })
  }

  /// `fillStroke` turns each outline loop into edges as the stroker makes
  /// it: the same item, edges and bucket offsets as filling the outline
  /// path, for open and closed contours, every join and cap, geometry
  /// partly or wholly off the canvas, dots, and a list whose block is shared.
  @Test func aStrokeFilledAsItIsMadeIsTheFillOfItsOutline() {
    var shapes: [Path] = [ring(400, cx: 120, cy: 150, r: 110, seed: 7), ring(60, cx: 300, cy: 40, r: 90, seed: 8)]
    var several = ring(200, cx: 100, cy: 100, r: 50, seed: 9)
    several.addContour([Point(10, 280), Point(150, 200), Point(160, 290), Point(-40, 150)], closed: false)
    several.addContour([Point(200, 200)], closed: false)  // a dot
    shapes.append(several)
    var outside = Path()
    outside.addContour([Point(-500, -500), Point(-400, -450), Point(-450, -300)], closed: true)
    shapes.append(outside)
    let styles = [
      StrokeStyle(width: 1, join: .round, cap: .round), StrokeStyle(width: 7, join: .miter, cap: .square, miterLimit: 2),
      StrokeStyle(width: 3.5, join: .bevel, cap: .butt), StrokeStyle(width: 0),
    ]
    let color = Color(r: 20, g: 90, b: 200, a: 180)
    for shape in shapes {
      for style in styles {
        var expected = DisplayList(width: 320, height: 300, background: .white)
        var actual = DisplayList(width: 320, height: 300, background: .white)
        // One fill first, and the actual list's block shared with a copy.
        expected.fill(shapes[1], color: color)
        actual.fill(shapes[1], color: color)
        let copy = actual
        let drewExpected = expected.fill(strokeOutline(shape, style: style, tolerance: 0.1), color: color)
        let drewActual = actual.fillStroke(of: shape, style: style, tolerance: 0.1, color: color)
        #expect(drewActual == drewExpected)
        #expect(Array(actual.edges.buffer) == Array(expected.edges.buffer))
        #expect(actual.items.map { String(describing: $0) } == expected.items.map { String(describing: $0) })
        #expect(actual.bucketOffsets == expected.bucketOffsets)
        #expect(copy.edgeCount == expected.edgeCount - (drewExpected ? expected.items.last!.edgeCount : 0))
        #expect(copy.items.count == 1)
      }
    }
    // Every shape but the one off the canvas draws with a visible stroke.
    var list = DisplayList(width: 320, height: 300, background: .white)
    let visible = list.fillStroke(of: shapes[0], style: styles[0], tolerance: 0.1, color: color)
    let offCanvas = list.fillStroke(of: outside, style: styles[0], tolerance: 0.1, color: color)
    let transparent = list.fillStroke(of: shapes[0], style: styles[0], tolerance: 0.1, color: .transparent)
    #expect(visible && !offCanvas && !transparent)
    #expect(list.items.count == 1)
  }
}
