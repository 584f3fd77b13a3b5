/// One annotation text of one feature part (section 3.3) as resolution
/// decides it: where it stands, at what size, and whether the map's rules
/// (visibility, scale, floor, text, size) let it go to placement.
///
/// Resolution lists every text whose anchor (grown by the text's reach) meets
/// the frame, whatever its sublayer's state, so that a report says why each
/// one is hidden. Its final outcome (drawn, or hidden with placement's or the
/// display list's reason) is the frame record's (`AnnotationTextRecord`).
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
  /// Why resolution hides it; nil when it goes to placement.
  public internal(set) var hidden: AnnotationHiddenReason?

  /// True when resolution lets it go to placement (`hidden` is nil).
  public var goesToPlacement: Bool { hidden == nil }
}
