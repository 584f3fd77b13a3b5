internal import _MapSnapRaster
internal import _MapSnapStyle

/// Evaluates one style layer over its source's data: which features its
/// filter keeps, their paint, and the draw commands they make, in device
/// pixels. Fill, line, circle and raster layers, `fill-extrusion` roofs,
/// `background`; hillshade and colour relief (`StyleLayerPainter+Terrain`)
/// and heatmap (`StyleLayerPainter+Heatmap`).
struct StyleLayerPainter {
  let layer: StyleLayer
  let kind: StyleLayer.Kind
  let camera: StyleCamera
  var featuresRead = 0
  var featuresDrawn = 0
  /// Features of the geometry types the layer draws that lie in the frame
  /// (`forEachKeptFeature`), kept by the filter or not: none drawn of some
  /// is a layer filtered to nothing, none at all an empty one.
  var featuresInFrame = 0
  /// Warnings: properties that do not compile, a filter that does not.
  var problems: [String] = []
  private(set) var filter: StyleExpression?
  /// What tells the filter's verdicts apart (`TileFeatureCache.Filter`):
  /// its text, and the zoom when it reads the zoom.
  private(set) var filterKey = ""
  private var paint: StylePaint!
  /// A `fill-extrusion` layer's roofs, drawn by `finish`.
  private var roofs: ExtrusionRoofs?
  private var height: StyleProperty?
  /// `line-gradient`, drawn over `lineMetrics` GeoJSON lines.
  private var gradient: StyleLineGradient?
  /// The ids of features view annotations name in this layer, the source's
  /// `promoteId`, and where each drawn one stands (`StyleAnnotatedFeature`).
  var watched: Set<FeatureID> = []
  var promoteId: String?
  private(set) var found: [FeatureID: Point] = [:]

  /// `light` is the style's root `light` (lighting `fill-extrusion` roofs);
  /// `sprite` holds the images patterns name.
  init(layer: StyleLayer, kind: StyleLayer.Kind, camera: StyleCamera, light: JSONValue? = nil, sprite: StyleSprite = StyleSprite()) {
    self.layer = layer
    self.kind = kind
    self.camera = camera
    if kind == .fillExtrusion {
      roofs = ExtrusionRoofs(light: ExtrusionLight(light, zoom: camera.zoom))
      height = StyleProperty(layer, "fill-extrusion-height", zoom: camera.zoom, problems: &problems)
    }
    if let f = layer.filter {
      switch layer.compiled.expression("filter", compile: { StyleFilter.compile(f) }) {
      case .success(let e):
        filter = e
        filterKey = (layer.filterText ?? "") + (e.isZoomConstant ? "" : " at zoom \(camera.zoom)")
      case .failure(let errors):
        let why = errors.errors.map { "\($0.key.isEmpty ? "" : $0.key + ": ")\($0.message)" }.joined(separator: "; ")
        problems.append("\(layer.path).filter: \(why); the filter is ignored")
      }
    }
    paint = StylePaint(
      layer, kind: kind, zoomBearing: (camera.zoom, camera.bearing), sprite: sprite, grid: StylePatternGrid(camera: camera), problems: &problems)
    if kind == .line { gradient = StyleLineGradient(layer, zoom: camera.zoom, problems: &problems) }
  }

  mutating func paintBackground(into commands: inout [StyleDrawCommand]) {
    if paint.background(into: &commands) { featuresDrawn = 1 }
    noteMissingImages()
  }

  /// A warning naming the images the layer's pattern named that the sprite lacks.
  private mutating func noteMissingImages() {
    let names = paint.missingImages
    guard !names.isEmpty else { return }
    problems.append(Self.missingImages(names, layer: layer.path, icons: false))
  }

  /// The problem of a layer whose features name images the sprite lacks:
  /// the first five names, how many more, and what is not drawn (the
  /// features of a pattern, or a symbol layer's icons).
  static func missingImages(_ names: [String], layer path: String, icons: Bool) -> String {
    let shown = names.prefix(5).map { Echo.quoted($0) }.joined(separator: ", ") + (names.count > 5 ? " (and \(names.count - 5) more)" : "")
    let them = names.count == 1 ? "it" : "them"
    return "\(path): the sprite has no image \(shown); " + (icons ? "the icons that name \(them) are not drawn" : "what names \(them) is not drawn")
  }

