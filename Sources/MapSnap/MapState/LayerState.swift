/// What one layer shows in this frame, and why: its status with the causes
/// behind it, its problems, and what it hands to placement and drawing.
public struct LayerState: Sendable {
  public let id: String
  public let kind: Layer.Kind
  /// Index of the scene layer this state belongs to.
  public let index: Int
  /// Group opacity.
  public let opacity: Double
  public internal(set) var status: LayerStatus = []
  /// Why the layer is `notVisible` or `outOfScale`; empty when it is shown.
  public internal(set) var hiddenBy: [VisibilityCause] = []
  /// What is wrong with it (`error` or `warning`), in the order found.
  public internal(set) var problems: [LayerProblem] = []
  public internal(set) var features = FeatureCounts()
  /// Features to draw, bottom to top, each with its style and label: those
  /// styled at this scale and floor whose symbols or label can reach the frame.
  public internal(set) var drawables: [Drawable] = []
  /// For annotation layers: each sublayer's status, causes and counts.
  public internal(set) var sublayers: [SublayerState] = []
  /// For annotation layers: every text whose anchor can reach the frame, in
  /// feature order, each with the reason resolution hides it, if any (its
  /// final outcome is the frame record's: `LayerRecord.annotations`).
  public internal(set) var annotations: [AnnotationText] = []
  /// Credit for the layer's data: its `attribution`, or for a tiles layer
  /// the source's metadata.
  public internal(set) var attribution: String?
  /// For tiles layers: the level and what became of each tile.
  public internal(set) var tiles: TileLayerState?
  /// For a style layer: each style layer's and source's record and what
  /// the style draws.
  var style: StyleFrameState?
  /// For an `ogr` source: the driver, reference, features read and whether
  /// a spatial index was used.
  public internal(set) var ogr: OGRReadInfo?
  /// The spatial reference a GeoJSON source was read in, and who named it
  /// (`ReferenceNote`); nil for degrees named by nothing.
  public internal(set) var reference: ReferenceNote?
  /// For layers that view annotations name: what became of the feature of
  /// each id they name (absent when the source has no such id).
  public internal(set) var annotatedFeatures: [FeatureID: AnnotatedFeature] = [:]
  /// For layers that view annotations name: every feature id of the source
  /// (or graphic id of the layer), as text, sorted; for "did you mean" hints.
  public internal(set) var featureIDs: [String] = []

  init(id: String, kind: Layer.Kind, index: Int, opacity: Double) {
    self.id = id
    self.kind = kind
    self.index = index
    self.opacity = opacity
  }

  /// The problems as one message (`; ` between them), or nil when there are none.
  public var message: String? {
    problems.isEmpty ? nil : problems.map(\.message).joined(separator: "; ")
  }

  /// Records a problem: `error` for a source problem, `warning` otherwise.
  mutating func add(_ problem: LayerProblem) {
    problems.append(problem)
    status.insert(problem.isError ? .error : .warning)
  }
}
