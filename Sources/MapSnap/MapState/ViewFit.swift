internal import _MapSnapRaster

/// Fitting the view to a box (scene format 7): the centre is the box's
/// centre in the map's spatial reference, and the scale the smallest (most
/// zoomed-in) at which the box fits inside the image less the padding. A box
/// of zero size (a single point) keeps the given scale. When a scale is
/// kept instead (`ViewFitting` says when), only the centre comes from the box.
enum ViewFit {
  /// The centre of `box` (map units), in WGS84: a fitted view's centre,
  /// whether its scale is fitted or kept.
  static func center(of box: Rect, projection: MapProjection) -> (lon: Double, lat: Double) {
    projection.unproject(Point((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2))
  }

  /// The fitted centre (WGS84) and scale (nil for a box of zero size).
  /// - Throws: `SceneError` when the padding leaves no room.
  static func fit(
    _ box: Rect, size: (width: Int, height: Int), padding p: Padding, dpi: Double, projection: MapProjection, file: String
  ) throws(SceneError) -> (center: (lon: Double, lat: Double), scale: Double?) {
    let c = center(of: box, projection: projection)
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
    let scale = projection.scale(unitsPerPixel: unitsPerPixel, dpi: dpi)
    return (c, scale)
  }

  /// The bounds, in map units, of the first feature of `layer` whose id is
  /// `id` (`FeatureLookup`), any geometry.
  /// - Throws: `SceneError` at `fit` when there is no such layer or feature.
  static func featureBounds(
    _ layerID: String, _ id: FeatureID, in scene: Scene, projection: MapProjection, sources: SourceLoader
  ) throws(SceneError) -> Rect {
    try FeatureLookup.features(layerID, id, in: scene, projection: projection, sources: sources, path: "fit")[0].geometry.bounds
  }
}
