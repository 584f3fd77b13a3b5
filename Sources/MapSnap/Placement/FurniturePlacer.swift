internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The map furniture of a frame (`map.scaleBar`, `map.northArrow`, scene
/// format 1.3): what each shows and where it is drawn.
public struct FurniturePlacement: Sendable {
  /// A scale bar: its true length and its pixels.
  public struct ScaleBar: Sendable {
    /// The bar's true length in `units`, a round number (1, 2 or 5 × 10^n).
    public var length: Double
    /// "m", "km", "ft", "mi" or "nmi".
    public var units: String
    /// What is written over it ("500 m").
    public var label: String
    /// Its width in logical pixels.
    public var widthPixels: Double
    /// True ground metres per logical pixel at the map's centre, east–west.
    public var groundMetersPerPixel: Double
    public var position: Corner
    var shape = Path()
    var color: Color
    var run: GlyphRun?
  }

  /// A north arrow: where true north is at the map's centre.
  public struct NorthArrow: Sendable {
    /// Degrees clockwise from the image's up to true north (the grid
    /// convergence at the centre, negated: west of a transverse Mercator's
    /// central meridian north leans right).
    public var angle: Double
    public var position: Corner
    var shape = Path()
    var color: Color
    var run: GlyphRun?
  }

  public var scaleBar: ScaleBar?
  public var northArrow: NorthArrow?

  package init() {}

  /// The text runs, for the glyph masks to prepare.
  var runs: [GlyphRun] { [scaleBar?.run, northArrow?.run].compactMap { $0 } }
}

/// Places the scale bar and the north arrow.
///
/// Rules:
/// - **Scale bar**: the true length of one logical pixel is measured at the
///   map's centre along the image's x axis (the geodesic length on WGS84 of
///   a two-pixel step, halved); the bar is the longest round length (1, 2 or
///   5 × 10^n of metres, of kilometres from 1 km; of feet, of miles from
///   5280 ft; or of nautical miles) that fits in `maxWidth`. Units default to
///   imperial on a map in feet, else metric.
/// - **North arrow**: points from the centre to where a small step north
///   along the meridian lands, in map units (PROJ's own projection of it):
///   up on Web Mercator and geographic maps, leaning by the grid convergence
///   on a transverse Mercator or a conic.
/// - **Layout**: each `margin` logical pixels inside its corner, in DejaVu
///   Sans at `textSize` with a white halo, a bottom-right one above the
///   attribution line; drawn above every layer and label, under the
///   attribution line.
package struct FurniturePlacer {
  let state: MapState
  let settings: (scaleBar: ScaleBarSettings?, northArrow: NorthArrowSettings?)
  let fonts: FontLibrary?
  /// Logical pixels the attribution line takes at the bottom right.
  let attributionHeight: Double

  static let margin = 10.0
  static let textSize = 11.0
  static let halo = 1.5
  static let barThickness = 3.0
  static let tickHeight = 8.0
  /// Degrees of the step north that finds true north.
  static let northStep = 1e-4

  package func place() -> FurniturePlacement {
    var out = FurniturePlacement()
    if let s = settings.scaleBar { out.scaleBar = scaleBar(s) }
    if let n = settings.northArrow { out.northArrow = northArrow(n) }
    return out
  }

  /// True metres per logical pixel at the centre, east–west; nil where the
  /// centre's neighbours have no position on the Earth.
  func groundMetersPerPixel() -> Double? {
    let v = state.viewport
    let c = v.centerMap
    let west = v.projection.unproject(Point(c.x - v.unitsPerPixel, c.y))
    let east = v.projection.unproject(Point(c.x + v.unitsPerPixel, c.y))
    guard west.lon.isFinite, west.lat.isFinite, east.lon.isFinite, east.lat.isFinite, let d = Geodesic.distance(west, east), d > 0
    else { return nil }
    return d / 2
  }

  /// The largest of 1, 2 and 5 × 10^n not above `x` (x > 0).
  static func roundDown(_ x: Double) -> Double {
    let p = pow(10, (log10(x)).rounded(.down))
    for m in [5.0, 2.0, 1.0] where m * p <= x * (1 + 1e-12) { return m * p }
    return p
  }

  func scaleBar(_ s: ScaleBarSettings) -> FurniturePlacement.ScaleBar? {
    guard let perPixel = groundMetersPerPixel() else { return nil }
    let v = state.viewport
    let units = s.units ?? (v.projection.inchesPerUnit == MapProjection.inchesPerFoot ? .imperial : .metric)
    let most = s.maxWidth * perPixel
    let (length, unit, meters): (Double, String, Double)
    switch units {
    case .metric:
      let m = Self.roundDown(most)
      (length, unit, meters) = m >= 1000 ? (m / 1000, "km", m) : (m, "m", m)
    case .imperial:
      if most / 1609.344 >= 1 {
        let mi = Self.roundDown(most / 1609.344)
        (length, unit, meters) = (mi, "mi", mi * 1609.344)
      } else {
        let ft = Self.roundDown(most / 0.3048)
        (length, unit, meters) = (ft, "ft", ft * 0.3048)
      }
    case .nautical:
      let n = Self.roundDown(most / 1852)
      (length, unit, meters) = (n, "nmi", n * 1852)
    }
    let label = "\(number(length, digits: 6)) \(unit)"
    let width = meters / perPixel
    var bar = FurniturePlacement.ScaleBar(
      length: length, units: unit, label: label, widthPixels: width, groundMetersPerPixel: perPixel, position: s.position, color: s.color)
    // Device pixels: the bar, its end ticks, the label centred over it.
    let r = v.pixelRatio
    let block = fonts?.layout(label, font: nil, size: Self.textSize * r, align: .center)
    let textHeight = block?.height ?? 0
    let boxWidth = max(width * r, block?.width ?? 0)
    let boxHeight = (Self.tickHeight + 2) * r + textHeight
    let corner = origin(width: boxWidth, height: boxHeight, at: s.position)
    let x = corner.x + (boxWidth - width * r) / 2
    let bottom = corner.y + boxHeight
    let (t, tick) = (Self.barThickness * r, Self.tickHeight * r)
    for rect in [
      Rect(minX: x, minY: bottom - t, maxX: x + width * r, maxY: bottom), Rect(minX: x, minY: bottom - tick, maxX: x + t, maxY: bottom),
      Rect(minX: x + width * r - t, minY: bottom - tick, maxX: x + width * r, maxY: bottom),
    ] {
      bar.shape.addContour([Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.maxX, rect.maxY), Point(rect.minX, rect.maxY)], closed: true)
    }
    if let block {
      var run = GlyphRun(block: block, origin: Point(corner.x + (boxWidth - block.width) / 2, corner.y), color: s.color, haloColor: .white)
      run.haloWidth = Self.halo * r
      bar.run = run
    }
    return bar
  }

  func northArrow(_ s: NorthArrowSettings) -> FurniturePlacement.NorthArrow? {
    let v = state.viewport
    let here = v.projection.unproject(v.centerMap)
    guard here.lat.isFinite, here.lon.isFinite else { return nil }
    // A step north, or south from the north pole's neighbourhood.
    let step = here.lat + Self.northStep <= 90 ? Self.northStep : -Self.northStep
    let a = v.projection.project(lon: here.lon, lat: here.lat)
    let b = v.projection.project(lon: here.lon, lat: here.lat + step)
    let toward = step > 0 ? 1.0 : -1.0
    let (dx, dy) = ((b.x - a.x) * toward, (b.y - a.y) * toward)
    guard dx.isFinite, dy.isFinite, dx != 0 || dy != 0 else { return nil }
    let angle = atan2(dx, dy)
    var arrow = FurniturePlacement.NorthArrow(angle: angle * 180 / .pi, position: s.position, color: s.color)
    let r = v.pixelRatio
    let size = s.size * r
    let block = fonts?.layout("N", font: nil, size: Self.textSize * r, align: .center)
    let letter = block.map { max($0.width, $0.height) } ?? 0
    // A square box holds the arrow and its letter however it turns.
    let side = size + 2 * (letter + 2 * r)
    let corner = origin(width: side, height: side, at: s.position)
    let centre = Point(corner.x + side / 2, corner.y + side / 2)
    let (sinA, cosA) = (sin(angle), cos(angle))
    /// `p` (y down, the arrow pointing up) turned clockwise by `angle` about the centre.
    func turned(_ p: Point) -> Point { Point(centre.x + p.x * cosA - p.y * sinA, centre.y + p.x * sinA + p.y * cosA) }
    let h = size / 2
    arrow.shape.addContour(
      [Point(0, -h), Point(0.32 * size, h), Point(0, 0.25 * size), Point(-0.32 * size, h)].map(turned), closed: true)
    if let block {
      let at = turned(Point(0, -h - 2 * r - letter / 2))
      var run = GlyphRun(block: block, origin: Point(at.x - block.width / 2, at.y - block.height / 2), color: s.color, haloColor: .white)
      run.haloWidth = Self.halo * r
      arrow.run = run
    }
    return arrow
  }

  /// The top-left corner of a box of `width` × `height` device pixels
  /// `margin` inside the image's `corner` (a bottom-right one above the
  /// attribution line).
  func origin(width: Double, height: Double, at corner: Corner) -> Point {
    let v = state.viewport
    let m = Self.margin * v.pixelRatio
    let (w, h) = (Double(v.deviceWidth), Double(v.deviceHeight))
    switch corner {
    case .topLeft: return Point(m, m)
    case .topRight: return Point(w - m - width, m)
    case .bottomLeft: return Point(m, h - m - height)
    case .bottomRight: return Point(w - m - width, h - m - height - attributionHeight * v.pixelRatio)
    }
  }
}
