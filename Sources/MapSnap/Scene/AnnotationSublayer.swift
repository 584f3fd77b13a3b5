/// A class of annotation with its own filter, visibility and scale range.
public struct AnnotationSublayer: Sendable {
  public var id: String
  public var filter: Filter = Filter()
  public var visible = true
  public var scaleRange: ScaleRange = .unlimited
  public var style = AnnotationStyle()

  public init(id: String) {
    self.id = id
  }
}
