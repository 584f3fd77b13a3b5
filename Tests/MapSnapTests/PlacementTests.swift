import Testing
import _MapSnapTestSupport
import _MapSnapRaster

@testable import MapSnap

private func rect(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> Rect {
  Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
}

/// A small deterministic generator (SplitMix64) so random tests are reproducible.

/// Brute-force reference for `place`, written straight from the rules.
private func referencePlace(
  _ candidates: [PlacementCandidate], in frame: Rect, mustFit: Bool, obstacles: [(Rect, id: Int)]
) -> PlacementResult {
  var blockers: [(Rect, Int)] = obstacles.map { ($0.0, $0.id) }
  var chosen: [Int?] = []
  var blockedBy: [[Int]] = []
  var blockedByMore: [Int] = []
  func proper(_ b: Rect) -> Bool {
    [b.minX, b.minY, b.maxX, b.maxY].allSatisfy(\.isFinite) && b.minX <= b.maxX && b.minY <= b.maxY
  }
  func inFrame(_ b: Rect, _ fit: Bool) -> Bool {
    proper(b)
      && (!(mustFit || fit) || (b.minX >= frame.minX && b.maxX <= frame.maxX && b.minY >= frame.minY && b.maxY <= frame.maxY))
  }
  for c in candidates {
    var taken: Int?
    for (j, b) in c.boxes.enumerated() where inFrame(b, c.mustFit) {
      if c.allowOverlap || !blockers.contains(where: { CollisionGrid.overlaps($0.0, b) }) {
        taken = j
        break
      }
    }
    chosen.append(taken)
    if let j = taken {
      if c.blocks { blockers.append((c.boxes[j], c.id)) }
      blockedBy.append([])
      blockedByMore.append(0)
    } else {
      var ids = Set<Int>()
      for b in c.boxes where inFrame(b, c.mustFit) {
        for (r, id) in blockers where CollisionGrid.overlaps(r, b) { ids.insert(id) }
      }
      // The first `namedBlockers` are named, the rest counted.
      let all = ids.sorted()
      blockedBy.append(Array(all.prefix(PlacementResult.namedBlockers)))
      blockedByMore.append(all.count - min(all.count, PlacementResult.namedBlockers))
    }
  }
  return PlacementResult(chosen: chosen, blockedBy: blockedBy, blockedByMore: blockedByMore)
}

private func randomCandidates(count: Int, frame: Rect, seed: UInt64, anchorsPerCandidate: ClosedRange<Int>)
  -> [PlacementCandidate]
{
  var rng = SplitMix64(seed: seed)
  var out: [PlacementCandidate] = []
  out.reserveCapacity(count)
  for i in 0..<count {
    let p = Point(
      Double.random(in: frame.minX - 20...frame.maxX + 20, using: &rng),
      Double.random(in: frame.minY - 20...frame.maxY + 20, using: &rng))
    // Sizes and offsets on a coarse grid so exact touching happens often.
    let size = (width: Double(Int.random(in: 2...30, using: &rng)) * 4, height: Double(Int.random(in: 3...8, using: &rng)) * 2)
    let n = Int.random(in: anchorsPerCandidate, using: &rng)
    var boxes: [Rect] = []
    for _ in 0..<n {
      let anchor = Anchor.allCases.randomElement(using: &rng)!
      boxes.append(anchor.box(size: size, at: p, offset: Point(0, Double(Int.random(in: -2...2, using: &rng)) * 4)))
    }
    let allowOverlap = Int.random(in: 0..<10, using: &rng) == 0
    let blocks = Int.random(in: 0..<20, using: &rng) != 0
    out.append(PlacementCandidate(id: 1000 + i, boxes: boxes, allowOverlap: allowOverlap, blocks: blocks))
  }
  return out
}

@Suite struct PlacementTests {

  // MARK: Anchor

  @Test func anchorBoxesWithoutOffset() {
    let p = Point(100, 100)
    let size = (width: 40.0, height: 20.0)
    let expected: [Anchor: Rect] = [
      .center: rect(80, 90, 120, 110),
      .top: rect(80, 100, 120, 120),
      .bottom: rect(80, 80, 120, 100),
      .left: rect(100, 90, 140, 110),
      .right: rect(60, 90, 100, 110),
      .topLeft: rect(100, 100, 140, 120),
      .topRight: rect(60, 100, 100, 120),
      .bottomLeft: rect(100, 80, 140, 100),
      .bottomRight: rect(60, 80, 100, 100),
    ]
    #expect(expected.count == Anchor.allCases.count)
    for anchor in Anchor.allCases {
      #expect(anchor.box(size: size, at: p, offset: Point(0, 0)) == expected[anchor], "\(anchor)")
      #expect(anchor.box(size: size, at: p) == expected[anchor], "\(anchor)")
    }
  }

  @Test func anchorBoxesWithScreenOffset() {
    // Label offset: x right, y down.
    let p = Point(100, 100)
    let size = (width: 40.0, height: 20.0)
    let off = Point(5, 7)
    let expected: [Anchor: Rect] = [
      .center: rect(85, 97, 125, 117),
      .top: rect(85, 107, 125, 127),
      .bottom: rect(85, 87, 125, 107),
      .left: rect(105, 97, 145, 117),
      .right: rect(65, 97, 105, 117),
      .topLeft: rect(105, 107, 145, 127),
      .topRight: rect(65, 107, 105, 127),
      .bottomLeft: rect(105, 87, 145, 107),
      .bottomRight: rect(65, 87, 105, 107),
    ]
    for anchor in Anchor.allCases {
      #expect(anchor.box(size: size, at: p, offset: off) == expected[anchor], "\(anchor)")
    }
  }

  @Test func viewAnnotationOffsetIsUp() {
    let p = Point(100, 100)
    let size = (width: 40.0, height: 20.0)
    // bottom + offsetY 8: the box's bottom edge 8 px above the point.
    #expect(Anchor.bottom.viewAnnotationBox(size: size, at: p, offsetY: 8) == rect(80, 72, 120, 92))
    // top + offsetY -8: 8 px below the point.
    #expect(Anchor.top.viewAnnotationBox(size: size, at: p, offsetY: -8) == rect(80, 108, 120, 128))
    #expect(Anchor.left.viewAnnotationBox(size: size, at: p, offsetX: 3, offsetY: 2) == rect(103, 88, 143, 108))
    #expect(Anchor.screenOffset(viewAnnotationOffsetX: 3, offsetY: 8) == Point(3, -8))
    for anchor in Anchor.allCases {
      #expect(
        anchor.viewAnnotationBox(size: size, at: p, offsetX: 4, offsetY: 6)
          == anchor.box(size: size, at: p, offset: Point(4, -6)))
    }
  }

  @Test func anchorRawValues() {
    #expect(Anchor.allCases.map(\.rawValue) == [
      "center", "top", "bottom", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right",
    ])
    #expect(Anchor(rawValue: "top-left") == .topLeft)
    #expect(Anchor(rawValue: "bottom-right") == .bottomRight)
    #expect(Anchor(rawValue: "topLeft") == nil)
  }

  // MARK: Overlap rule

  @Test func touchingBoxesDoNotOverlap() {
    let a = rect(0, 0, 10, 10)
    #expect(!CollisionGrid.overlaps(a, rect(10, 0, 20, 10)))  // shared right edge
    #expect(!CollisionGrid.overlaps(a, rect(0, 10, 10, 20)))  // shared bottom edge
    #expect(!CollisionGrid.overlaps(a, rect(-10, -10, 0, 0)))  // shared corner
    #expect(!CollisionGrid.overlaps(a, rect(10, 10, 20, 20)))
    #expect(CollisionGrid.overlaps(a, rect(9.999, 0, 20, 10)))  // 0.001 px overlap
    #expect(CollisionGrid.overlaps(a, rect(0, 9.999, 10, 20)))
    #expect(CollisionGrid.overlaps(a, rect(2, 2, 3, 3)))  // contained
    #expect(CollisionGrid.overlaps(a, a))
    #expect(!CollisionGrid.overlaps(a, rect(5, 0, 5, 10)))  // zero width
    #expect(!CollisionGrid.overlaps(a, rect(.nan, 0, 5, 10)))

    var grid = CollisionGrid(frame: rect(0, 0, 100, 100), cellSize: 10)
    grid.insert(a, id: 1)
    #expect(grid.firstHit(rect(10, 0, 20, 10)) == nil)
    #expect(grid.firstHit(rect(0, 10, 10, 20)) == nil)
    #expect(grid.firstHit(rect(10, 10, 20, 20)) == nil)
    #expect(!grid.hitsAny(rect(10, 0, 20, 10)))
    #expect(grid.hits(rect(10, 0, 20, 10)) == [])
    #expect(grid.firstHit(rect(9.999, 0, 20, 10)) == 1)
    #expect(grid.firstHit(rect(0, 9.999, 10, 20)) == 1)
    #expect(grid.hitsAny(rect(9.999, 9.999, 20, 20)))
    #expect(grid.hits(rect(9.999, 0, 20, 10)) == [1])
  }

  // MARK: Grid

  @Test func boxesOutsideTheGrid() {
    var grid = CollisionGrid(frame: rect(0, 0, 100, 100), cellSize: 16)
    grid.insert(rect(-500, -500, -400, -400), id: 1)  // wholly outside, top-left
    grid.insert(rect(1e6, 50, 1e6 + 10, 60), id: 2)  // far right
    grid.insert(rect(90, 90, 130, 130), id: 3)  // straddles the bottom-right corner
    grid.insert(rect(-.infinity, 200, .infinity, 210), id: 4)  // infinite strip below
    grid.insert(rect(-50, -50, 110, 110), id: 5)  // covers the whole frame and more
    #expect(grid.count == 5)

    #expect(grid.hits(rect(-450, -450, -440, -440)) == [1])
    #expect(grid.hits(rect(-450, -450, -399, -399)) == [1])
    #expect(grid.hits(rect(-400, -400, -300, -300)) == [])  // touches 1's corner only
    #expect(grid.hits(rect(1e6 + 5, 55, 1e6 + 6, 56)) == [2])
    #expect(grid.hits(rect(120, 120, 125, 125)) == [3])
    #expect(grid.hits(rect(95, 95, 96, 96)) == [3, 5])
    #expect(grid.hits(rect(-1e9, 205, -1e9 + 1, 206)) == [4])
    #expect(grid.hits(rect(40, 40, 60, 60)) == [5])
    #expect(grid.hits(rect(-1000, -1000, 1000, 1000)) == [1, 3, 4, 5])
    #expect(grid.hits(rect(-1000, -1000, 1000, 150)) == [1, 3, 5])
    #expect(grid.firstHit(rect(95, 95, 96, 96)) == 3)
    #expect(grid.firstHit(rect(1e7, 1e7, 1e7 + 1, 1e7 + 1)) == nil)
    #expect(grid.hits(rect(.nan, 0, 10, 10)) == [])
    #expect(grid.firstHit(rect(0, 0, .nan, 10)) == nil)
    #expect(!grid.hitsAny(rect(.nan, .nan, .nan, .nan)))
  }

  @Test func degenerateFrames() {
    for frame in [rect(0, 0, 0, 0), Rect.empty, rect(.nan, 0, 10, 10), rect(0, 0, .infinity, 10)] {
      var grid = CollisionGrid(frame: frame)
      #expect(grid.columns >= 1 && grid.rows >= 1)
      grid.insert(rect(0, 0, 10, 10), id: 7)
      #expect(grid.hits(rect(5, 5, 6, 6)) == [7])
      #expect(grid.hits(rect(10, 0, 20, 10)) == [])
    }
    // A huge frame keeps the cell count bounded.
    let big = CollisionGrid(frame: rect(0, 0, 1e7, 1e7), cellSize: 1)
    #expect(big.columns <= CollisionGrid.maxCellsPerSide && big.rows <= CollisionGrid.maxCellsPerSide)
  }

  @Test func hitsHaveNoDuplicates() {
    var grid = CollisionGrid(frame: rect(0, 0, 256, 256), cellSize: 8)
    grid.insert(rect(1, 1, 250, 250), id: 4)  // spans ~1000 cells
    grid.insert(rect(100, 100, 200, 200), id: 2)
    grid.insert(rect(150, 150, 300, 300), id: 4)  // same id again
    #expect(grid.hits(rect(0, 0, 256, 256)) == [2, 4])
    #expect(grid.hits(rect(120, 120, 170, 170)) == [2, 4])
    #expect(grid.hits(rect(255, 255, 400, 400)) == [4])
  }

  @Test func firstHitIsSmallestIdWhateverTheInsertionOrder() {
    let boxes: [(Rect, Int)] = [
      (rect(0, 0, 50, 50), 5), (rect(40, 40, 90, 90), 3), (rect(45, 0, 100, 48), 9), (rect(200, 200, 210, 210), 1),
    ]
    let query = rect(44, 44, 46, 46)
    var orders: [[Int]] = [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]]
    orders.append([0, 2, 1, 3])
    for order in orders {
      var grid = CollisionGrid(frame: rect(0, 0, 128, 128), cellSize: 16)
      for k in order { grid.insert(boxes[k].0, id: boxes[k].1) }
      #expect(grid.firstHit(query) == 3)
      #expect(grid.hits(query) == [3, 5, 9])
      #expect(grid.firstHit(rect(0, 0, 10, 10)) == 5)
      #expect(grid.firstHit(rect(205, 205, 206, 206)) == 1)
    }
  }

  @Test func gridMatchesBruteForce() {
    var rng = SplitMix64(seed: 42)
    let frame = rect(0, 0, 300, 200)
    var grid = CollisionGrid(frame: frame, cellSize: 17)
    var all: [(Rect, Int)] = []
    func randomBox() -> Rect {
      let x = Double(Int.random(in: -60...340, using: &rng))
      let y = Double(Int.random(in: -60...240, using: &rng))
      let w = Double(Int.random(in: 0...80, using: &rng))
      let h = Double(Int.random(in: 0...50, using: &rng))
      return rect(x, y, x + w, y + h)
    }
    for i in 0..<400 {
      let b = randomBox()
      let id = Int.random(in: 0..<300, using: &rng)
      grid.insert(b, id: id)
      all.append((b, id))
      if i % 4 == 0 {
        let q = randomBox()
        let expected = Set(all.filter { CollisionGrid.overlaps($0.0, q) }.map(\.1)).sorted()
        #expect(grid.hits(q) == expected)
        #expect(grid.firstHit(q) == expected.first)
        #expect(grid.hitsAny(q) == !expected.isEmpty)
      }
    }
    grid.removeAll()
    #expect(grid.count == 0)
    #expect(grid.hits(frame) == [])
  }

  // MARK: Placement

  private let frame = rect(0, 0, 200, 100)

  @Test func callerOrderIsPriorityOrder() {
    let a = PlacementCandidate(id: 1, boxes: [rect(10, 10, 50, 30)])
    let b = PlacementCandidate(id: 2, boxes: [rect(20, 20, 60, 40)])
    let ab = place([a, b], in: frame, mustFit: true)
    #expect(ab.chosen == [0, nil])
    #expect(ab.blockedBy == [[], [1]])
    let ba = place([b, a], in: frame, mustFit: true)
    #expect(ba.chosen == [0, nil])
    #expect(ba.blockedBy == [[], [2]])
  }

  @Test func secondAnchorTakenWhenFirstCollides() {
    let p = Point(100, 50)
    let size = (width: 40.0, height: 20.0)
    let first = PlacementCandidate(id: 1, boxes: [Anchor.center.box(size: size, at: p)])
    let second = PlacementCandidate(
      id: 2, boxes: [Anchor.right, .left, .top].map { $0.box(size: size, at: Point(110, 50)) })
    // First box: x 80…120, y 40…60. At (110, 50) every anchor collides:
    // right x 70…110, left x 110…150, top y 50…70. At (120, 50) `right` is the
    // first box again, but `left` (x 120…160) only touches it.
    let third = PlacementCandidate(
      id: 3, boxes: [Anchor.right, .left, .top].map { $0.box(size: size, at: Point(120, 50)) })
    let r = place([first, second, third], in: frame, mustFit: true)
    #expect(r.chosen == [0, nil, 1])  // third: `left` puts it at x 120…160, touching the first box
    #expect(r.blockedBy[1] == [1])
    #expect(r.blockedBy[2] == [])
  }

  @Test func droppedWhenNoneFitsWithBlockers() {
    let a = PlacementCandidate(id: 10, boxes: [rect(0, 0, 50, 50)])
    let b = PlacementCandidate(id: 20, boxes: [rect(60, 0, 110, 50)])
    let c = PlacementCandidate(id: 30, boxes: [rect(60, 60, 110, 100)], blocks: false)
    // Tries a box over 10, one over 20, one over both and one outside the frame.
    let d = PlacementCandidate(
      id: 40, boxes: [rect(10, 10, 20, 20), rect(70, 10, 80, 20), rect(40, 10, 70, 20), rect(190, 0, 210, 10)])
    let r = place([a, b, c, d], in: frame, mustFit: true)
    #expect(r.chosen == [0, 0, 0, nil])
    #expect(r.blockedBy == [[], [], [], [10, 20]])
    // Dropped only by the frame test: nothing in the way.
    let e = PlacementCandidate(id: 50, boxes: [rect(-5, 0, 5, 10)])
    let r2 = place([e], in: frame, mustFit: true)
    #expect(r2.chosen == [nil])
    #expect(r2.blockedBy == [[]])
    // No boxes at all.
    #expect(place([PlacementCandidate(id: 1, boxes: [])], in: frame, mustFit: true).chosen == [nil])
  }

  @Test func nonBlockingCandidatesDoNotBlock() {
    let a = PlacementCandidate(id: 1, boxes: [rect(0, 0, 50, 50)], blocks: false)
    let b = PlacementCandidate(id: 2, boxes: [rect(10, 10, 60, 60)])
    let c = PlacementCandidate(id: 3, boxes: [rect(20, 20, 30, 30)])
    let r = place([a, b, c], in: frame, mustFit: true)
    #expect(r.chosen == [0, 0, nil])
    #expect(r.blockedBy[2] == [2])
  }

  @Test func allowOverlapStacksAndStillBlocks() {
    let box = rect(10, 10, 50, 30)
    let a = PlacementCandidate(id: 1, boxes: [box])
    let b = PlacementCandidate(id: 2, boxes: [box, rect(100, 10, 140, 30)], allowOverlap: true)
    let c = PlacementCandidate(id: 3, boxes: [box], allowOverlap: true)
    // d avoids 1 but not the allowOverlap box 2 placed over 1's spot: its only box
    // overlaps 1 and 2 and 3.
    let d = PlacementCandidate(id: 4, boxes: [rect(30, 20, 60, 40)])
    let r = place([a, b, c, d], in: frame, mustFit: true)
    #expect(r.chosen == [0, 0, 0, nil])  // b takes its FIRST box even though it overlaps
    #expect(r.blockedBy[3] == [1, 2, 3])
    // allowOverlap boxes block later candidates that do not allow overlap.
    let e = PlacementCandidate(id: 5, boxes: [rect(100, 50, 140, 70)], allowOverlap: true)
    let f = PlacementCandidate(id: 6, boxes: [rect(120, 60, 130, 90), rect(140, 50, 180, 70)])
    let r2 = place([e, f], in: frame, mustFit: true)
    #expect(r2.chosen == [0, 1])
    // allowOverlap still obeys the frame test.
    let g = PlacementCandidate(id: 7, boxes: [rect(-1, 0, 10, 10), rect(0, 0, 10, 10)], allowOverlap: true)
    #expect(place([g], in: frame, mustFit: true).chosen == [1])
  }

  @Test func mustFitRejectsCrossingAcceptsTouching() {
    let crossing = [rect(-0.5, 10, 20, 20), rect(190, 10, 200.5, 20), rect(10, -0.001, 20, 10), rect(10, 90, 20, 100.25)]
    for b in crossing {
      #expect(place([PlacementCandidate(id: 1, boxes: [b])], in: frame, mustFit: true).chosen == [nil])
      #expect(place([PlacementCandidate(id: 1, boxes: [b])], in: frame, mustFit: false).chosen == [0])
    }
    let touching = [rect(0, 10, 20, 20), rect(180, 10, 200, 20), rect(10, 0, 20, 10), rect(10, 90, 20, 100), frame]
    for b in touching {
      #expect(place([PlacementCandidate(id: 1, boxes: [b])], in: frame, mustFit: true).chosen == [0])
    }
    let outside = PlacementCandidate(id: 1, boxes: [rect(300, 300, 340, 320)])
    #expect(place([outside], in: frame, mustFit: false).chosen == [0])
    // Without mustFit boxes outside the frame still collide with each other.
    let outside2 = PlacementCandidate(id: 2, boxes: [rect(330, 310, 350, 330)])
    let r = place([outside, outside2], in: frame, mustFit: false)
    #expect(r.chosen == [0, nil])
    #expect(r.blockedBy[1] == [1])
    // Improper boxes are never taken.
    let bad = PlacementCandidate(
      id: 3, boxes: [rect(.nan, 0, 10, 10), rect(20, 0, 10, 10), rect(0, 0, .infinity, 10), rect(0, 0, 5, 5)],
      allowOverlap: true)
    #expect(place([bad], in: frame, mustFit: false).chosen == [3])
  }

  @Test func obstaclesBlock() {
    let marker = rect(95, 45, 105, 55)
    let size = (width: 30.0, height: 10.0)
    let p = Point(100, 50)
    // center (y 45…55), bottom (y 40…50, inside the marker's 45…55) and left
    // (x 100…130, inside the marker's 95…105) collide with the marker.
    let label = PlacementCandidate(
      id: 1, boxes: [Anchor.center, .bottom, .left].map { $0.box(size: size, at: p) }
        + [Anchor.bottom.box(size: size, at: p, offset: Point(0, -5))])
    let r = place([label], in: frame, mustFit: true, obstacles: [(marker, id: 900)])
    #expect(r.chosen == [3])  // lifted 5 px: bottom edge on the marker's top edge
    let stuck = PlacementCandidate(id: 2, boxes: [Anchor.center.box(size: size, at: p)])
    let r2 = place([stuck], in: frame, mustFit: true, obstacles: [(marker, id: 900), (rect(0, 0, 1, 1), id: 901)])
    #expect(r2.chosen == [nil])
    #expect(r2.blockedBy == [[900]])
    // allowOverlap ignores obstacles.
    var free = stuck
    free.allowOverlap = true
    #expect(place([free], in: frame, mustFit: true, obstacles: [(marker, id: 900)]).chosen == [0])
    // Obstacles outside the frame are fine and need not fit.
    let r3 = place(
      [PlacementCandidate(id: 3, boxes: [rect(190, 0, 200, 10), rect(0, 0, 10, 10)])], in: frame, mustFit: true,
      obstacles: [(rect(195, -20, 260, 5), id: 7)])
    #expect(r3.chosen == [1])
  }

  @Test func randomPlacementHasNoOverlapsAndIsDeterministic() {
    let frame = rect(0, 0, 1024, 768)
    let candidates = randomCandidates(count: 2000, frame: frame, seed: 7, anchorsPerCandidate: 1...4)
    let obstacles: [(Rect, id: Int)] = (0..<40).map { k in
      let x = Double(k % 8) * 128 + 50
      let y = Double(k / 8) * 150 + 40
      return (rect(x, y, x + 12, y + 12), id: k)
    }
    for mustFit in [true, false] {
      let r = place(candidates, in: frame, mustFit: mustFit, obstacles: obstacles)
      #expect(r.chosen.count == candidates.count && r.blockedBy.count == candidates.count)
      // Placed boxes that do not allow overlap and block: no two overlap, and
      // none overlaps an obstacle.
      var placed: [Rect] = []
      for (i, c) in candidates.enumerated() {
        guard let j = r.chosen[i] else { continue }
        if mustFit {
          let b = c.boxes[j]
          #expect(b.minX >= 0 && b.minY >= 0 && b.maxX <= 1024 && b.maxY <= 768)
        }
        if !c.allowOverlap {
          #expect(!obstacles.contains { CollisionGrid.overlaps($0.0, c.boxes[j]) })
          if c.blocks { placed.append(c.boxes[j]) }
        }
      }
      #expect(placed.count > 200)
      var overlapping = 0
      for a in 0..<placed.count {
        for b in (a + 1)..<placed.count where CollisionGrid.overlaps(placed[a], placed[b]) { overlapping += 1 }
      }
      #expect(overlapping == 0)
      // Same as the brute-force reference, and the same when run again.
      #expect(r == referencePlace(candidates, in: frame, mustFit: mustFit, obstacles: obstacles))
      #expect(r == place(candidates, in: frame, mustFit: mustFit, obstacles: obstacles))
    }
  }
}
