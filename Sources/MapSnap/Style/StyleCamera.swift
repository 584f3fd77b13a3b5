internal import _MapSnapRaster
internal import _MapSnapStyle

#if canImport(Glibc)
  import Glibc
#endif

/// A style's camera over a frame: the scene viewport (centre, scale, size,
/// pixel ratio) turned by `bearing` about the frame's centre. Maps tile
/// coordinates to device pixels and lists the tiles a source draws.
///
/// Zoom: MapLibre's zoom counts 512-pixel tiles, one less than the scene
/// format's 256-pixel zoom for the same ground resolution: `zoom` is the
/// viewport's zoom − 1.
struct StyleCamera: Sendable {
  let viewport: Viewport
  /// Degrees clockwise from north of the frame's up direction.
  let bearing: Double
  private let cosB: Double
  private let sinB: Double

  /// Half the Web Mercator world's width in metres (π · 6378137).
  static let halfWorld = 20_037_508.342789244

  /// The most tiles one source draws in a frame: a 16384² frame at a
  /// fractional zoom needs (16384 / 512 + 2)² ≈ 1,156 tiles, so this refuses
  /// only what no frame needs (a view tilted off the world).
  static let maximumTiles = 4096

  init(viewport: Viewport, bearing: Double) {
    self.viewport = viewport
    self.bearing = bearing
    let r = bearing * .pi / 180
    cosB = cos(r)
    sinB = sin(r)
  }

  /// MapLibre's zoom (a style is drawn on Web Mercator maps only).
  var zoom: Double { log2(Viewport.zoom0Scale / viewport.scale) - 1 }

  /// Device pixels per CSS pixel.
  var pixelRatio: Double { viewport.pixelRatio }

  /// The device point of Web Mercator point `m` (metres).
  func device(_ m: Point) -> Point {
    rotate(viewport.toDevice(m))
  }

  /// The Web Mercator point (metres) under device point `p`: `device` undone.
  func mercator(_ p: Point) -> Point {
    let cx = Double(viewport.deviceWidth) / 2, cy = Double(viewport.deviceHeight) / 2
    var x = p.x - cx, y = p.y - cy
    if bearing != 0 { (x, y) = (x * cosB - y * sinB, x * sinB + y * cosB) }
    let k = viewport.pixelsPerUnit
    return Point(x / k + viewport.centerMap.x, viewport.centerMap.y - y / k)
  }

  /// Turns a device point of the unrotated frame about the frame's centre.
  private func rotate(_ p: Point) -> Point {
    guard bearing != 0 else { return p }
    let cx = Double(viewport.deviceWidth) / 2, cy = Double(viewport.deviceHeight) / 2
    let x = p.x - cx, y = p.y - cy
    return Point(x * cosB + y * sinB + cx, -x * sinB + y * cosB + cy)
  }

  /// The affine map from tile `id`'s coordinates (0…`extent` across the
  /// tile, y down) to device pixels.
  func transform(_ id: StyleTileID, extent: Double) -> TileTransform {
    let span = 2 * Self.halfWorld / Double(1 << id.z)
    let k = viewport.pixelsPerUnit
    let unit = span / extent * k
    let origin = viewport.toDevice(Point(-Self.halfWorld + Double(id.x) * span, Self.halfWorld - Double(id.y) * span))
    // Device = rotate(origin + unit · (px, py)).
    let o = rotate(origin)
    if bearing == 0 { return TileTransform(a: unit, b: 0, c: 0, d: unit, tx: o.x, ty: o.y) }
    return TileTransform(a: unit * cosB, b: -unit * sinB, c: unit * sinB, d: unit * cosB, tx: o.x, ty: o.y)
  }

