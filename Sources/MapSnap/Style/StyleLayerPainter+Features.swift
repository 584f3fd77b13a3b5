internal import _MapSnapRaster
internal import _MapSnapStyle

extension StyleLayerPainter {
  /// One feature the layer keeps, in one tile: what it is to expressions,
  /// its geometry in the tile's units (`extent` across), the line progress
  /// of each point (a `lineMetrics` GeoJSON line; empty otherwise), where
  /// the tile lands and its square on the frame.
  struct KeptFeature {
    let feature: EvaluationFeature
    let geometry: TileGeometry
    let progress: [Float]
    let transform: TileTransform
    let extent: Int64
    let square: [Point]
  }

  /// Hands `body` every feature of `data` (a GeoJSON source's tiles, or a
  /// vector source's tiles' `source-layer`) whose geometry type the layer
  /// draws and whose filter it keeps, tile by tile. A feature is read once
  /// and drawn once in the counts however many tiles hold a piece of it
  /// (`body` returns whether it drew). A tile's features are decoded once
  /// per frame for all layers (`TileFeatureCache`); a tile that cannot be
  /// read is a problem of the layer and its other tiles are still drawn.
  mutating func forEachKeptFeature(_ data: StyleSourceData, _ body: (inout StyleLayerPainter, KeptFeature) -> Bool) {
    if let geo = data.geoJSON {
      var seen = [UInt8](repeating: 0, count: geo.features.count)
      let extent = Int64(StyleSourceData.GeoJSONTiles.extent)
      for tile in geo.tiles {
        let transform = camera.transform(tile.id, extent: StyleSourceData.GeoJSONTiles.extent)
        for item in tile.features {
          let i = Int(item.feature)
          let ef = geo.features[i]
          if seen[i] == 0 { seen[i] = 1; featuresRead += 1 }
          guard accepts(item.geometry.kind), keeps(ef) else { continue }
          let kept = KeptFeature(feature: ef, geometry: item.geometry, progress: item.progress, transform: transform, extent: extent, square: tile.square)
          if body(&self, kept) && seen[i] == 1 { seen[i] = 2; featuresDrawn += 1 }
        }
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
      let evaluated = tile.evaluated.layer(sourceLayer, count: tileLayer.featureCount)
      for i in 0..<tileLayer.featureCount {
        featuresRead += 1
        do {
          let feature = try tileLayer.feature(at: i)
          guard accepts(feature.kind) else { continue }
          let ef: EvaluationFeature
          if let kept = evaluated.features[i] {
            ef = kept
          } else {
            ef = try feature.evaluationFeature()
            evaluated.features[i] = ef
          }
          guard keeps(ef) else { continue }
          try feature.decodeGeometry(into: &geometry)
          let kept = KeptFeature(feature: ef, geometry: geometry, progress: [], transform: transform, extent: Int64(tileLayer.extent), square: tile.square)
          if body(&self, kept) { featuresDrawn += 1 }
        } catch {
          problems.append("tile \(tile.id.z)/\(tile.id.wrappedX)/\(tile.id.y): \(error)")
          break
        }
      }
    }
  }
}
