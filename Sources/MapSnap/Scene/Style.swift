public import _MapSnapRaster

/// How a feature or graphic is drawn. Sizes are logical pixels; the renderer
/// multiplies them by the map's pixel ratio.
public struct Style: Sendable {
  /// Polygons' fill; nil: not filled.
  public var fill: Color?
  /// Which parts of a polygon are inside (holes stay holes under either:
  /// rings are wound by `Geometry`'s rule).
  public var fillRule: FillRule = .nonZero
  /// Lines' and polygon outlines' colour; nil: not stroked.
  public var stroke: Color?
  /// Stroke width; a stroke with no width given is 1 px wide.
  public var strokeWidth: Double = 1
  /// Dash pattern [on, off, …] in logical pixels, an odd-length list
  /// repeated once (`dashPattern`); nil draws a solid line.
  public var strokeDash: [Double]?
  /// How a stroke turns at a vertex.
  public var lineJoin: LineJoin = .miter
  /// The longest miter, in stroke widths, before a join is bevelled.
  public var miterLimit: Double = 4
  /// How an open line's ends (and each dash's) are drawn.
  public var lineCap: LineCap = .butt
  /// The symbol drawn at points; nil: points are not drawn.
  public var marker: MarkerStyle?
  /// The feature's label, placed with collision detection.
  public var label: LabelStyle?

  /// A style that draws nothing until given a fill, stroke, marker or label.
  public init() {}

  /// `strokeDash` as it is drawn (`DashPattern`: made even, its period and
  /// on length); nil for a solid line.
  var dashPattern: DashPattern? { strokeDash.map(DashPattern.init) }
}
