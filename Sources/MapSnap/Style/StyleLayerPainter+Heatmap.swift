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

    if let geo = data.geoJSON {
      // Features are counted once each, however many tiles hold a piece of them.
      var seen = [UInt8](repeating: 0, count: geo.features.count)
      let extent = Int64(StyleSourceData.GeoJSONTiles.extent)
      for tile in geo.tiles {
        let transform = camera.transform(tile.id, extent: StyleSourceData.GeoJSONTiles.extent)
        for item in tile.features {
          let i = Int(item.feature)
          let ef = geo.features[i]
          if seen[i] == 0 { seen[i] = 1; featuresRead += 1 }
          guard item.geometry.kind != .unknown, keeps(ef) else { continue }
          var pts: [Point] = []
          for p in item.geometry.points where p.x >= 0 && p.y >= 0 && Int64(p.x) < extent && Int64(p.y) < extent {
            pts.append(transform.apply(Double(p.x), Double(p.y)))
          }
          if add(ef, pts) && seen[i] == 1 { seen[i] = 2; featuresDrawn += 1 }
        }
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
}
