#if canImport(Glibc)
  import Glibc
#endif

/// Point clustering as supercluster does it for MapLibre: the points
/// (world units, 0…1 across the Web Mercator world, y down) are the level
/// `maxZoom + 1`; each level from `maxZoom` down to the level asked for is
/// made from the one above it, visiting its entries in order: an entry not
/// yet taken at this zoom takes every untaken entry within `radius / (extent
/// · 2^z)` of it (a k-d tree search); when they hold more points than it
/// alone and at least `minPoints`, they become one cluster at their
/// point-weighted centre, else they stay as they are. A cluster made at zoom z
/// from entry i of the level above has id `i · 32 + z + 1 + pointCount`.
/// Deterministic: the result depends only on the points and their order.
package struct Supercluster: Sendable {
  /// One entry of a level: a source point or a cluster.
  package struct Entry: Sendable {
    package var x: Double
    package var y: Double
    /// For a point, its index among the input points; for a cluster, its id.
    package var id: Int
    package var pointCount: Int
    package var isCluster: Bool
    /// The cluster's summed properties (`properties`), −1 when none.
    var propertiesIndex: Int32
    /// The deepest zoom at which the entry has been visited (taken).
    var visited: Int
  }

  /// Levels by zoom: `levels[z - lowestZoom]`, up to `maxZoom + 1` (the points).
  private var levels: [[Entry]] = []
  /// The lowest zoom made.
  package let lowestZoom: Int
  package let maxZoom: Int
  /// Summed `clusterProperties` of clusters, by `propertiesIndex`.
  private var summed: [[String: StyleValue]] = []

  /// Clusters `xs`, `ys` for every zoom from `maxZoom` down to `zoom`
  /// (levels below it are not made: a frame reads one). `radius` is in
  /// pixels of a tile `extent` pixels wide; `properties(i)` are point i's
  /// properties, read only when `clusterProperties` is not empty.
  package init(
    xs: [Double], ys: [Double], radius: Double, extent: Double, maxZoom: Int, minPoints: Int, downTo zoom: Int,
    clusterProperties: [ClusterProperty], properties: (Int) -> [String: StyleValue]
  ) {
    self.maxZoom = maxZoom
    lowestZoom = max(0, min(zoom, maxZoom + 1))
    var level = [Entry]()
    level.reserveCapacity(xs.count)
    for i in xs.indices {
      level.append(Entry(x: xs[i], y: ys[i], id: i, pointCount: 1, isCluster: false, propertiesIndex: -1, visited: Int.max))
    }
    let pointCount = xs.count
    var mappedPoints: [[String: StyleValue]?] = clusterProperties.isEmpty ? [] : Array(repeating: nil, count: pointCount)
    func mapped(_ e: Entry) -> [String: StyleValue] {
      if e.isCluster { return e.propertiesIndex >= 0 ? summed[Int(e.propertiesIndex)] : [:] }
      if let m = mappedPoints[e.id] { return m }
      let m = ClusterProperty.mapped(properties(e.id), by: clusterProperties)
      mappedPoints[e.id] = m
      return m
    }
    var made: [[Entry]] = [level]
    var z = maxZoom
    var neighbours: [Int32] = []
    var stack: [(Int, Int, Int)] = []
    while z >= lowestZoom {
      var above = made[made.count - 1]
      let tree = above.withUnsafeBufferPointer { a in
        let xs = a.map(\.x), ys = a.map(\.y)
        return xs.withUnsafeBufferPointer { x in ys.withUnsafeBufferPointer { y in ClusterKDTree(xs: x, ys: y) } }
      }
      let r = radius / (extent * pow(2, Double(z)))
      var next: [Entry] = []
      next.reserveCapacity(above.count)
      for i in above.indices {
        guard above[i].visited > z else { continue }
        above[i].visited = z
        neighbours.removeAll(keepingCapacity: true)
        tree.within(above[i].x, above[i].y, r, into: &neighbours, stack: &stack)
        let own = above[i].pointCount
        var count = own
        for j in neighbours where above[Int(j)].visited > z { count += above[Int(j)].pointCount }
        if count > own && count >= minPoints {
          var wx = above[i].x * Double(own), wy = above[i].y * Double(own)
          var sums: [String: StyleValue]? = nil
          if !clusterProperties.isEmpty { sums = mapped(above[i]) }
          let id = (i << 5) + (z + 1) + pointCount
          for j in neighbours where above[Int(j)].visited > z {
            let b = Int(j)
            above[b].visited = z
            let n = Double(above[b].pointCount)
            wx += above[b].x * n
            wy += above[b].y * n
            if sums != nil { ClusterProperty.reduce(&sums!, mapped(above[b]), by: clusterProperties) }
          }
          var index: Int32 = -1
          if let sums {
            index = Int32(summed.count)
            summed.append(sums)
          }
          next.append(Entry(
            x: wx / Double(count), y: wy / Double(count), id: id, pointCount: count, isCluster: true, propertiesIndex: index, visited: Int.max))
        } else {
          next.append(above[i])
          if count > 1 {
            for j in neighbours where above[Int(j)].visited > z {
              above[Int(j)].visited = z
              next.append(above[Int(j)])
            }
          }
        }
      }
      made.append(next)
      z -= 1
    }
    // made[0] is maxZoom + 1, made[k] is maxZoom + 1 − k.
    levels = made.reversed()
  }

  /// The entries a frame at tile zoom `zoom` shows: the level of zoom
  /// `zoom` clamped to `lowestZoom…maxZoom + 1`.
  package func entries(atZoom zoom: Int) -> [Entry] {
    let z = max(lowestZoom, min(zoom, maxZoom + 1))
    return levels[z - lowestZoom]
  }

  /// A cluster's properties as its feature carries them: the summed
  /// `clusterProperties`, then `cluster` (true), `cluster_id`, `point_count`
  /// and `point_count_abbreviated`.
  package func properties(of cluster: Entry) -> [String: StyleValue] {
    var p = cluster.propertiesIndex >= 0 ? summed[Int(cluster.propertiesIndex)] : [:]
    p["cluster"] = .bool(true)
    p["cluster_id"] = .number(Double(cluster.id))
    p["point_count"] = .number(Double(cluster.pointCount))
    p["point_count_abbreviated"] = Self.abbreviated(cluster.pointCount)
    return p
  }

  /// A count as the cluster's label shows it: as it is below 1,000; in
  /// thousands with one decimal below 10,000 ("1.2k", "3k"); in whole
  /// thousands above ("15k"), each rounded half up.
  package static func abbreviated(_ count: Int) -> StyleValue {
    if count >= 10_000 { return .string("\(Int((Double(count) / 1000).rounded(.toNearestOrAwayFromZero)))k") }
    if count >= 1_000 {
      let tenths = Int((Double(count) / 100).rounded(.toNearestOrAwayFromZero))
      return .string(tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k")
    }
    return .number(Double(count))
  }
}
