internal import _MapSnapRaster
internal import _MapSnapStyle

/// Evaluates one style layer over its source's data: which features its
/// filter keeps, their paint, and the draw commands they make, in device
/// pixels. Fill, line, circle and raster layers, `fill-extrusion` roofs;
/// `background`.
struct StyleLayerPainter {
  let layer: StyleLayer
  let kind: StyleLayer.Kind
  let camera: StyleCamera
  private(set) var featuresRead = 0
  private(set) var featuresDrawn = 0
  /// Warnings: properties that do not compile, a filter that does not.
  var problems: [String] = []
  private var filter: StyleExpression?
  private var paint: StylePaint!
  /// A `fill-extrusion` layer's roofs, drawn by `finish`.
  private var roofs: ExtrusionRoofs?
  private var height: StyleProperty?

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
      switch StyleFilter.compile(f) {
      case .success(let e): filter = e
      case .failure(let errors):
        let why = errors.errors.map { "\($0.key.isEmpty ? "" : $0.key + ": ")\($0.message)" }.joined(separator: "; ")
        problems.append("\(layer.path).filter: \(why); the filter is ignored")
      }
    }
    paint = StylePaint(
      layer, kind: kind, zoomBearing: (camera.zoom, camera.bearing), sprite: sprite, grid: StylePatternGrid(camera: camera), problems: &problems)
  }

  mutating func paintBackground(into commands: inout [StyleDrawCommand]) {
    if paint.background(into: &commands) { featuresDrawn = 1 }
    noteMissingImages()
  }

  /// A warning naming the images the layer's pattern named that the sprite lacks.
  private mutating func noteMissingImages() {
    let names = paint.missingImages
    guard !names.isEmpty else { return }
    let shown = names.prefix(5).map { Echo.quoted($0) }.joined(separator: ", ") + (names.count > 5 ? " (and \(names.count - 5) more)" : "")
    problems.append("\(layer.path): the sprite has no image \(shown); what names \(names.count == 1 ? "it" : "them") is not drawn")
  }

  /// Paints every feature of `data` the layer selects.
  mutating func paint(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    defer { noteMissingImages() }
    if kind == .raster {
      paintRaster(data, into: &commands)
      return
    }
    if let features = data.features {
      for f in features.features {
        let ef = EvaluationFeature(geoJSON: f)
        featuresRead += 1
        guard keeps(ef) else { continue }
        if emit(ef, geometry: f.geometry, into: &commands) { featuresDrawn += 1 }
      }
      return
    }
    guard let sourceLayer = layer.sourceLayer else {
      problems.append("\(layer.path): a layer of a vector source needs \"source-layer\"")
      return
    }
    var geometry = TileGeometry()
    for tile in data.tiles {
      let tileLayer: VectorTileLayer?
      do {
        tileLayer = try tile.tile.layer(named: sourceLayer)
      } catch {
        problems.append("tile \(tile.id.z)/\(tile.id.wrappedX)/\(tile.id.y): layer \(Echo.quoted(sourceLayer)): \(error)")
        continue
      }
      guard let tileLayer else { continue }
      let transform = camera.transform(tile.id, extent: Double(tileLayer.extent))
      for i in 0..<tileLayer.featureCount {
        featuresRead += 1
        do {
          let feature = try tileLayer.feature(at: i)
          guard accepts(feature.kind) else { continue }
          let ef = try feature.evaluationFeature()
          guard keeps(ef) else { continue }
          try feature.decodeGeometry(into: &geometry)
          if emit(ef, tile: geometry, extent: Int64(tileLayer.extent), transform: transform, clip: tile.square, into: &commands) { featuresDrawn += 1 }
        } catch {
          problems.append("tile \(tile.id.z)/\(tile.id.wrappedX)/\(tile.id.y): \(error)")
          break
        }
      }
    }
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
  /// adjustments (`RasterPaint`), drawn over its square with `raster-opacity`.
  private mutating func paintRaster(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    let opacity = max(0, min(1, paint.opacity.number(nil)))
    let adjust = RasterPaint(
      opacity: 1, hueRotate: paint.raster("raster-hue-rotate"), brightnessMin: paint.raster("raster-brightness-min"),
      brightnessMax: paint.raster("raster-brightness-max"), saturation: paint.raster("raster-saturation"),
      contrast: paint.raster("raster-contrast"))
    for p in data.pictures {
      featuresRead += 1
      guard opacity > 0 else { continue }
      let image: RasterImage
      if adjust.isIdentity {
        image = RasterImage(straightRGBA: p.image.pixels, width: p.image.width, height: p.image.height)
      } else {
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
        var packed = [UInt32](repeating: 0, count: p.image.width * p.image.height)
        px.withUnsafeBytes { src in packed.withUnsafeMutableBytes { $0.copyMemory(from: src) } }
        image = RasterImage(premultipliedPixels: packed, width: p.image.width, height: p.image.height)
      }
      commands.append(StyleDrawCommand(shape: .image(image, p.rect, opacity: opacity), color: Color(r: 0, g: 0, b: 0, a: 0), clip: nil))
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
  private func accepts(_ k: GeometryKind) -> Bool {
    switch kind {
    case .fill, .fillExtrusion: return k == .polygon
    case .line: return k == .lineString || k == .polygon
    default: return k != .unknown
    }
  }

  private func keeps(_ f: EvaluationFeature) -> Bool {
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
    for part in 0..<g.partCount {
      let pts = g.part(part)
      path.addContour(pts.map { t.apply(Double($0.x), Double($0.y)) }, closed: g.kind == .polygon)
    }
    if g.kind == .polygon && (kind == .fill || kind == .fillExtrusion) { Self.orient(&path, exteriorsFrom: g.polygonEnds) }
    if kind == .fillExtrusion { return addRoof(f, path: path, clip: clip) }
    return paint.shape(f, path: path, isPolygon: g.kind == .polygon, clip: clip, ratio: camera.pixelRatio, into: &commands)
  }

  /// Emits one GeoJSON feature (Web Mercator metres); true when it drew something.
  private mutating func emit(_ f: EvaluationFeature, geometry g: Geometry, into commands: inout [StyleDrawCommand]) -> Bool {
    switch kind {
    case .circle:
      var pts = g.points.map(camera.device)
      for l in g.lines { pts += l.map(camera.device) }
      for poly in g.polygons { for r in poly { pts += r.map(camera.device) } }
      return paint.circles(f, points: pts, ratio: camera.pixelRatio, into: &commands)
    case .fill, .fillExtrusion:
      guard !g.polygons.isEmpty else { return false }
      var path = Path()
      var ends: [Int32] = []
      for poly in g.polygons {
        for r in poly { path.addContour(r.map(camera.device), closed: true) }
        ends.append(Int32(path.contours.count))
      }
      Self.orient(&path, exteriorsFrom: ends)
      if kind == .fillExtrusion { return addRoof(f, path: path, clip: nil) }
      return paint.shape(f, path: path, isPolygon: true, clip: nil, ratio: camera.pixelRatio, into: &commands)
    default:
      var path = Path()
      for l in g.lines { path.addContour(l.map(camera.device), closed: false) }
      for poly in g.polygons { for r in poly { path.addContour(r.map(camera.device), closed: true) } }
      guard !path.isEmpty else { return false }
      return paint.shape(f, path: path, isPolygon: !g.polygons.isEmpty, clip: nil, ratio: camera.pixelRatio, into: &commands)
    }
  }
}
