/// Logical pixels kept free around a fitted box (`map.padding`,
/// `--padding`): one number for every side, or top, right, bottom, left
/// (CSS order).
public struct Padding: Sendable, Hashable {
  public var top: Double
  public var right: Double
  public var bottom: Double
  public var left: Double

  public init(top: Double, right: Double, bottom: Double, left: Double) {
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
  }

  public init(_ all: Double) { self.init(top: all, right: all, bottom: all, left: all) }

  public static let zero = Padding(0)
}
