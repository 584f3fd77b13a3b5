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
  /// (`body` returns whether it drew). What a vector tile's features are
  /// (properties, boxes, filter verdicts) is learned once for all layers
  /// and the frames after (`TileFeatureCache`); a tile that cannot be read
  /// is a problem of the layer and its other tiles are still drawn.
  ///
  /// With a `reach` (how far the layer draws from a feature's geometry, in
  /// device pixels: `StylePaint.reach`), a feature whose geometry lies
  /// farther than that outside the frame is read but not handed on: it
  /// could not mark the frame, and is not counted as drawn, nor in
  /// `featuresInFrame` (the features of the layer's geometry types that
  /// the filter was asked about).
  mutating func forEachKeptFeature(_ data: StyleSourceData, reach: Double? = nil, _ body: (inout StyleLayerPainter, KeptFeature) -> Bool) {
    if let geo = data.geoJSON {
      var seen = [UInt8](repeating: 0, count: geo.features.count)
      let extent = Int64(StyleSourceData.GeoJSONTiles.extent)
      for tile in geo.tiles {
        let transform = camera.transform(tile.id, extent: StyleSourceData.GeoJSONTiles.extent)
        let window = reach.map { camera.window(transform, margin: $0) }
        for item in tile.features {
          let i = Int(item.feature)
          let ef = geo.features[i]
          if seen[i] == 0 { seen[i] = 1; featuresRead += 1 }
          guard accepts(item.geometry.kind) else { continue }
          if let window, !window.intersects(item.geometry.bounds) { continue }
          featuresInFrame += 1
          guard keeps(ef) else { continue }
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
    let painter = self
    let filter = self.filter.map { _ in TileFeatureCache.Filter(key: filterKey) { painter.keeps($0) } }
    for tile in data.tiles {
      let tileLayer: VectorTileLayer?
      do {
        tileLayer = try tile.tile.layer(named: sourceLayer)
      } catch {
        problems.append("tile \(tile.id.z)/\(tile.id.wrappedX)/\(tile.id.y): layer \(Echo.quoted(sourceLayer)): \(error)")
        continue
      }
      guard let tileLayer else { continue }
      featuresRead += tileLayer.featureCount
      let transform = camera.transform(tile.id, extent: Double(tileLayer.extent))
      let window = reach.map { camera.window(transform, margin: $0) }
      let selection = tile.features.select(tileLayer, window: window, accepts: { painter.accepts($0) }, filter: filter)
      featuresInFrame += selection.inWindow
      var failure = selection.error
      for (i, ef) in selection.kept {
        do throws(VectorTileError) {
          try tileLayer.feature(at: i).decodeGeometry(into: &geometry)
        } catch {
          failure = failure ?? error
          break
        }
        let kept = KeptFeature(feature: ef, geometry: geometry, progress: [], transform: transform, extent: Int64(tileLayer.extent), square: tile.square)
        if body(&self, kept) { featuresDrawn += 1 }
      }
      if let failure { problems.append("tile \(tile.id.z)/\(tile.id.wrappedX)/\(tile.id.y): \(failure)") }
    }
  }
}
