internal import _MapSnapRaster

/// Fitting the view to a box (scene format 7): the centre is the box's
/// centre in the map's spatial reference, and the scale the smallest (most
/// zoomed-in) at which the box fits inside the image less the padding. A box
/// of zero size (a single point) keeps the given scale; a scale given with
/// the box is kept, and only the centre comes from the box.
enum ViewFit {
  /// The fitted centre (WGS84) and scale (nil for a box of zero size).
  /// - Throws: `SceneError` when the padding leaves no room.
  static func fit(
    _ box: Rect, size: (width: Int, height: Int), padding p: Padding, dpi: Double, projection: MapProjection, file: String
  ) throws(SceneError) -> (center: (lon: Double, lat: Double), scale: Double?) {
    let c = projection.unproject(Point((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2))
    let width = Double(size.width) - p.left - p.right
    let height = Double(size.height) - p.top - p.bottom
    guard width > 0, height > 0 else {
      throw SceneError(
        file: file, path: "map.padding", kind: .invalidValue,
        expected: "padding that leaves room inside the \(size.width)×\(size.height) image",
        found: "\(format(p.top)), \(format(p.right)), \(format(p.bottom)), \(format(p.left))")
    }
    // Map units per logical pixel so that the box just fits.
    let unitsPerPixel = max(box.width / width, box.height / height)
    guard unitsPerPixel > 0, unitsPerPixel.isFinite else { return (c, nil) }
    let scale = unitsPerPixel * projection.metersPerUnit * dpi * Viewport.inchesPerMeter
    return (c, scale)
  }

  /// The bounds, in map units, of the first feature of `layer` whose id is
  /// `id` (the layer's `idField` property, else the GeoJSON `id`; a
  /// graphic's `id`), any geometry.
  /// - Throws: `SceneError` at `fit` when there is no such layer or feature.
  static func featureBounds(
    _ layerID: String, _ id: FloorValue, in scene: Scene, projection: MapProjection, sources: SourceLoader
  ) throws(SceneError) -> Rect {
    func fail(_ expected: String, _ found: String, hint: String? = nil) -> SceneError {
      SceneError(file: scene.file, path: "fit", kind: .invalidValue, expected: expected, found: found, hint: hint)
    }
    guard let layer = scene.layers.first(where: { $0.id == layerID }) else {
      let ids = scene.layers.map(\.id)
      throw fail(
        "the id of a features or graphics layer (\(ids.joined(separator: ", ")))", "\"\(layerID)\"",
        hint: closestMatch(to: layerID, in: ids).map { "did you mean \"\($0)\"?" })
    }
    switch layer.content {
    case .graphics(let graphics):
      if let g = graphics.first(where: { $0.id.map(FloorValue.init) == id }), !g.geometry.isEmpty {
        return g.geometry.projected(to: projection).bounds
      }
    case .features(let source, _):
      guard case .success(let index) = sources.indexed(source, projection: projection) else {
        throw fail("a layer whose source can be read", "layer \"\(layerID)\"")
      }
      // The source's id index lists the features of `id` in feature order.
      let features = index.collection.features
      for p in index.featureIDs(field: layer.idField).positions[id] ?? [] where Int(p) < features.count {
        if !features[Int(p)].geometry.isEmpty { return features[Int(p)].geometry.bounds }
      }
    default:
      throw fail("a features or graphics layer", "layer \"\(layerID)\" (\(layer.kind.rawValue))")
    }
    throw fail("the id of a feature with geometry in layer \"\(layerID)\"", "\"\(id.text)\"")
  }
}
