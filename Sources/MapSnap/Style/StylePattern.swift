internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// Where a frame's patterns lie, as MapLibre places them: on the world's
/// pixel grid at the frame's tile zoom (the zoom's whole part), so that
/// every tile, and the background, shows one grid without seams. One CSS
/// pixel of a pattern is one pixel of the world at that zoom (512 × 2^z
/// across); at a fractional zoom the grid is drawn 2^fraction larger, as
/// MapLibre draws the nearer zoom's pattern (its cross-fade between two
/// zooms ends on that one in a still frame).
struct StylePatternGrid: Sendable {
  /// The device point of the world's north-west corner.
  let origin: Point
  /// The device displacement of one CSS pixel of the grid eastwards and southwards.
  let east: Point
  let south: Point
  /// 2^(zoom − tile zoom): how much larger than at the tile zoom the grid is drawn.
  let zoomScale: Double

  init(camera: StyleCamera) {
    let tileZoom = max(0, camera.zoom.rounded(.down))
    let span = 2 * StyleCamera.halfWorld / (512 * pow(2, tileZoom))
    let c = camera.viewport.centerMap
    let o = camera.device(c)
    let e = camera.device(Point(c.x + span, c.y)), s = camera.device(Point(c.x, c.y - span))
    origin = camera.device(Point(-StyleCamera.halfWorld, StyleCamera.halfWorld))
    east = Point(e.x - o.x, e.y - o.y)
    south = Point(s.x - o.x, s.y - o.y)
    zoomScale = pow(2, max(0, camera.zoom) - tileZoom)
  }

  /// `image` (of `pixelRatio` sheet pixels per CSS pixel) repeated on the grid.
  func paint(_ image: StyleSprite.Image, opacity: Double) -> PatternPaint {
    let k = 1 / image.pixelRatio
    return PatternPaint(
      image: image.image, origin: origin, xAxis: Point(east.x * k, east.y * k), yAxis: Point(south.x * k, south.y * k), opacity: opacity)
  }
}

/// A line's pattern (`line-pattern`), as MapLibre lays it out: the image
/// centred on the line, repeated along it every image width (measured at
/// the tile zoom, as fill patterns are: `along`), at its own size across
/// it (`natural`) while the line is no wider than the image and one pixel
/// more either side; a wider line stretches it to that height (with its
/// wrapped edge rows) across the whole width. Its top lies on the right of
/// the line's direction (y down), as MapLibre's line normals place it.
struct StyleLinePattern: Sendable {
  let image: RasterImage
  /// Device pixels per image pixel along the line.
  let along: Double
  /// Device pixels per image pixel across the line at the image's own size.
  let natural: Double
  /// Image pixels per CSS pixel (the sprite entry's `pixelRatio`).
  let imageRatio: Double
  let opacity: Double

  /// Device pixels per image pixel across a line `halfWidth` device pixels either side.
  func across(halfWidth: Double) -> Double {
    let limit = Double(image.height) / 2 + imageRatio
    return halfWidth / natural <= limit ? natural : halfWidth / limit
  }
}

extension PatternPaint {
  /// True when both paint the same pixels: one image, one placement, one opacity.
  func isSame(as other: PatternPaint) -> Bool {
    image === other.image && origin == other.origin && xAxis == other.xAxis && yAxis == other.yAxis && opacity == other.opacity
  }
}

extension StylePaint {
  /// The sprite image a feature's `*-pattern` names: nil when the property
  /// is not set or gives no name; `.missing(name)` when the sprite has no
  /// such image (the feature draws nothing).
  enum PatternChoice {
    case none
    case image(StyleSprite.Image)
    case missing(String)
  }

  func patternChoice(_ f: EvaluationFeature?) -> PatternChoice {
    guard let pattern else { return .none }
    guard let name = pattern.imageName(f), !name.isEmpty else { return .missing("") }
    guard let image = sprite.image(name) else { return .missing(name) }
    return .image(image)
  }
}
