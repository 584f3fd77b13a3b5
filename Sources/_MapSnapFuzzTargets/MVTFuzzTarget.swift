import _MapSnapStyle

/// `mvt`: bytes read as a vector tile, gzip'd or not (`Inflate`,
/// `VectorTile`): every layer parsed, every feature's properties and
/// geometry decoded.
public enum MVTFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    do {
      let tile = try VectorTile(bytes: try Inflate.ifCompressed(Array(data), limit: Inflate.tileLimit))
      var geometry = TileGeometry()
      for i in tile.layerNames.indices {
        let layer = try tile.layer(at: i)
        for f in 0..<layer.featureCount {
          let feature = try layer.feature(at: f)
          _ = try feature.evaluationFeature()
          try feature.decodeGeometry(into: &geometry)
        }
      }
      return .accepted
    } catch {
      return .rejected
    }
  }
}
