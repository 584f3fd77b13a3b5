/// The text style of an annotation sublayer (section 3.3). `size` and the
/// halo's width hold at the layer's reference scale and scale with the map.
public struct AnnotationStyle: Sendable {
  public var size: Double = 10
  public var color: Color = .black
  public var font: String?
  public var halo: Halo?
  public var align: TextAlign = .center
  public var baseline: TextBaseline = .middle

  public init() {}
}
