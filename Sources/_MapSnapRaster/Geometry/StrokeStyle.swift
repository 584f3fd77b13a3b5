/// How two stroked segments meet on the outer side of a turn. The inner side
/// always goes through the shared vertex, whatever the join.
public enum LineJoin: Sendable, Hashable, CaseIterable {
  /// The offset edges are extended until they meet, as long as the SVG miter
  /// ratio `1 / sin(θ / 2)` (θ = angle between the segments) stays within
  /// `StrokeStyle.miterLimit`; beyond that, and for 180° reversals, a bevel.
  case miter
  /// A circular arc of radius `width / 2` around the vertex.
  case round
  /// A straight edge between the two offset corners.
  case bevel
}

/// How the two ends of an open contour are finished.
public enum LineCap: Sendable, Hashable, CaseIterable {
  /// The stroke stops exactly at the end point. Zero-length contours draw nothing.
  case butt
  /// A half disc of radius `width / 2`. Zero-length contours draw a disc of
  /// diameter `width`.
  case round
  /// The stroke is extended by `width / 2` past the end point. Zero-length
  /// contours draw an axis-aligned square of side `width`.
  case square
}

/// The geometric part of a stroke: everything `strokeOutline` needs.
public struct StrokeStyle: Sendable, Hashable {
  /// Full stroke width in device pixels; nothing is drawn unless it is finite
  /// and positive.
  public var width: Double
  public var join: LineJoin
  public var cap: LineCap
  /// The SVG `stroke-miterlimit`: the largest miter length, as a multiple of
  /// the stroke width, that is still drawn as a miter.
  public var miterLimit: Double

  public init(width: Double, join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 4) {
    self.width = width
    self.join = join
    self.cap = cap
    self.miterLimit = miterLimit
  }
}
