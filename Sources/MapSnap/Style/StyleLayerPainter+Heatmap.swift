internal import _MapSnapRaster
internal import _MapSnapStyle

/// Heatmap layers, as MapLibre draws them: every vertex of every feature the
/// filter keeps (points, and the vertices of lines and polygons, as its
/// circle buckets take them) adds a Gaussian kernel of `heatmap-radius`
/// (CSS pixels × pixel ratio) and `heatmap-weight` (both per feature), times
/// `heatmap-intensity`, to one density buffer over the whole frame, a
/// quarter of the frame's device size in each direction (`Heatmap`); each
/// frame pixel is then coloured by `heatmap-color` at its density and drawn
/// with `heatmap-opacity`, as one image over the frame. A vertex in a
/// tile's buffer belongs to the neighbouring tile, which adds it: each point
/// counts once. A GeoJSON source's points repeat in every copy of the world
/// the frame shows.
extension StyleLayerPainter {
  mutating func paintHeatmap(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    let opacity = max(0, min(1, StyleProperty(layer, "heatmap-opacity", zoom: camera.zoom, problems: &problems).number(nil)))
    let intensity = max(0, StyleProperty(layer, "heatmap-intensity", zoom: camera.zoom, problems: &problems).number(nil))
    let radius = StyleProperty(layer, "heatmap-radius", zoom: camera.zoom, problems: &problems)
    let weight = StyleProperty(layer, "heatmap-weight", zoom: camera.zoom, problems: &problems)
    let color = StyleRampProperty(layer, "heatmap-color", zoom: camera.zoom, problems: &problems)
    let width = camera.viewport.deviceWidth, height = camera.viewport.deviceHeight
    let bufferWidth = max(width / Heatmap.downscale, 1), bufferHeight = max(height / Heatmap.downscale, 1)
    // Device pixels to the density buffer's.
    let sx = Double(bufferWidth) / Double(width), sy = Double(bufferHeight) / Double(height)
    let ratio = camera.pixelRatio
    var points: [HeatmapPoint] = []

    func add(_ f: EvaluationFeature, _ device: [Point]) -> Bool {
      guard !device.isEmpty else { return false }
      let r = Float(radius.number(f) * ratio * sx), w = Float(weight.number(f))
      for p in device { points.append(HeatmapPoint(x: Float(p.x * sx), y: Float(p.y * sy), radius: r, weight: w)) }
      return true
    }

    if let features = data.features {
      let shifts = worldShifts()
      for f in features.features {
        let ef = EvaluationFeature(geoJSON: f)
        featuresRead += 1
        guard keeps(ef) else { continue }
        let g = f.geometry
        var metres = g.points
        for l in g.lines { metres += l }
        for poly in g.polygons { for ring in poly { metres += Self.openRing(ring) } }
        var pts: [Point] = []
        pts.reserveCapacity(metres.count * shifts.count)
        for s in shifts { for m in metres { pts.append(camera.device(Point(m.x + s, m.y))) } }
        if add(ef, pts) { featuresDrawn += 1 }
      }
    } else if let sourceLayer = layer.sourceLayer {
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
        let extent = Int64(tileLayer.extent)
        for i in 0..<tileLayer.featureCount {
          featuresRead += 1
          do {
            let feature = try tileLayer.feature(at: i)
            guard feature.kind != .unknown else { continue }
            let ef = try feature.evaluationFeature()
            guard keeps(ef) else { continue }
            try feature.decodeGeometry(into: &geometry)
            var pts: [Point] = []
            for p in geometry.points where p.x >= 0 && p.y >= 0 && Int64(p.x) < extent && Int64(p.y) < extent {
              pts.append(transform.apply(Double(p.x), Double(p.y)))
            }
            if add(ef, pts) { featuresDrawn += 1 }
          } catch {
            problems.append("tile \(tile.id.z)/\(tile.id.wrappedX)/\(tile.id.y): \(error)")
            break
          }
        }
      }
    } else if !data.tiles.isEmpty {
      problems.append("\(layer.path): a layer of a vector source needs \"source-layer\"")
      return
    }
    guard opacity > 0, !points.isEmpty else {
      featuresDrawn = 0
      return
    }
    let density = Heatmap.density(width: bufferWidth, height: bufferHeight, points: points, intensity: Float(intensity))
    let ramp = Heatmap.colorRamp { color.color(heatmapDensity: $0) }
    var pixels = [UInt32](repeating: 0, count: width * height)
    density.withUnsafeBufferPointer { d in
      ramp.withUnsafeBufferPointer { r in
        pixels.withUnsafeMutableBytes { raw in
          Heatmap.colorize(
            density: d, width: bufferWidth, height: bufferHeight, into: raw.bindMemory(to: UInt8.self),
            outWidth: width, outHeight: height, rows: 0..<height, ramp: r, opacity: Float(opacity))
        }
      }
    }
    let image = RasterImage(premultipliedPixels: pixels, width: width, height: height)
    let frame = Rect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height))
    commands.append(StyleDrawCommand(shape: .image(image, frame, opacity: 1), color: Color(r: 0, g: 0, b: 0, a: 0), clip: nil))
  }

  /// The most copies of the world a GeoJSON heatmap draws (a frame 64
  /// worlds wide).
  static let maximumWorldCopies = 64

  /// The east–west shifts (Web Mercator metres) of the copies of the world
  /// the frame shows, one more each side so that kernels reaching in from
  /// beyond the frame's edge count: a point near the antimeridian heats both
  /// sides, as MapLibre's tiles repeat the world.
  private func worldShifts() -> [Double] {
    let w = Double(camera.viewport.deviceWidth), h = Double(camera.viewport.deviceHeight)
    let xs = [(0.0, 0.0), (w, 0), (0, h), (w, h)].map { camera.mercator(ofDevice: Point($0.0, $0.1)).x }
    let half = StyleCamera.halfWorld, span = 2 * half
    let k0 = Int(((xs.min()! + half) / span).rounded(.down)) - 1
    let k1 = max(k0, min(k0 + Self.maximumWorldCopies - 1, Int(((xs.max()! - half) / span).rounded(.up)) + 1))
    return (k0...k1).map { Double($0) * span }
  }

  /// A ring without its closing vertex (the repeat of its first), so that
  /// the first vertex adds its kernel once.
  static func openRing(_ ring: [Point]) -> ArraySlice<Point> {
    if ring.count > 1, let first = ring.first, let last = ring.last, first.x == last.x, first.y == last.y { return ring.dropLast() }
    return ring[...]
  }
}
