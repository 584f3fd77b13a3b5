/// One annotation text of one feature part (section 3.3): where it stands, at
/// what size, and whether it is drawn.
///
/// Resolution lists every text whose anchor (grown by the text's reach) meets
/// the frame, whatever its sublayer's state, so that a report says why each
/// one is hidden; the display-list stage then records `outOfBounds` for a text
/// whose glyphs put no pixel into the image.
public struct AnnotationText: Sendable {
  public var feature: FeatureKey
  /// Part index within a MultiPoint (0 for a Point).
  public var part: Int
  /// Index into the layer's `sublayers`.
  public var sublayer: Int
  /// The anchor in map units.
  public var point: Point
  /// The text (empty when the feature has none).
  public var text: String
  /// Degrees counter-clockwise from east.
  public var angle: Double
  /// Em size in logical pixels at this scale: `style.size × referenceScale / scale`.
  public var size: Double
  /// Halo width in logical pixels at this scale, scaled like `size`.
  public var haloWidth: Double
  /// Why it is not drawn; nil when it is.
  public internal(set) var hidden: AnnotationHiddenReason?

  /// True when drawn.
  public var isDrawn: Bool { hidden == nil }
}
