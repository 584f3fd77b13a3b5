/// The text style of an annotation sublayer (section 3.3). `size` and the
/// halo's width hold at the layer's reference scale and scale with the map.
public struct AnnotationStyle: Sendable {
  public var size: Double = 10
  public var color: Color = .black
  public var font: String?
  public var halo: Halo?
  public var align: TextAlign = .center
  public var baseline: TextBaseline = .middle
  /// The text's shift from its point, [dx, dy] in logical pixels at the
  /// reference scale (x right, y down before the angle turns it): it grows
  /// with the text and turns with the annotation's angle.
  public var offset: (Double, Double) = (0, 0)
  /// Lines wrap at spaces to at most this many ems; nil: never.
  public var maxWidth: Double? = nil
  /// Space added between characters, in ems.
  public var letterSpacing: Double = 0

  public init() {}
}
