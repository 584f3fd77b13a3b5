/// The nearest of a set of colour points (palette entries or cluster centres)
/// to a query point, in the quantiser's colour space (``PaletteQuantizer``:
/// premultiplied Oklab with alpha as a fourth axis), by squared Euclidean
/// distance in `Float`.
///
/// **Canonical answer.** Among points at the same smallest distance, the one
/// with the smallest id wins, so the answer does not depend on the search
/// order, and a query equal to a point always finds that point (distance 0).
///
/// The points are kept sorted by their first axis (premultiplied lightness);
/// a search starts where the query's lightness would be and walks outwards
/// both ways, stopping a direction once the lightness gap alone exceeds the
/// best distance found. On map palettes it looks at a handful of points
/// instead of all 256.
///
/// A value holding manually allocated memory: call ``deallocate()`` once.
/// Reading it from several threads at once is safe.
struct NearestColorSearch: @unchecked Sendable {
  /// Points sorted by `first`, with the ids they were given.
  private let keys: UnsafeMutablePointer<Float>
  private let points: UnsafeMutablePointer<SIMD4<Float>>
  private let ids: UnsafeMutablePointer<Int>
  let count: Int

  /// `points[i]` gets id `i`; a point with `isIncluded[i] == false` is left out.
  init(_ pointList: [SIMD4<Float>], isIncluded: [Bool]? = nil) {
    var order = Array(pointList.indices)
    if let isIncluded { order = order.filter { isIncluded[$0] } }
    order.sort { pointList[$0].x != pointList[$1].x ? pointList[$0].x < pointList[$1].x : $0 < $1 }
    count = order.count
    keys = .allocate(capacity: max(1, count))
    points = .allocate(capacity: max(1, count))
    ids = .allocate(capacity: max(1, count))
    for (k, i) in order.enumerated() {
      keys[k] = pointList[i].x
      points[k] = pointList[i]
      ids[k] = i
    }
  }

  func deallocate() {
    keys.deallocate()
    points.deallocate()
    ids.deallocate()
  }

  /// The id of the nearest point and its squared distance; `(-1, ∞)` when
  /// there are no points.
  @inline(__always) func nearest(_ q: SIMD4<Float>) -> (id: Int, distanceSquared: Float) {
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if keys[mid] < q.x { lo = mid &+ 1 } else { hi = mid }
    }
    var best = Float.infinity
    var bestID = -1
    var up = lo
    var down = lo &- 1
    /// Takes entry `i` when it is nearer, ties to the lower palette index.
    @inline(__always) func consider(_ i: Int) {
      let d = points[i] - q
      let distance = (d * d).sum()
      if distance < best || (distance == best && ids[i] < bestID) {
        best = distance
        bestID = ids[i]
      }
    }
    while up < count || down >= 0 {
      if up < count {
        let gap = keys[up] - q.x
        if gap * gap > best {
          up = count
        } else {
          consider(up)
          up &+= 1
        }
      }
      if down >= 0 {
        let gap = q.x - keys[down]
        if gap * gap > best {
          down = -1
        } else {
          consider(down)
          down &-= 1
        }
      }
    }
    return (bestID, best)
  }
}
