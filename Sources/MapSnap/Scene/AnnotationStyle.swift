/// The text style of an annotation sublayer (section 3.3). `size` and the
/// halo's width hold at the layer's reference scale and scale with the map.
public struct AnnotationStyle: Sendable {
  /// Text size in logical pixels at the reference scale.
  public var size: Double = 10
  /// The text's colour.
  public var color: Color = .black
  /// The font's name; nil: `FontLibrary.defaultFont`.
  public var font: String?
  /// An outline under the text; nil: none.
  public var halo: Halo?
  /// Which side of the text is at its point, across.
  public var align: TextAlign = .center
  /// Which line of the text is at its point, up and down.
  public var baseline: TextBaseline = .middle
  /// The text's shift from its point, [dx, dy] in logical pixels at the
  /// reference scale (x right, y down before the angle turns it): it grows
  /// with the text and turns with the annotation's angle.
  public var offset: (Double, Double) = (0, 0)
  /// Lines wrap at spaces to at most this many ems; nil: never.
  public var maxWidth: Double? = nil
  /// Space added between characters, in ems.
  public var letterSpacing: Double = 0

  /// The default style: black text, 10 px at the reference scale, centred
  /// on its point.
  public init() {}
}
