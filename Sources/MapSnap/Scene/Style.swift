public import _MapSnapRaster

/// How a feature or graphic is drawn. Sizes are logical pixels; the renderer
/// multiplies them by the map's pixel ratio.
public struct Style: Sendable {
  public var fill: Color?
  public var fillRule: FillRule = .nonZero
  public var stroke: Color?
  /// Stroke width; a stroke with no width given is 1 px wide.
  public var strokeWidth: Double = 1
  /// Dash pattern [on, off, …] in logical pixels, an odd-length list
  /// repeated once (`dashPattern`); nil draws a solid line.
  public var strokeDash: [Double]?
  public var lineJoin: LineJoin = .miter
  public var miterLimit: Double = 4
  public var lineCap: LineCap = .butt
  public var marker: MarkerStyle?
  /// The feature's label, placed with collision detection.
  public var label: LabelStyle?

  public init() {}

  /// `strokeDash` as it is drawn (`DashPattern`: made even, its period and
  /// on length); nil for a solid line.
  var dashPattern: DashPattern? { strokeDash.map(DashPattern.init) }
}
