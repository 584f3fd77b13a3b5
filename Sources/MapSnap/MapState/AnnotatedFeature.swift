/// What became, in this frame, of a feature that a view annotation names
/// (`ViewAnnotation.Target.feature`): drawn, off the frame, or not drawn.
public enum AnnotatedFeature: Sendable, Hashable {
  /// Styled at this scale and floor and reaching the frame: `drawables[k]`.
  case drawable(Int)
  /// Styled at this scale and floor, but nowhere near the frame.
  case offFrame
  /// Not drawn: no rule takes it at this scale, or it is on another floor.
  case notDrawn
}
