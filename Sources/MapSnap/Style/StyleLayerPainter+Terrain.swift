internal import _MapSnapRaster
internal import _MapSnapStyle

/// Hillshade and colour-relief layers: each tile of their raster-dem source
/// becomes one image (the kernel's premultiplied pixels, `Hillshade`,
/// `ColorRelief`) drawn over the tile's square, turned with the map. The
/// layer's paint is evaluated at the frame's zoom; a tile is a feature of
/// the layer's record (read, and drawn when its image is emitted).
extension StyleLayerPainter {
  /// Whether `data` is a raster-dem source's; a problem of the layer otherwise.
  private mutating func needsDEM(_ data: StyleSourceData) -> Bool {
    if data.record.type == "raster-dem" { return true }
    problems.append("\(layer.path): a \(layer.typeName) layer draws a raster-dem source, not a \(data.record.type) one")
    return false
  }

  /// A paint property at the frame's zoom.
  private mutating func property(_ name: String) -> StyleProperty {
    StyleProperty(layer, name, zoom: camera.zoom, problems: &problems)
  }

  /// The hillshade of the layer's paint: `hillshade-method`,
  /// `hillshade-exaggeration`, `hillshade-accent-color`, and one light per
  /// member of the longest of `hillshade-illumination-direction`,
  /// `-altitude`, `hillshade-shadow-color` and `hillshade-highlight-color`
  /// (shorter ones repeat their last member, as MapLibre pads them). With
  /// `hillshade-illumination-anchor` `viewport` (the default) the light's
  /// direction is measured from the top of the frame, so the camera's
  /// bearing is added to it; with `map`, from north.
  mutating func hillshade() -> Hillshade {
    func numbers(_ v: StyleValue) -> [Double] {
      switch v {
      case .number(let n): return [n]
      case .numberArray(let a): return a
      case .array(let a): return a.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
      default: return []
      }
    }
    func colors(_ v: StyleValue) -> [(r: Double, g: Double, b: Double, a: Double)] {
      switch v {
      case .color(let c): return [(c.r, c.g, c.b, c.a)]
      case .colorArray(let a): return a.map { ($0.r, $0.g, $0.b, $0.a) }
      default: return []
      }
    }
    var h = Hillshade()
    h.method = property("hillshade-method").string(nil).flatMap(HillshadeMethod.init(rawValue:)) ?? .standard
    h.exaggeration = property("hillshade-exaggeration").number(nil)
    h.accent = colors(property("hillshade-accent-color").value(nil)).first ?? (0, 0, 0, 1)
    let directions = numbers(property("hillshade-illumination-direction").value(nil))
    let altitudes = numbers(property("hillshade-illumination-altitude").value(nil))
    let shadows = colors(property("hillshade-shadow-color").value(nil))
    let highlights = colors(property("hillshade-highlight-color").value(nil))
    let turn = property("hillshade-illumination-anchor").string(nil) == "map" ? 0 : camera.bearing
    let count = max(1, directions.count, altitudes.count, shadows.count, highlights.count)
    func at<T>(_ a: [T], _ i: Int, _ fallback: T) -> T { a.isEmpty ? fallback : a[min(i, a.count - 1)] }
    h.lights = (0..<count).map { i in
      HillshadeLight(
        azimuth: (at(directions, i, 335) + turn) * .pi / 180, altitude: at(altitudes, i, 45) * .pi / 180,
        shadow: at(shadows, i, (0, 0, 0, 1)), highlight: at(highlights, i, (1, 1, 1, 1)))
    }
    return h
  }

