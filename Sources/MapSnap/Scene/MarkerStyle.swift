public import _MapSnapRaster

/// A point symbol: a built-in shape or an icon PNG.
public struct MarkerStyle: Sendable {
  /// The built-in shape drawn when there is no icon.
  public var shape: MarkerShape = .circle
  /// Diameter or side in logical pixels.
  public var size: Double = 8
  /// The shape's fill; nil: none.
  public var fill: Color? = Color(r: 0x33, g: 0x33, b: 0x33)
  /// The shape's outline colour; nil: none.
  public var stroke: Color?
  /// The outline's width in logical pixels.
  public var strokeWidth: Double = 1
  /// Multiplies the alpha of both fill and stroke.
  public var opacity: Double = 1
  /// Shift in logical pixels, x right and y down.
  public var offset: (Double, Double) = (0, 0)
  /// An icon PNG (resolved path); `size` is then its height, and 0 means the
  /// PNG's own height.
  public var icon: String?
  /// The icon as the scene names it, for messages.
  public var iconName: String?
  /// When true the marker's box blocks labels.
  public var collides = false

  /// An 8 px dark grey circle.
  public init() {}

}
