package import _MapSnapRaster

/// Greedy placement with collision detection, shared by labels and view
/// annotations.
///
/// - Obstacles (e.g. markers with `"collides": true`) are inserted first; they
///   block every candidate that does not allow overlap and are never tested
///   against the frame.
/// - Candidates are visited in the **order given** (the caller sorts by its own
///   rules: priority, layer order, feature order, …). Each takes the first of
///   its boxes that
///   1. is a proper box: finite coordinates and `min <= max` on both axes;
///   2. when `mustFit` or the candidate's `mustFit`, lies wholly inside
///      `frame` — a box whose edge lies on the frame's border counts as
///      inside, one crossing it does not;
///   3. unless the candidate's `allowOverlap`, overlaps no obstacle and no box
///      placed before it with `blocks`. Overlap means positive-area
///      intersection: boxes that only touch along an edge or at a corner do not
///      overlap, and a box of zero width or height overlaps nothing.
///   A box that stands for several (`PlacementCandidate.parts`: a label
///   along a line, one box per glyph) passes when every one of them does.
/// - A candidate with no such box is dropped. A taken box with `blocks` is
///   inserted and blocks later candidates.
///
/// The result depends only on the input: the same input gives the same result.
package func place(
  _ candidates: [PlacementCandidate], in frame: Rect, mustFit: Bool, obstacles: [(Rect, id: Int)] = []
) -> PlacementResult {
  // The grid holds internal ids: obstacle k is k, candidate i is obstacles.count + i.
  var grid = CollisionGrid(frame: frame)
  let m = obstacles.count
  for (k, obstacle) in obstacles.enumerated() {
    grid.insert(obstacle.0, id: k)
  }
  var chosen = [Int?](repeating: nil, count: candidates.count)
  var blockedBy = [[Int]](repeating: [], count: candidates.count)
  var blockedByMore = [Int](repeating: 0, count: candidates.count)
  var scratch: [Int] = []

  @inline(__always) func isProper(_ b: Rect) -> Bool {
    b.minX.isFinite && b.minY.isFinite && b.maxX.isFinite && b.maxY.isFinite && b.minX <= b.maxX
      && b.minY <= b.maxY
  }
  @inline(__always) func passesFrame(_ b: Rect, _ mustFit: Bool) -> Bool {
    isProper(b)
      && (!mustFit || (b.minX >= frame.minX && b.maxX <= frame.maxX && b.minY >= frame.minY && b.maxY <= frame.maxY))
  }

  /// The boxes alternative `j` of `c` stands for: `parts[j]`, or its box.
  @inline(__always) func pieces(_ c: PlacementCandidate, _ j: Int) -> ArraySlice<Rect> {
    c.parts.isEmpty ? c.boxes[j...j] : c.parts[j][...]
  }

  for (i, candidate) in candidates.enumerated() {
    var taken: Int?
    let fits = mustFit || candidate.mustFit
    for j in candidate.boxes.indices {
      let boxes = pieces(candidate, j)
      guard boxes.allSatisfy({ passesFrame($0, fits) }) else { continue }
      if !candidate.allowOverlap && boxes.contains(where: { grid.hitsAny($0) }) { continue }
      taken = j
      break
    }
    if let j = taken {
      chosen[i] = j
      if candidate.blocks { for box in pieces(candidate, j) { grid.insert(box, id: m + i) } }
      continue
    }
    // Dropped: collect what was in the way of each box that passed the frame test.
    scratch.removeAll(keepingCapacity: true)
    for j in candidate.boxes.indices {
      let boxes = pieces(candidate, j)
      guard boxes.allSatisfy({ passesFrame($0, fits) }) else { continue }
      for box in boxes { grid.appendHits(box, limit: PlacementResult.countedBlockers, to: &scratch) }
    }
    if scratch.isEmpty { continue }
    for n in scratch.indices {
      let k = scratch[n]
      scratch[n] = k < m ? obstacles[k].id : candidates[k - m].id
    }
    scratch.sort()
    var ids: [Int] = []
    ids.reserveCapacity(scratch.count)
    for id in scratch where ids.last != id { ids.append(id) }
    let named = min(ids.count, PlacementResult.namedBlockers)
    blockedByMore[i] = ids.count - named
    ids.removeLast(ids.count - named)
    blockedBy[i] = ids
  }
  return PlacementResult(chosen: chosen, blockedBy: blockedBy, blockedByMore: blockedByMore)
}
