/// What one annotation sublayer (class) shows, and why. A sublayer is drawn
/// only when it and its layer are both visible at the scale, so it carries
/// its layer's `notVisible` and `outOfScale` flags as well as its own, with
/// the causes in `hiddenBy`.
public struct SublayerState: Sendable {
  public let id: String
  /// The sublayer's own scale range, for messages.
  public let scaleRange: ScaleRange
  /// The text style, with sizes at the layer's reference scale.
  public let style: AnnotationStyle
  public internal(set) var status: LayerStatus = []
  public internal(set) var hiddenBy: [VisibilityCause] = []
  public internal(set) var features = FeatureCounts()

  init(id: String, scaleRange: ScaleRange, style: AnnotationStyle) {
    self.id = id
    self.scaleRange = scaleRange
    self.style = style
  }
}
