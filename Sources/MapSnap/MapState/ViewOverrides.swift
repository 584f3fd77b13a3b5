/// Values that replace the scene's map block, as the CLI's `--scale`,
/// `--zoom`, `--center`, `--size`, `--pixel-ratio` and `--floor` do.
public struct ViewOverrides: Sendable {
  public var scale: Double?
  public var zoom: Double?
  public var center: (lon: Double, lat: Double)?
  public var size: (width: Int, height: Int)?
  public var pixelRatio: Double?
  public var floor: FloorValue?

  public init(scale: Double? = nil, zoom: Double? = nil, center: (lon: Double, lat: Double)? = nil,
              size: (width: Int, height: Int)? = nil, pixelRatio: Double? = nil, floor: FloorValue? = nil) {
    self.scale = scale
    self.zoom = zoom
    self.center = center
    self.size = size
    self.pixelRatio = pixelRatio
    self.floor = floor
  }

  /// The viewport of `scene` with these overrides applied. An override of
  /// `scale` or `zoom` replaces whichever of the two the scene gave.
  /// - Throws: `SceneError` of kind `.noScale` when neither the scene nor
  ///   the overrides give a scale, or `.imageTooLarge` when the output image
  ///   would be too large.
  /// `projection` is the map's spatial reference (`MapResolver.projection`);
  /// zoom levels follow its tiling scheme.
  public func viewport(for scene: Scene, projection: MapProjection = .webMercator) throws(SceneError) -> Viewport {
    let m = scene.map
    let scale: Double
    if let s = self.scale {
      scale = s
    } else if let z = zoom {
      scale = Viewport.scale(forZoom: z, projection: projection)
    } else if let s = m.scale {
      scale = s
    } else if let z = m.zoom {
      scale = Viewport.scale(forZoom: z, projection: projection)
    } else {
      throw SceneError(
        file: scene.file, path: "map.scale", kind: .noScale, expected: "\"scale\" or \"zoom\" in the map block, or --scale / --zoom")
    }
    guard Viewport.scaleRange.contains(scale) else {
      throw SceneError(
        file: scene.file, path: "map.scale", kind: .invalidValue,
        expected: "a scale denominator from 0.000001 to 1e12 (2000 means 1:2000)", found: format(scale))
    }
    let size = self.size ?? m.size
    let ratio = pixelRatio ?? m.pixelRatio
    let v = Viewport(
      center: center ?? m.center, scale: scale, width: size.width, height: size.height, pixelRatio: ratio, dpi: m.dpi,
      projection: projection)
    if v.deviceWidth > SceneDecoder.maxSide || v.deviceHeight > SceneDecoder.maxSide || v.deviceWidth * v.deviceHeight > SceneDecoder.maxPixels {
      throw SceneError(
        file: scene.file, path: "map.size", kind: .imageTooLarge(width: v.deviceWidth, height: v.deviceHeight),
        expected: "an image of at most \(SceneDecoder.maxSide) pixels per side and \(SceneDecoder.maxPixels) pixels in all",
        found: "\(v.deviceWidth)×\(v.deviceHeight) pixels (size × pixelRatio, after command-line overrides)")
    }
    return v
  }
}
