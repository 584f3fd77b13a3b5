/// Logical pixels kept free around a fitted box (`map.padding`,
/// `--padding`): one number for every side, or top, right, bottom, left
/// (CSS order).
public struct Padding: Sendable, Hashable {
  /// Logical pixels kept free above the box.
  public var top: Double
  /// On its right.
  public var right: Double
  /// Below it.
  public var bottom: Double
  /// On its left.
  public var left: Double

  /// Padding of these sides.
  public init(top: Double, right: Double, bottom: Double, left: Double) {
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
  }

  /// The same padding on every side.
  public init(_ all: Double) { self.init(top: all, right: all, bottom: all, left: all) }

  /// No padding.
  public static let zero = Padding(0)
}
