/// What happened to one view annotation.
public struct ViewAnnotationOutcome: Sendable {
  public var id: String
  public var visible: Bool
  /// The anchor taken, when placed.
  public var anchor: Anchor?
  /// Which entry of `anchors` was taken (0 is the first), when placed.
  public var anchorIndex: Int?
  /// The box in logical pixels from the image's top-left corner, when placed.
  public var box: Rect?
  public var reason: HiddenReason?
  /// For `outOfBounds`: true when the annotated position itself lies outside
  /// the image (for a feature, when the feature is nowhere near the frame);
  /// false when it is inside but no anchor puts the box wholly inside.
  public var positionOutside = false
  /// For `collision`: the ids of the placed boxes in the way, in scene order.
  public var blockedBy: [String] = []
  /// The annotated position in logical pixels, when one was found.
  public var position: Point?
  /// A problem with the annotation itself (it names a feature id its layer
  /// does not have), also printed on standard error.
  public var warning: String?

  public init(id: String, visible: Bool) {
    self.id = id
    self.visible = visible
  }
}
