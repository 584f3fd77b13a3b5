/// An annotation layer: text with a fixed place and a fixed geographic size,
/// never moved or dropped for collisions.
public struct AnnotationLayer: Sendable {
  public var source: Source
  /// The property holding each feature's text.
  public var textField: String
  /// The property holding an angle in degrees counter-clockwise from east.
  public var angleField: String?
  /// The scale at which each sublayer's `size` holds.
  public var referenceScale: Double
  public var sublayers: [AnnotationSublayer]
}
