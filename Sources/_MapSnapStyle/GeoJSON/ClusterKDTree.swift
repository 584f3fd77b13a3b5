/// A static 2-D k-d tree over points, for the neighbour searches of
/// clustering: the points are ordered so that each range of the order is
/// split at its middle element on x, then its halves on y, and so on
/// alternately, down to runs of `nodeSize` points read linearly.
/// Building is O(n log n); `within` visits only the runs the circle touches.
/// Deterministic: the order depends only on the coordinates and their
/// input order.
struct ClusterKDTree {
  /// Points per leaf run, as supercluster's index uses.
  static let nodeSize = 64
  /// The input index of each point, in tree order.
  private(set) var ids: [Int32]
  /// x, y of each point, in tree order.
  private(set) var coords: [Double]

  init(xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>) {
    let n = xs.count
    ids = (0..<n).map { Int32($0) }
    coords = [Double](repeating: 0, count: 2 * n)
    for i in 0..<n {
      coords[2 * i] = xs[i]
      coords[2 * i + 1] = ys[i]
    }
    guard n > Self.nodeSize else { return }
    ids.withUnsafeMutableBufferPointer { ids in
      coords.withUnsafeMutableBufferPointer { c in
        var stack: [(Int, Int, Int)] = [(0, n - 1, 0)]
        while let (left, right, axis) = stack.popLast() {
          guard right - left > Self.nodeSize else { continue }
          let m = (left + right) >> 1
          Self.select(ids, c, k: m, left: left, right: right, axis: axis)
          stack.append((left, m - 1, 1 - axis))
          stack.append((m + 1, right, 1 - axis))
        }
      }
    }
  }

  /// Puts the element of rank `k` (by `axis`) of `left...right` at `k`,
  /// the smaller before it and the larger after (a Hoare quickselect with
  /// the middle element as pivot).
  private static func select(_ ids: UnsafeMutableBufferPointer<Int32>, _ c: UnsafeMutableBufferPointer<Double>, k: Int, left: Int, right: Int, axis: Int) {
    var left = left, right = right
    while right > left {
      let pivot = c[2 * ((left + right) >> 1) + axis]
      var i = left, j = right
      while i <= j {
        while c[2 * i + axis] < pivot { i += 1 }
        while c[2 * j + axis] > pivot { j -= 1 }
        if i <= j {
          swap(ids, c, i, j)
          i += 1
          j -= 1
        }
      }
      if k <= j {
        right = j
      } else if k >= i {
        left = i
      } else {
        return
      }
    }
  }

  @inline(__always)
  private static func swap(_ ids: UnsafeMutableBufferPointer<Int32>, _ c: UnsafeMutableBufferPointer<Double>, _ i: Int, _ j: Int) {
    ids.swapAt(i, j)
    c.swapAt(2 * i, 2 * j)
    c.swapAt(2 * i + 1, 2 * j + 1)
  }

  /// The input indices of the points within distance `r` of (x, y)
  /// (the boundary included), appended to `out` in tree order. `stack` is
  /// working space, kept by the caller across searches.
  func within(_ x: Double, _ y: Double, _ r: Double, into out: inout [Int32], stack: inout [(Int, Int, Int)]) {
    let n = ids.count
    guard n > 0 else { return }
    let r2 = r * r
    stack.removeAll(keepingCapacity: true)
    stack.append((0, n - 1, 0))
    ids.withUnsafeBufferPointer { ids in
      coords.withUnsafeBufferPointer { c in
        while let (left, right, axis) = stack.popLast() {
          if right - left <= Self.nodeSize {
            if left <= right {
              for i in left...right {
                let dx = c[2 * i] - x, dy = c[2 * i + 1] - y
                if dx * dx + dy * dy <= r2 { out.append(ids[i]) }
              }
            }
            continue
          }
          let m = (left + right) >> 1
          let mx = c[2 * m], my = c[2 * m + 1]
          let dx = mx - x, dy = my - y
          if dx * dx + dy * dy <= r2 { out.append(ids[m]) }
          let q = axis == 0 ? x : y, v = axis == 0 ? mx : my
          if q - r <= v { stack.append((left, m - 1, 1 - axis)) }
          if q + r >= v { stack.append((m + 1, right, 1 - axis)) }
        }
      }
    }
  }
}
