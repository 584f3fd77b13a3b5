/// What became of a feature that a view annotation may be tied to.
public enum TiedFeature: Sendable, Hashable {
  /// Styled at this scale and floor and reaching the frame: `drawables[k]`.
  case drawable(Int)
  /// Styled at this scale and floor, but nowhere near the frame.
  case offFrame
  /// Not drawn: no rule takes it at this scale, or it is on another floor.
  case notDrawn
}