  /// Paints every feature of `data` the layer selects.
  mutating func paint(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    defer { noteMissingImages() }
    switch kind {
    case .raster:
      paintRaster(data, into: &commands)
    case .hillshade:
      paintHillshade(data, into: &commands)
    case .colorRelief:
      paintColorRelief(data, into: &commands)
    case .heatmap:
      paintHeatmap(data, into: &commands)
    default:
      paintFeatures(data, into: &commands)
      return
    }
    // Pictures and elevation tiles are not culled: what was read was in the frame.
    featuresInFrame = max(featuresInFrame, featuresRead)
  }

  /// Fill, line, circle and `fill-extrusion` layers: each kept feature's commands.
  private mutating func paintFeatures(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    forEachKeptFeature(data, reach: watched.isEmpty ? paint.reach(ratio: camera.pixelRatio) : nil) { painter, kept in
      let drew: Bool
      if let gradient = painter.gradient, !kept.progress.isEmpty {
        drew = gradient.draw(
          kept.feature, kept.geometry, progress: kept.progress, transform: kept.transform, clip: kept.square, paint: painter.paint,
          ratio: painter.camera.pixelRatio, into: &commands)
      } else {
        drew = painter.emit(kept.feature, tile: kept.geometry, extent: kept.extent, transform: kept.transform, clip: kept.square, into: &commands)
      }
      if drew, !painter.watched.isEmpty { painter.noteWatched(kept) }
      return drew
    }
  }

  /// Records where a drawn feature a view annotation names stands (the first piece drawn).
  private mutating func noteWatched(_ kept: KeptFeature) {
    guard let id = StyleAnnotatedFeature.id(of: kept.feature, promoteId: promoteId), watched.contains(id), found[id] == nil else { return }
    found[id] = StyleAnnotatedFeature.position(kept)
  }

  /// Adds what the layer gathers over all its features (`fill-extrusion`
  /// roofs, ordered by height) once every feature is painted.
  func finish(into commands: inout [StyleDrawCommand]) {
    roofs?.commands(opacity: paint.opacity.number(nil), into: &commands)
  }

  /// A feature's roof (`ExtrusionRoofs`); true: every polygon has one.
  private mutating func addRoof(_ f: EvaluationFeature, path: Path, clip: [Point]?) -> Bool {
    guard case .color(let c) = paint.color.value(f), let height else { return false }
    var moved = path
    let d = paint.shift(f, ratio: camera.pixelRatio)
    if d.x != 0 || d.y != 0 { for i in moved.points.indices { moved.points[i] = Point(moved.points[i].x + d.x, moved.points[i].y + d.y) } }
    roofs?.add(moved, height: height.number(f), color: c, clip: clip)
    return true
  }

  /// A raster layer: each tile's pixels through the layer's colour
  /// adjustments (`RasterPaint`), laid over its corners on the frame by
  /// `ImageWarp` (as the GPU samples a tile: `raster-resampling` `linear`
  /// or `nearest`, under any bearing) with `raster-opacity`.
  private mutating func paintRaster(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    let opacity = max(0, min(1, paint.opacity.number(nil)))
    let adjust = RasterPaint(
      opacity: 1, hueRotate: paint.raster("raster-hue-rotate"), brightnessMin: paint.raster("raster-brightness-min"),
      brightnessMax: paint.raster("raster-brightness-max"), saturation: paint.raster("raster-saturation"),
      contrast: paint.raster("raster-contrast"))
    let resampling = RasterResampling(rawValue: StyleProperty(layer, "raster-resampling", zoom: camera.zoom, problems: &problems).string(nil) ?? "") ?? .linear
    let viewport = camera.viewport
    for p in data.pictures {
      featuresRead += 1
      guard opacity > 0 else { continue }
      var px = p.image.pixels
      px.withUnsafeMutableBufferPointer { b in
        for i in stride(from: 0, to: b.count, by: 4) {
          let a = UInt32(b[i + 3])
          b[i] = UInt8((UInt32(b[i]) * a + 127) / 255)
          b[i + 1] = UInt8((UInt32(b[i + 1]) * a + 127) / 255)
          b[i + 2] = UInt8((UInt32(b[i + 2]) * a + 127) / 255)
        }
        adjust.apply(to: b)
      }
      var texels = [UInt32](repeating: 0, count: p.image.width * p.image.height)
      px.withUnsafeBytes { src in texels.withUnsafeMutableBytes { $0.copyMemory(from: src) } }
      guard
        let warped = ImageWarp.warp(
          texels, width: p.image.width, height: p.image.height, corners: p.corners, frameWidth: viewport.deviceWidth,
          frameHeight: viewport.deviceHeight, resampling: resampling)
      else { continue }
      commands.append(StyleDrawCommand(shape: .image(warped.image, warped.rect, opacity: opacity), color: Color(r: 0, g: 0, b: 0, a: 0), clip: nil))
      featuresDrawn += 1
    }
  }

