/// One contour of a `Path`: a run of `count` points starting at `start` in
/// `Path.points`. A closed contour has an implied edge from its last point back
/// to its first; the first point is not repeated at the end.
public struct Contour: Sendable, Hashable {
  public var start: Int
  public var count: Int
  public var isClosed: Bool

  @inlinable
  public init(start: Int, count: Int, isClosed: Bool) {
    self.start = start
    self.count = count
    self.isClosed = isClosed
  }
}

/// Flattened geometry in device pixels: straight segments only (curves, such as
/// round joins and circles, are flattened when they are made). A path is a list
/// of contours over one shared point array so that building and iterating it
/// costs no per-contour allocation.
///
/// Filling treats every contour as closed; stroking honours `isClosed`.
public struct Path: Sendable, Hashable {
  public var points: [Point] = []
  public var contours: [Contour] = []

  @inlinable public init() {}

  @inlinable public var isEmpty: Bool { contours.isEmpty }

  /// Appends a contour made of `pts`. Contours with no points are ignored.
  @inlinable
  public mutating func addContour<S: Sequence>(_ pts: S, closed: Bool) where S.Element == Point {
    let start = points.count
    points.append(contentsOf: pts)
    let n = points.count - start
    if n > 0 { contours.append(Contour(start: start, count: n, isClosed: closed)) }
  }

  /// Starts a new contour at `p`; follow with `line(to:)` and `close()`.
  @inlinable
  public mutating func move(to p: Point) {
    contours.append(Contour(start: points.count, count: 1, isClosed: false))
    points.append(p)
  }

  /// Adds a straight segment from the current point to `p`.
  /// - Precondition: `move(to:)` was called first.
  @inlinable
  public mutating func line(to p: Point) {
    points.append(p)
    contours[contours.count - 1].count += 1
  }

  /// Marks the current contour closed.
  @inlinable
  public mutating func close() {
    contours[contours.count - 1].isClosed = true
  }

  /// Appends every contour of `other`.
  @inlinable
  public mutating func append(_ other: Path) {
    let base = points.count
    points.append(contentsOf: other.points)
    for c in other.contours {
      contours.append(Contour(start: c.start + base, count: c.count, isClosed: c.isClosed))
    }
  }

  /// The points of contour `i`.
  @inlinable
  public func points(of i: Int) -> ArraySlice<Point> {
    let c = contours[i]
    return points[c.start..<(c.start + c.count)]
  }

  /// The smallest rectangle holding every point; `Rect.empty` for an empty path.
  public var bounds: Rect {
    var r = Rect.empty
    for p in points { r.include(p) }
    return r
  }
}
