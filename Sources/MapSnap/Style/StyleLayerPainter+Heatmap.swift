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
/// counts once (a GeoJSON source's tiles repeat the world as vector tiles do).
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

    forEachKeptFeature(data) { _, kept in
      var pts: [Point] = []
      // A point in the tile's buffer is the neighbouring tile's, which adds it.
      for p in kept.geometry.points where p.x >= 0 && p.y >= 0 && Int64(p.x) < kept.extent && Int64(p.y) < kept.extent {
        pts.append(kept.transform.apply(Double(p.x), Double(p.y)))
      }
      return add(kept.feature, pts)
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
}
