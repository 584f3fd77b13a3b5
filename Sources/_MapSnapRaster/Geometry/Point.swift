/// A point in device pixel space: x grows right, y grows down, (0,0) is the
/// top-left corner of the image.
public struct Point: Sendable, Hashable {
  public var x: Double
  public var y: Double

  @inlinable
  public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
  @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
  @inlinable public static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }

  /// The dot product of the two points taken as vectors.
  @inlinable public func dot(_ o: Point) -> Double { x * o.x + y * o.y }
  /// The z component of the cross product of the two points taken as vectors;
  /// positive when `o` turns clockwise from `self` on screen (y down).
  @inlinable public func cross(_ o: Point) -> Double { x * o.y - y * o.x }
  @inlinable public var length: Double { (x * x + y * y).squareRoot() }
  /// True when both coordinates are finite (not NaN, not infinite).
  @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// An axis-aligned rectangle in device pixels; `minX <= maxX` and `minY <= maxY`
/// unless it is `Rect.empty`.
public struct Rect: Sendable, Hashable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  @inlinable
  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The rectangle that contains nothing; `union` with it returns the other operand.
  public static let empty = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

  @inlinable public var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }
  @inlinable public var width: Double { maxX - minX }
  @inlinable public var height: Double { maxY - minY }

  @inlinable
  public mutating func include(_ p: Point) {
    if p.x < minX { minX = p.x }
    if p.x > maxX { maxX = p.x }
    if p.y < minY { minY = p.y }
    if p.y > maxY { maxY = p.y }
  }

  /// True when the two rectangles share interior or boundary points.
  @inlinable
  public func intersects(_ o: Rect) -> Bool {
    minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
  }

  /// The rectangle grown by `d` on every side.
  @inlinable
  public func insetBy(_ d: Double) -> Rect {
    Rect(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d)
  }
}