  /// Winds every polygon's exterior ring one way and its holes the other
  /// (positive and negative area in device pixels), so that areas fill
  /// nonzero: a feature's holes stay open, and the areas of one colour join
  /// into one shape without seams where they meet (`StylePaint.append`).
  /// `polygonEnds[i]` is where polygon i's rings end (its first ring is the
  /// exterior).
  static func orient(_ path: inout Path, exteriorsFrom polygonEnds: [Int32]) {
    var start = 0
    for end in polygonEnds {
      for ci in start..<min(Int(end), path.contours.count) {
        let c = path.contours[ci]
        var area = 0.0
        let pts = path.points
        var j = c.start + c.count - 1
        for i in c.start..<(c.start + c.count) {
          area += pts[j].x * pts[i].y - pts[i].x * pts[j].y
          j = i
        }
        if (ci == start) != (area > 0) { path.points[c.start..<(c.start + c.count)].reverse() }
      }
      start = Int(end)
    }
  }

  /// Whether the layer type draws features of geometry type `k`: fills
  /// polygons, lines lines and polygons' rings, circles every point.
  func accepts(_ k: GeometryKind) -> Bool {
    switch kind {
    case .fill, .fillExtrusion: return k == .polygon
    case .line: return k == .lineString || k == .polygon
    default: return k != .unknown
    }
  }

  func keeps(_ f: EvaluationFeature) -> Bool {
    guard let filter else { return true }
    return filter.evaluate(EvaluationContext(zoom: camera.zoom), f) == .bool(true)
  }

  /// Emits one tile feature; true when it drew something.
  private mutating func emit(
    _ f: EvaluationFeature, tile g: TileGeometry, extent: Int64, transform t: TileTransform, clip: [Point], into commands: inout [StyleDrawCommand]
  ) -> Bool {
    if kind == .circle {
      // A point in the tile's buffer belongs to the neighbouring tile,
      // which draws it: drawn once, as MapLibre's circle buckets keep only
      // points inside their tile.
      var points: [Point] = []
      points.reserveCapacity(g.points.count)
      for p in g.points where p.x >= 0 && p.y >= 0 && Int64(p.x) < extent && Int64(p.y) < extent {
        points.append(t.apply(Double(p.x), Double(p.y)))
      }
      return paint.circles(f, points: points, ratio: camera.pixelRatio, into: &commands)
    }
    var path = Path()
    path.points.reserveCapacity(g.points.count)
    for part in 0..<g.partCount {
      path.addContour(g.part(part).lazy.map { t.apply(Double($0.x), Double($0.y)) }, closed: g.kind == .polygon)
    }
    if g.kind == .polygon && (kind == .fill || kind == .fillExtrusion) { Self.orient(&path, exteriorsFrom: g.polygonEnds) }
    if kind == .fillExtrusion { return addRoof(f, path: path, clip: clip) }
    return paint.shape(f, path: path, isPolygon: g.kind == .polygon, clip: clip, ratio: camera.pixelRatio, into: &commands)
  }
}
