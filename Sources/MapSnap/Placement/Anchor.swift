public import _MapSnapRaster

/// Where a box sits relative to the point it is placed at, shared by labels
/// (scene format 3.1) and view annotations (scene format 4).
///
/// The anchor names the point *of the box* that sits on the position, as in the
/// Mapbox Maps SDK:
/// - `bottom` puts the middle of the box's bottom edge on the point, so the box
///   is **above** the point;
/// - `top-left` puts the box's top-left corner on the point, so the box hangs
///   below and to the right;
/// - `left` puts the middle of the box's left edge on the point, so the box
///   (and the text in it) extends to the right;
/// - `center` centres the box on the point.
///
/// Raw values are the scene-format spellings (`"top-left"`, …), so
/// `Anchor(rawValue:)` parses them.
///
/// Two offset conventions exist, and they differ in the sign of y:
/// - Labels (`label.offset: [dx, dy]`) use **screen** offsets: x right, y
///   **down**. Pass them to ``box(size:at:offset:)`` unchanged.
/// - View annotations (`offsetX`, `offsetY`) follow Mapbox's
///   `ViewAnnotationAnchorConfig`: x right, y **up**. Use
///   ``viewAnnotationBox(size:at:offsetX:offsetY:)`` (or negate `offsetY`
///   yourself, see ``screenOffset(viewAnnotationOffsetX:offsetY:)``).
public enum Anchor: String, Sendable, CaseIterable {
  case center
  case top
  case bottom
  case left
  case right
  case topLeft = "top-left"
  case topRight = "top-right"
  case bottomLeft = "bottom-left"
  case bottomRight = "bottom-right"

  /// The anchor's position inside the box as fractions of its width and height,
  /// from the top-left corner (y down): `top-left` is (0, 0), `bottom` is
  /// (0.5, 1), `right` is (1, 0.5).
  @inlinable
  package var unitPosition: (x: Double, y: Double) {
    switch self {
    case .center: return (0.5, 0.5)
    case .top: return (0.5, 0)
    case .bottom: return (0.5, 1)
    case .left: return (0, 0.5)
    case .right: return (1, 0.5)
    case .topLeft: return (0, 0)
    case .topRight: return (1, 0)
    case .bottomLeft: return (0, 1)
    case .bottomRight: return (1, 1)
    }
  }

  /// The box of the given size whose anchor point lies on `point + offset`.
  ///
  /// `offset` is a **screen** offset, x right and y **down** (the labels'
  /// `offset` convention); all values are in the same pixel space as `point`
  /// (y down). For a 40×20 box at (100, 100) with no offset, `bottom` gives
  /// x 80…120, y 80…100 (above the point) and `top-left` gives x 100…140,
  /// y 100…120 (below right of it).
  @inlinable
  package func box(size: (width: Double, height: Double), at point: Point, offset: Point = Point(0, 0)) -> Rect {
    let u = unitPosition
    let minX = point.x + offset.x - u.x * size.width
    let minY = point.y + offset.y - u.y * size.height
    return Rect(minX: minX, minY: minY, maxX: minX + size.width, maxY: minY + size.height)
  }

  /// The box of a view annotation: like ``box(size:at:offset:)`` but with the
  /// offsets of Mapbox's `ViewAnnotationAnchorConfig`, where positive `offsetX`
  /// moves the box right and positive `offsetY` moves it **up** (towards smaller
  /// screen y). `bottom` with `offsetY: 8` puts the box's bottom edge 8 px above
  /// the point.
  @inlinable
  package func viewAnnotationBox(
    size: (width: Double, height: Double), at point: Point, offsetX: Double = 0, offsetY: Double = 0
  ) -> Rect {
    box(size: size, at: point, offset: Anchor.screenOffset(viewAnnotationOffsetX: offsetX, offsetY: offsetY))
  }

  /// Converts a view annotation offset (x right, y **up**) into the screen
  /// offset (x right, y **down**) that ``box(size:at:offset:)`` takes: the y
  /// component is negated.
  @inlinable
  package static func screenOffset(viewAnnotationOffsetX offsetX: Double, offsetY: Double) -> Point {
    Point(offsetX, -offsetY)
  }
}