  /// The box, in the coordinates of the tile `t` maps, that holds the whole
  /// frame grown by `margin` device pixels on every side: a feature whose
  /// geometry lies outside it cannot mark the frame when it draws no
  /// farther than `margin` from its geometry. Under a bearing it is the box
  /// of the turned frame.
  func window(_ t: TileTransform, margin: Double) -> TileBox {
    let det = t.a * t.d - t.b * t.c
    guard det != 0, det.isFinite, margin.isFinite else { return TileBox(minX: .min, minY: .min, maxX: .max, maxY: .max) }
    let x0 = -margin, y0 = -margin, x1 = Double(viewport.deviceWidth) + margin, y1 = Double(viewport.deviceHeight) + margin
    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
    for (px, py) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
      let dx = px - t.tx, dy = py - t.ty
      let x = (t.d * dx - t.c * dy) / det, y = (-t.b * dx + t.a * dy) / det
      minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
    }
    // Widened to whole units and held within Int32.
    func clamp(_ v: Double) -> Int32 { Int32(max(Double(Int32.min), min(Double(Int32.max), v))) }
    return TileBox(minX: clamp(minX.rounded(.down) - 1), minY: clamp(minY.rounded(.down) - 1), maxX: clamp(maxX.rounded(.up) + 1), maxY: clamp(maxY.rounded(.up) + 1))
  }

  /// The tiles of zoom `z` the frame shows, row by row from the north-west;
  /// columns beyond the world's are copies of it (`wrappedX`). Tiles outside
  /// `bounds` (degrees) are left out. Nil when more than `maximumTiles`.
  func coveringTiles(zoom z: Int, bounds: (west: Double, south: Double, east: Double, north: Double)) -> [StyleTileID]? {
    let n = Double(1 << z)
    let span = 2 * Self.halfWorld / n
    let w = Double(viewport.deviceWidth), h = Double(viewport.deviceHeight)
    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
    for (dx, dy) in [(0.0, 0.0), (w, 0), (0, h), (w, h)] {
      let m = mercator(ofDevice: Point(dx, dy))
      let tx = (m.x + Self.halfWorld) / span, ty = (Self.halfWorld - m.y) / span
      minX = min(minX, tx); maxX = max(maxX, tx); minY = min(minY, ty); maxY = max(maxY, ty)
    }
    let sw = WebMercator.project(lon: max(-180, bounds.west), lat: max(-85.051129, bounds.south))
    let ne = WebMercator.project(lon: min(180, bounds.east), lat: min(85.051129, bounds.north))
    let bx0 = Int(((sw.x + Self.halfWorld) / span).rounded(.down)), bx1 = Int(((ne.x + Self.halfWorld) / span).rounded(.up)) - 1
    let by0 = Int(((Self.halfWorld - ne.y) / span).rounded(.down)), by1 = Int(((Self.halfWorld - sw.y) / span).rounded(.up)) - 1
    let x0 = Int(minX.rounded(.down)), x1 = Int(maxX.rounded(.up)) - 1
    let y0 = max(0, Int(minY.rounded(.down))), y1 = min(Int(n) - 1, Int(maxY.rounded(.up)) - 1)
    guard x1 >= x0, y1 >= y0 else { return [] }
    guard (x1 - x0 + 1) * (y1 - y0 + 1) <= Self.maximumTiles else { return nil }
    var out: [StyleTileID] = []
    for y in y0...y1 where y >= by0 && y <= by1 {
      for x in x0...x1 {
        let wrapped = ((x % Int(n)) + Int(n)) % Int(n)
        guard wrapped >= bx0 && wrapped <= bx1 else { continue }
        out.append(StyleTileID(z: z, x: x, y: y))
      }
    }
    return out
  }

  /// The Web Mercator point under device point `p`.
  func mercator(ofDevice p: Point) -> Point {
    let cx = Double(viewport.deviceWidth) / 2, cy = Double(viewport.deviceHeight) / 2
    var x = p.x - cx, y = p.y - cy
    if bearing != 0 { (x, y) = (x * cosB - y * sinB, x * sinB + y * cosB) }
    let k = viewport.pixelsPerUnit
    return Point(viewport.centerMap.x + x / k, viewport.centerMap.y - y / k)
  }
}

/// A tile of a style source: zoom, column (beyond 0..<2^z for copies of the
/// world) and row from the north.
struct StyleTileID: Sendable, Hashable, Comparable {
  let z: Int
  let x: Int
  let y: Int

  /// The column within the world.
  var wrappedX: Int { let n = 1 << z; return ((x % n) + n) % n }

  static func < (a: StyleTileID, b: StyleTileID) -> Bool { (a.z, a.y, a.x) < (b.z, b.y, b.x) }
}

/// `device = (a·x + c·y + tx, b·x + d·y + ty)`.
struct TileTransform: Sendable {
  let a, b, c, d, tx, ty: Double

  @inline(__always) func apply(_ x: Double, _ y: Double) -> Point {
    Point(a * x + c * y + tx, b * x + d * y + ty)
  }
}
