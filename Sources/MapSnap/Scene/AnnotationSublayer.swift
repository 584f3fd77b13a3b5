/// A class of annotation with its own filter, visibility and scale range.
public struct AnnotationSublayer: Sendable {
  /// The sublayer's `id`, unique in its layer.
  public var id: String
  /// The features whose text it draws (its `where`).
  public var filter: Filter = Filter()
  /// False: its text is not drawn.
  public var visible = true
  /// The scales at which its text is drawn.
  public var scaleRange: ScaleRange = .unlimited
  /// How its text is drawn.
  public var style = AnnotationStyle()

  /// A visible sublayer over every feature, in the default style.
  public init(id: String) {
    self.id = id
  }
}
