/// A style rule of a `features` layer: it applies to a feature when its `where`
/// matches and its scale range holds; the first such rule wins.
public struct Rule: Sendable {
  /// The rule's `where`: the features it may apply to.
  public var filter: Filter
  /// The scales at which it applies.
  public var scaleRange: ScaleRange
  /// How the features it applies to are drawn.
  public var style: Style

  /// A rule; by default it applies to every feature at every scale.
  public init(filter: Filter = Filter(), scaleRange: ScaleRange = .unlimited, style: Style) {
    self.filter = filter
    self.scaleRange = scaleRange
    self.style = style
  }
}
