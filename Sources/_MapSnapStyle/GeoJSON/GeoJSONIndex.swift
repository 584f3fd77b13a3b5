#if canImport(Glibc)
  import Glibc
#endif

/// A GeoJSON source's kept features with their world shapes, and how a
/// frame's tiles are made of them: at tile zoom z = min(⌊zoom⌋, `maxzoom`),
/// each tile holds its features cut at `buffer` and simplified at
/// `tolerance` pixels of its 512-pixel square (none at `maxzoom`), as
/// geojson-vt cuts MapLibre's; a clustered source's tiles hold instead the
/// clusters and lone points of zoom z (`Supercluster`), its points only.
package struct GeoJSONIndex: Sendable {
  package let options: GeoJSONSourceOptions
  package private(set) var features: [EvaluationFeature] = []
  private var shapes: [GeoJSONShape] = []
  /// Positions added: what the source's size is bounded by.
  package private(set) var positionCount = 0

  /// The most positions a source may hold: some 200 bytes each kept (shape,
  /// properties and the decoded document) bound a source at about 2 GB.
  package static let maximumPositions = 10_000_000

  package init(options: GeoJSONSourceOptions) { self.options = options }

  /// The squared tolerance (world units) a shape is prepared down to: the
  /// tolerance of tiles at `maxzoom`, the finest any tile uses.
  package var preparationSqTolerance: Double {
    let t = options.tolerance / (512 * pow(2, Double(options.maxzoom)))
    return t * t
  }

  /// Adds a kept feature part; false (and nothing added) past `maximumPositions`.
  package mutating func append(_ feature: EvaluationFeature, _ shape: GeoJSONShape) -> Bool {
    var n = 0
    for p in shape.parts { n += p.vertexCount }
    guard positionCount + n <= Self.maximumPositions else { return false }
    positionCount += n
    features.append(feature)
    shapes.append(shape)
    return true
  }

  /// The tile zoom a frame at MapLibre zoom `zoom` reads.
  package func tileZoom(for zoom: Double) -> Int {
    max(0, min(Int(max(0, zoom).rounded(.down)), options.maxzoom))
  }

  /// The tiles `keys` of tile zoom `z`.
  package func tiles(z: Int, keys: [GeoJSONTileKey]) -> GeoJSONFrameTiles {
    var slot: [GeoJSONTileKey: Int] = [:]
    for (i, k) in keys.enumerated() where slot[k] == nil { slot[k] = i }
    var out = GeoJSONFrameTiles(features: features, tiles: Array(repeating: [], count: keys.count), zoom: z)
    if options.cluster {
      clusters(z: z, slot: slot, into: &out)
    } else {
      cut(z: z, keys: keys, slot: slot, into: &out)
    }
    return out
  }

  private func cut(z: Int, keys: [GeoJSONTileKey], slot: [GeoJSONTileKey: Int], into out: inout GeoJSONFrameTiles) {
    guard !keys.isEmpty else { return }
    let n = 1 << z
    let buffer = options.buffer / 512 / Double(n)
    let tolerance = z >= options.maxzoom ? 0 : options.tolerance / 512 / Double(n)
    let kx0 = keys.map(\.x).min()!, kx1 = keys.map(\.x).max()!, ky0 = keys.map(\.y).min()!, ky1 = keys.map(\.y).max()!
    for (index, shape) in shapes.enumerated() {
      for offset in [-1.0, 0, 1] {
        let minX = shape.minX + offset - buffer, maxX = shape.maxX + offset + buffer
        guard maxX >= 0, minX <= 1 else { continue }
        let c0 = max(kx0, Int((minX * Double(n)).rounded(.down))), c1 = min(kx1, Int((maxX * Double(n)).rounded(.down)))
        let r0 = max(ky0, Int(((shape.minY - buffer) * Double(n)).rounded(.down)))
        let r1 = min(ky1, Int(((shape.maxY + buffer) * Double(n)).rounded(.down)))
        guard c1 >= c0, r1 >= r0 else { continue }
        func add(_ k: GeoJSONTileKey, _ i: Int) {
          guard let (g, progress) = GeoJSONTiler.tile(
            shape, z: z, x: k.x, y: k.y, offset: offset, buffer: buffer, tolerance: tolerance, lineMetrics: options.lineMetrics)
          else { return }
          out.tiles[i].append(GeoJSONTileFeature(feature: Int32(index), geometry: g, progress: progress))
        }
        if (c1 - c0 + 1) * (r1 - r0 + 1) > slot.count {
          for (k, i) in slot.sorted(by: { $0.value < $1.value }) where k.x >= c0 && k.x <= c1 && k.y >= r0 && k.y <= r1 { add(k, i) }
        } else {
          for r in r0...r1 {
            for c in c0...c1 {
              if let i = slot[GeoJSONTileKey(x: c, y: r)] { add(GeoJSONTileKey(x: c, y: r), i) }
            }
          }
        }
      }
    }
  }

  /// A clustered source's tiles: each cluster and lone point of zoom `z` in
  /// the tile it lies in (a point belongs to one tile, as MapLibre's circles do).
  private func clusters(z: Int, slot: [GeoJSONTileKey: Int], into out: inout GeoJSONFrameTiles) {
    var xs: [Double] = [], ys: [Double] = [], owner: [Int32] = []
    for (index, shape) in shapes.enumerated() where shape.kind == .point {
      for p in shape.parts {
        for i in 0..<p.vertexCount {
          xs.append(p.coords[i * GeoJSONPart.stride])
          ys.append(p.coords[i * GeoJSONPart.stride + 1])
          owner.append(Int32(index))
        }
      }
    }
    let features = self.features
    let index = Supercluster(
      xs: xs, ys: ys, radius: options.clusterRadius, extent: 512, maxZoom: options.clusterMaxZoom, minPoints: options.clusterMinPoints,
      downTo: z, clusterProperties: options.clusterProperties, properties: { features[Int(owner[$0])].properties })
    let n = Double(1 << z)
    for e in index.entries(atZoom: z) {
      let tx = e.x * n, ty = e.y * n
      let cx = min(Int(n) - 1, Int(tx.rounded(.down))), cy = min(Int(n) - 1, Int(ty.rounded(.down)))
      guard let slotIndex = slot[GeoJSONTileKey(x: cx, y: cy)] else { continue }
      let feature: Int32
      if e.isCluster {
        feature = Int32(out.features.count)
        out.features.append(EvaluationFeature(id: .number(Double(e.id)), kind: .point, isMulti: false, properties: index.properties(of: e)))
      } else {
        feature = owner[e.id]
      }
      var g = TileGeometry()
      g.kind = .point
      g.points = [TilePoint(
        x: GeoJSONTiler.grid(GeoJSONTiler.extent * (tx - Double(cx))), y: GeoJSONTiler.grid(GeoJSONTiler.extent * (ty - Double(cy))))]
      g.partEnds = [1]
      out.tiles[slotIndex].append(GeoJSONTileFeature(feature: feature, geometry: g, progress: []))
    }
  }
}
