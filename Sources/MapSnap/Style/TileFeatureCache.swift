internal import _MapSnapStyle
import Synchronization

/// What frames have learned of one vector tile's features, kept with the
/// tile (`StyleTileCache`) for the frames after: each feature's geometry
/// type, geometry box and evaluation feature (id, type, properties), and
/// each filter's verdict on it. A road layer read by a dozen line layers
/// decodes each feature once, two layers with one filter evaluate it once,
/// and a batch of frames over one city does both once per tile. Filled in
/// lazily, as features are first asked about; frames on several threads
/// share it behind its lock.
final class TileFeatureCache: Sendable {
  /// One source layer's knowledge, by feature index; nil until learned.
  private struct Layer {
    var kinds: [GeometryKind?]
    var boxes: [TileBox?]
    var features: [EvaluationFeature?]
    /// By filter key: 0 not yet evaluated, 1 kept, 2 dropped.
    var verdicts: [String: [UInt8]] = [:]

    init(count: Int) {
      kinds = Array(repeating: nil, count: count)
      boxes = Array(repeating: nil, count: count)
      features = Array(repeating: nil, count: count)
    }
  }

  /// A layer's filter: its key (the same for every filter that gives the
  /// same verdicts: its text, and the zoom when it reads the zoom) and its
  /// evaluation.
  struct Filter {
    let key: String
    let keeps: (EvaluationFeature) -> Bool
  }

  /// The features one style layer draws from a tile, in tile order, how
  /// many of the geometry type it draws lay in its window (kept or not by
  /// its filter), and the error that stopped the reading (the features
  /// before it stand).
  struct Selection {
    var kept: [(index: Int, feature: EvaluationFeature)] = []
    var inWindow = 0
    var error: VectorTileError?
  }

  private let layers = Mutex<[String: Layer]>([:])

  /// The features of `tileLayer` whose geometry type `accepts` takes, whose
  /// geometry box meets `window` (when given) and that `filter` keeps (when
  /// given), learning what is not yet known.
  func select(_ tileLayer: VectorTileLayer, window: TileBox?, accepts: (GeometryKind) -> Bool, filter: Filter?) -> Selection {
    let count = tileLayer.featureCount
    return layers.withLock { all in
      var l = all.removeValue(forKey: tileLayer.name) ?? Layer(count: count)
      if l.kinds.count != count { l = Layer(count: count) }
      var verdicts = filter.map { l.verdicts.removeValue(forKey: $0.key) ?? [UInt8](repeating: 0, count: count) } ?? []
      defer {
        if let filter { l.verdicts[filter.key] = verdicts }
        all[tileLayer.name] = l
      }
      var out = Selection()
      var geometry = TileGeometry()
      do throws(VectorTileError) {
        for i in 0..<count {
          var read: VectorTileFeature?
          func feature() throws(VectorTileError) -> VectorTileFeature {
            if let read { return read }
            let f = try tileLayer.feature(at: i)
            read = f
            return f
          }
          let kind: GeometryKind
          if let k = l.kinds[i] {
            kind = k
          } else {
            kind = try feature().kind
            l.kinds[i] = kind
          }
          guard accepts(kind) else { continue }
          if let window {
            let box: TileBox
            if let b = l.boxes[i] {
              box = b
            } else {
              try feature().decodeGeometry(into: &geometry)
              box = geometry.bounds
              l.boxes[i] = box
            }
            guard window.intersects(box) else { continue }
          }
          out.inWindow += 1
          let ef: EvaluationFeature
          if let e = l.features[i] {
            ef = e
          } else {
            ef = try feature().evaluationFeature()
            l.features[i] = ef
          }
          if let filter {
            if verdicts[i] == 0 { verdicts[i] = filter.keeps(ef) ? 1 : 2 }
            guard verdicts[i] == 1 else { continue }
          }
          out.kept.append((i, ef))
        }
      } catch {
        out.error = error
      }
      return out
    }
  }
}