  /// A hillshade layer: every DEM tile shaded (`Hillshade.shade`) at its
  /// own zoom, which sets the size of its pixels (an overzoomed tile keeps
  /// its slopes, as MapLibre GL JS prepares a raster-dem tile at its own
  /// zoom), with its latitudes undoing the Mercator stretch.
  mutating func paintHillshade(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    guard needsDEM(data) else { return }
    let shading = hillshade()
    // Copies of the world share their tile's pixels.
    var shaded: [StyleTileID: [UInt8]] = [:]
    for t in data.dems {
      featuresRead += 1
      let key = StyleTileID(z: t.id.z, x: t.id.wrappedX, y: t.id.y)
      let pixels = shaded[key] ?? shading.shade(dem: t.dem, zoom: Double(t.id.z), latitudes: t.latitudes)
      shaded[key] = pixels
      if emit(pixels, over: t, into: &commands) { featuresDrawn += 1 }
    }
  }

  /// The number of evenly spaced elevations a `color-relief-color` that is
  /// not an interpolation of elevation is sampled at, between the lowest
  /// and highest elevation of the frame's tiles.
  static let colorReliefSamples = 256

  /// A colour-relief layer: every DEM pixel coloured by `color-relief-color`
  /// at its elevation (`ColorRelief`), times `color-relief-opacity`. The
  /// ramp is the stops of the colour's `interpolate` on elevation, linear
  /// between them, as MapLibre builds it; any other expression is sampled
  /// (`colorReliefSamples`) over the frame's elevations.
  mutating func paintColorRelief(_ data: StyleSourceData, into commands: inout [StyleDrawCommand]) {
    guard needsDEM(data) else { return }
    let opacity = max(0, min(1, property("color-relief-opacity").number(nil)))
    let color = StyleRampProperty(layer, "color-relief-color", zoom: camera.zoom, problems: &problems)
    guard let ramp = colorReliefRamp(color, data.dems) else {
      featuresRead += data.dems.count
      return
    }
    var relief: [StyleTileID: [UInt8]] = [:]
    for t in data.dems {
      featuresRead += 1
      guard opacity > 0 else { continue }
      let key = StyleTileID(z: t.id.z, x: t.id.wrappedX, y: t.id.y)
      let pixels = relief[key] ?? ramp.render(dem: t.dem, opacity: opacity)
      relief[key] = pixels
      if emit(pixels, over: t, into: &commands) { featuresDrawn += 1 }
    }
  }

  private func colorReliefRamp(_ color: StyleRampProperty, _ tiles: [StyleSourceData.DEMTile]) -> ColorRelief? {
    if !color.stops.isEmpty {
      return ColorRelief.interpolating(color.stops.map { (Float($0), color.color(elevation: $0)) })
    }
    guard let low = tiles.map(\.dem.minimum).min(), let high = tiles.map(\.dem.maximum).max() else { return nil }
    return ColorRelief.sampled(minimum: low, maximum: max(high, low), count: Self.colorReliefSamples) { color.color(elevation: Double($0)) }
  }

  /// Draws a tile's image (premultiplied RGBA8, dim × dim) over its square
  /// on the frame, sampled as the GPU samples a texture (`ImageWarp`,
  /// bilinear), under any bearing. False when nothing of it is in the frame.
  private func emit(_ pixels: [UInt8], over t: StyleSourceData.DEMTile, into commands: inout [StyleDrawCommand]) -> Bool {
    let side = t.dem.dim
    var packed = [UInt32](repeating: 0, count: side * side)
    pixels.withUnsafeBytes { src in packed.withUnsafeMutableBytes { $0.copyMemory(from: src) } }
    let d = Double(side), transform = camera.transform(t.id, extent: d)
    guard
      let (image, rect) = ImageWarp.warp(
        packed, width: side, height: side, corners: [transform.apply(0, 0), transform.apply(d, 0), transform.apply(d, d), transform.apply(0, d)],
        frameWidth: camera.viewport.deviceWidth, frameHeight: camera.viewport.deviceHeight, resampling: .linear)
    else { return false }
    commands.append(StyleDrawCommand(shape: .image(image, rect, opacity: 1), color: Color(r: 0, g: 0, b: 0, a: 0), clip: nil))
    return true
  }
}
