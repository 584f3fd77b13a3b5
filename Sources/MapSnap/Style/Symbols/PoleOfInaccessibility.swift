internal import _MapSnapRaster

/// Where MapLibre anchors a polygon's point label: the polygon's pole of
/// inaccessibility (the interior point farthest from its edges), found to
/// within `precision` by the quadtree search of Mapbox's polylabel: square
/// cells over the outer ring's bounds, the cell that could hold a farther
/// point split first, a cell dropped once it cannot beat the best by more
/// than `precision`. Starts from the ring's centroid. Rings in tile units.
enum PoleOfInaccessibility {
  /// MapLibre's precision for symbol anchors, in tile units.
  static let symbolPrecision = 16.0
  /// A bound on the cells visited, so that no polygon makes the search unbounded.
  static let maximumCells = 10_000

  static func of(_ rings: [[Point]], precision: Double = symbolPrecision) -> Point? {
    guard let outer = rings.first, !outer.isEmpty else { return nil }
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for p in outer {
      minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
    }
    let width = maxX - minX, height = maxY - minY
    let size = min(width, height)
    guard size > 0, size.isFinite else { return Point(minX, minY) }
    var h = size / 2

    struct Cell {
      let x: Double, y: Double, h: Double, d: Double
      var potential: Double { d + h * 2.0.squareRoot() }
    }
    func cell(_ x: Double, _ y: Double, _ h: Double) -> Cell { Cell(x: x, y: y, h: h, d: distance(Point(x, y), rings)) }

    var queue = MaxHeap<Cell> { $0.potential > $1.potential }
    var x = minX
    while x < maxX {
      var y = minY
      while y < maxY {
        queue.push(cell(x + h, y + h, h))
        y += size
      }
      x += size
    }
    let c = centroid(outer)
    var best = cell(c.x, c.y, 0)
    let boxCell = cell(minX + width / 2, minY + height / 2, 0)
    if boxCell.d > best.d { best = boxCell }
    var visited = 0
    while let next = queue.pop(), visited < maximumCells {
      visited += 1
      if next.d > best.d { best = next }
      if next.potential - best.d <= precision { continue }
      h = next.h / 2
      queue.push(cell(next.x - h, next.y - h, h))
      queue.push(cell(next.x + h, next.y - h, h))
      queue.push(cell(next.x - h, next.y + h, h))
      queue.push(cell(next.x + h, next.y + h, h))
    }
    return Point(best.x, best.y)
  }

  /// The distance from `p` to the rings' edges, negative outside (even-odd over all rings).
  static func distance(_ p: Point, _ rings: [[Point]]) -> Double {
    var inside = false
    var minSq = Double.infinity
    for ring in rings where !ring.isEmpty {
      var j = ring.count - 1
      for i in ring.indices {
        let a = ring[i], b = ring[j]
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
        minSq = min(minSq, segmentDistanceSquared(p, a, b))
        j = i
      }
    }
    return (inside ? 1 : -1) * minSq.squareRoot()
  }

  private static func segmentDistanceSquared(_ p: Point, _ a: Point, _ b: Point) -> Double {
    var x = a.x, y = a.y
    var dx = b.x - x, dy = b.y - y
    if dx != 0 || dy != 0 {
      let t = ((p.x - x) * dx + (p.y - y) * dy) / (dx * dx + dy * dy)
      if t > 1 {
        x = b.x; y = b.y
      } else if t > 0 {
        x += dx * t; y += dy * t
      }
    }
    dx = p.x - x; dy = p.y - y
    return dx * dx + dy * dy
  }

  /// The area centroid of a ring; its first point when it has no area.
  private static func centroid(_ ring: [Point]) -> Point {
    var area = 0.0, x = 0.0, y = 0.0
    var j = ring.count - 1
    for i in ring.indices {
      let a = ring[i], b = ring[j]
      let f = a.x * b.y - b.x * a.y
      x += (a.x + b.x) * f
      y += (a.y + b.y) * f
      area += f * 3
      j = i
    }
    return area == 0 ? ring[0] : Point(x / area, y / area)
  }
}

/// A binary heap whose `pop` returns the element `before` ranks first.
struct MaxHeap<Element> {
  private var items: [Element] = []
  private let before: (Element, Element) -> Bool

  init(_ before: @escaping (Element, Element) -> Bool) { self.before = before }

  mutating func push(_ e: Element) {
    items.append(e)
    var i = items.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard before(items[i], items[parent]) else { break }
      items.swapAt(i, parent)
      i = parent
    }
  }

  mutating func pop() -> Element? {
    guard !items.isEmpty else { return nil }
    let top = items[0]
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var i = 0
      while true {
        let l = 2 * i + 1, r = l + 1
        var m = i
        if l < items.count && before(items[l], items[m]) { m = l }
        if r < items.count && before(items[r], items[m]) { m = r }
        if m == i { break }
        items.swapAt(i, m)
        i = m
      }
    }
    return top
  }
}
