/// A style rule of a `features` layer: it applies to a feature when its `where`
/// matches and its scale range holds; the first such rule wins.
public struct Rule: Sendable {
  public var filter: Filter
  public var scaleRange: ScaleRange
  public var style: Style

  public init(filter: Filter = Filter(), scaleRange: ScaleRange = .unlimited, style: Style) {
    self.filter = filter
    self.scaleRange = scaleRange
    self.style = style
  }
}
