internal import _MapSnapStyle

/// One frame's evaluation features (id, geometry type, properties) of one
/// tile, built once for all the style layers that read them: a road layer
/// read by a dozen line layers decodes each feature's properties once.
/// Only the frame's resolver uses it, on one thread.
final class TileFeatureCache: @unchecked Sendable {
  /// The features of one source layer, by index; nil until first read.
  final class Layer {
    var features: [EvaluationFeature?]
    init(count: Int) { features = Array(repeating: nil, count: count) }
  }

  private var layers: [String: Layer] = [:]

  /// The store of source layer `name`, which has `count` features.
  func layer(_ name: String, count: Int) -> Layer {
    if let l = layers[name], l.features.count == count { return l }
    let l = Layer(count: count)
    layers[name] = l
    return l
  }
}
