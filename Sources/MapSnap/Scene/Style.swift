public import _MapSnapRaster

/// How a feature or graphic is drawn. Sizes are logical pixels; the renderer
/// multiplies them by the map's pixel ratio.
public struct Style: Sendable {
  public var fill: Color?
  public var fillRule: FillRule = .nonZero
  public var stroke: Color?
  /// Stroke width; a stroke with no width given is 1 px wide.
  public var strokeWidth: Double = 1
  /// Dash pattern [on, off, …]; nil draws a solid line.
  public var strokeDash: [Double]?
  public var lineJoin: LineJoin = .miter
  public var miterLimit: Double = 4
  public var lineCap: LineCap = .butt
  public var marker: MarkerStyle?
  /// The feature's label, placed with collision detection.
  public var label: LabelStyle?

  public init() {}
}

/// A point symbol: a built-in shape or (later) an icon.
public struct MarkerStyle: Sendable {
  public var shape: MarkerShape = .circle
  /// Diameter or side in logical pixels.
  public var size: Double = 8
  public var fill: Color? = Color(r: 0x33, g: 0x33, b: 0x33)
  public var stroke: Color?
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

  public init() {}

}
