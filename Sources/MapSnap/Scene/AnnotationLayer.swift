/// An annotation layer: text with a fixed place and a fixed geographic size,
/// never moved or dropped for collisions.
public struct AnnotationLayer: Sendable {
  /// The features whose text is drawn.
  public var source: Source
  /// Each feature's text: the property `textField`, or the template `text`
  /// (`"{id} {status}"`).
  public var text: TextTemplate
  /// The property holding an angle in degrees counter-clockwise from east.
  public var angleField: String?
  /// The scale at which each sublayer's `size` holds.
  public var referenceScale: Double
  /// The classes of annotation, each with its filter and style.
  public var sublayers: [AnnotationSublayer]
}
