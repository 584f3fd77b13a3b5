/// Values that replace the scene's map block, as the CLI's `--scale`,
/// `--zoom`, `--center`, `--size`, `--pixel-ratio`, `--floor`, `--bounds`,
/// `--padding` and `--fit` do.
public struct ViewOverrides: Sendable {
  public var scale: Double?
  public var zoom: Double?
  public var center: (lon: Double, lat: Double)?
  public var size: (width: Int, height: Int)?
  public var pixelRatio: Double?
  public var floor: FloorValue?
  /// Fit the view to this box (replaces the scene's `bounds` and `center`).
  public var bounds: MapBounds?
  public var padding: Padding?
  /// A style's bearing, degrees clockwise (`--bearing`); a scene's map has none.
  public var bearing: Double?
  /// The reference `center`, `bounds` and markers of these overrides are
  /// given in (`--view-crs`, a manifest line's `viewCrs`); nil: degrees.
  public var viewCrs: String?
  /// Fit the view to one feature's bounds: a layer id and a feature id.
  public var fit: (layer: String, id: FeatureID)?
  /// The most device pixels the frame may have (`FrameSizeLimit`; the CLI's
  /// `--max-pixels`): `FrameSizeLimit.defaultMaxPixels` unless raised, at
  /// most `FrameSizeLimit.absoluteMaxPixels`.
  public var maxPixels: Int

  public init(scale: Double? = nil, zoom: Double? = nil, center: (lon: Double, lat: Double)? = nil,
              size: (width: Int, height: Int)? = nil, pixelRatio: Double? = nil, floor: FloorValue? = nil,
              bounds: MapBounds? = nil, padding: Padding? = nil, fit: (layer: String, id: FeatureID)? = nil,
              maxPixels: Int = FrameSizeLimit.defaultMaxPixels, bearing: Double? = nil, viewCrs: String? = nil) {
    self.bearing = bearing
    self.viewCrs = viewCrs
    self.maxPixels = min(maxPixels, FrameSizeLimit.absoluteMaxPixels)
    self.scale = scale
    self.zoom = zoom
    self.center = center
    self.size = size
    self.pixelRatio = pixelRatio
    self.floor = floor
    self.bounds = bounds
    self.padding = padding
    self.fit = fit
  }

