/// What an expression reads besides the feature: the camera's zoom, the
/// per-pixel inputs of heatmap and line-gradient ramps, feature state,
/// the style's images and global state.
package struct EvaluationContext: Sendable {
  package var zoom: Double?
  package var heatmapDensity: Double?
  package var lineProgress: Double?
  package var accumulated: StyleValue?
  package var elevation: Double?
  package var featureState: [String: StyleValue]
  /// The image names `image` expressions find available.
  package var availableImages: [String]
  /// The style's `state` as `global-state` reads it.
  package var globalState: [String: StyleValue]
  /// The tile the feature's geometry is in (`within`, `distance`).
  package var canonical: CanonicalTileID?

  package init(
    zoom: Double? = nil, heatmapDensity: Double? = nil, lineProgress: Double? = nil, accumulated: StyleValue? = nil,
    elevation: Double? = nil, featureState: [String: StyleValue] = [:], availableImages: [String] = [],
    globalState: [String: StyleValue] = [:], canonical: CanonicalTileID? = nil
  ) {
    self.zoom = zoom
    self.heatmapDensity = heatmapDensity
    self.lineProgress = lineProgress
    self.accumulated = accumulated
    self.elevation = elevation
    self.featureState = featureState
    self.availableImages = availableImages
    self.globalState = globalState
    self.canonical = canonical
  }
}

/// A tile's address: zoom, column, row (the XYZ scheme).
package struct CanonicalTileID: Sendable, Equatable {
  package var z: Int
  package var x: Int
  package var y: Int
  package init(z: Int, x: Int, y: Int) {
    self.z = z
    self.x = x
    self.y = y
  }
}

/// The inputs of one evaluation: the context and the feature, if any.
package struct EvaluationInput {
  package let context: EvaluationContext
  package let feature: EvaluationFeature?

  package init(_ context: EvaluationContext, _ feature: EvaluationFeature?) {
    self.context = context
    self.feature = feature
  }
}