  /// The viewport of `scene` with these overrides applied. An override of
  /// `scale` or `zoom` replaces whichever of the two the scene gave.
  /// - Throws: `SceneError` of kind `.noScale` when neither the scene nor
  ///   the overrides give a scale, or `.imageTooLarge` when the output image
  ///   would be too large.
  /// `projection` is the map's spatial reference (`MapResolver.projection`);
  /// zoom levels follow its tiling scheme.
  public func viewport(for scene: Scene, projection: MapProjection = .webMercator, sources: SourceLoader? = nil) throws(SceneError) -> Viewport {
    let m = scene.map
    var scale: Double
    // The centre in degrees, from the reference it is given in.
    var center: (lon: Double, lat: Double)
    if let c = self.center {
      center = try ViewReference.degrees(c, in: viewCrs, map: projection, scene: scene, path: "center")
    } else {
      center = try ViewReference.degrees(m.center, in: m.viewCrs, map: projection, scene: scene, path: "map.center")
    }
    let size = self.size ?? m.size
    // The scale given (the overrides' before the scene's), if any.
    // A style's zoom is MapLibre's (512-pixel tiles): one less than the scene's.
    func zoomScale(_ zoom: Double, _ path: String) throws(SceneError) -> Double {
      guard let s = Viewport.scale(forZoom: zoom, projection: projection) else {
        throw SceneError(
          file: scene.file, path: path, kind: .invalidValue,
          expected: "\"scale\" (or --scale): \(projection.identifier) has no tile matrix set whose levels a zoom could count",
          found: "zoom \(format(zoom))", hint: "give the scale, such as \"scale\": 5000 for 1:5000")
      }
      return s
    }
    var lineScale = self.scale
    if lineScale == nil, let z = zoom { lineScale = try zoomScale(z + (scene.isStyle ? 1 : 0), "zoom") }
    var given = lineScale ?? m.scale
    if given == nil, let z = m.zoom { given = try zoomScale(z, "map.zoom") }
    // Fitting (section 7, `ViewFitting`): --fit, else --bounds, else the
    // scene's bounds unless --center moves the view.
    var fitting: ViewFitting? = nil
    if let (box, kind) = try fitBox(scene, projection: projection, sources: sources) {
      // A box the overrides give fits the scale unless they give one too;
      // the scene's box only when no scale is given anywhere.
      let keep: Double? = kind == .sceneBounds ? given : lineScale
      if let keep {
        center = ViewFit.center(of: box, projection: projection)
        scale = keep
        fitting = ViewFitting(box: kind, keptBecause: kind == .sceneBounds ? .scaleGiven : .sameLineGivesScale)
      } else {
        let usedPadding = padding ?? m.padding
        let fitted = try ViewFit.fit(box, size: size, padding: usedPadding, dpi: m.dpi, projection: projection, file: scene.file)
        center = fitted.center
        if let s = fitted.scale {
          scale = s
          fitting = ViewFitting(box: kind, padding: usedPadding)
        } else if let s = given {
          scale = s
          fitting = ViewFitting(box: kind, keptBecause: .boxHasNoSize)
        } else {
          throw SceneError(
            file: scene.file, path: "map.scale", kind: .noScale,
            expected: "a scale to fit a single point: \"scale\" or \"zoom\" in the map block, or --scale / --zoom")
        }
      }
    } else if let s = given {
      scale = s
    } else {
      throw SceneError(
        file: scene.file, path: "map.scale", kind: .noScale, expected: "\"scale\" or \"zoom\" in the map block, or --scale / --zoom")
    }
    guard ViewParameter.isScale(scale) else {
      throw SceneError(
        file: scene.file, path: "map.scale", kind: .invalidValue, expected: ViewParameter.scale.expected(.json), found: format(scale))
    }
    let ratio = pixelRatio ?? m.pixelRatio
    var v = Viewport(
      center: center, scale: scale, width: size.width, height: size.height, pixelRatio: ratio, dpi: m.dpi,
      projection: projection)
    v.fitting = fitting
    // A centre the map's reference cannot place draws nothing: an input error.
    guard v.centerMap.x.isFinite, v.centerMap.y.isFinite, center.lon.isFinite, center.lat.isFinite else {
      let path =
        switch fitting?.box {
        case .fit?: "fit"
        case .bounds?: "bounds"
        case .sceneBounds?: "map.bounds"
        case nil: self.center != nil ? "center" : "map.center"
        }
      throw SceneError(
        file: scene.file, path: path, kind: .invalidValue, expected: "a centre that the map's \(projection.identifier) can place",
        found: "\(format(center.lon)), \(format(center.lat))")
    }
    let side = FrameSizeLimit.maxSide
    if v.deviceWidth > side || v.deviceHeight > side || v.deviceWidth * v.deviceHeight > maxPixels {
      throw SceneError(
        file: scene.file, path: "map.size", kind: .imageTooLarge(width: v.deviceWidth, height: v.deviceHeight),
        expected: "an image of at most \(maxPixels) pixels in all and \(side) per side",
        found: "\(v.deviceWidth)×\(v.deviceHeight) pixels (size × pixelRatio, after command-line overrides)",
        hint: maxPixels < FrameSizeLimit.absoluteMaxPixels && v.deviceWidth <= side && v.deviceHeight <= side
          ? "--max-pixels raises the limit, up to \(FrameSizeLimit.absoluteMaxPixels)" : nil)
    }
    return v
  }

  /// The box to fit, in map units, and where it came from; nil when the
  /// view is not fitted.
  private func fitBox(_ scene: Scene, projection: MapProjection, sources: SourceLoader?) throws(SceneError) -> (Rect, ViewFitting.Box)? {
    if let fit {
      return (try ViewFit.featureBounds(fit.layer, fit.id, in: scene, projection: projection, sources: sources ?? SourceLoader()), .fit)
    }
    if let bounds {
      return (try ViewReference.box(bounds, in: viewCrs, map: projection, scene: scene, path: "bounds"), .bounds)
    }
    guard center == nil, let b = scene.map.bounds else { return nil }
    return (try ViewReference.box(b, in: scene.map.viewCrs, map: projection, scene: scene, path: "map.bounds"), .sceneBounds)
  }
}
