/// Decides, for one frame, what every layer shows and why: visibility, scale
/// ranges (inclusive, section 2), style rules (first match wins), floors
/// (section 5) and whether each feature reaches into the frame.
public struct MapResolver {
  public let scene: Scene
  public let viewport: Viewport
  public let floor: FloorValue?

  public init(scene: Scene, viewport: Viewport, floor: FloorValue?) {
    self.scene = scene
    self.viewport = viewport
    self.floor = floor
  }

  /// Resolves every layer, loading file sources through `sources`.
  public func resolve(sources: SourceLoader) -> MapState {
    var layers: [LayerState] = []
    var warnings: [String] = []
    for layer in scene.layers {
      var state = LayerState(id: layer.id, kind: layer.kind, opacity: layer.opacity)
      let visible = layer.visible
      let inScale = layer.scaleRange.contains(viewport.scale)
      if !visible { state.status.insert(.notVisible) }
      if !inScale { state.status.insert(.outOfScale) }
      let shown = visible && inScale
      // An invisible layer (opacity 0) stays active but draws nothing.
      let draws = shown && layer.opacity > 0
      switch layer.content {
      case .features(let source, let styling):
        switch sources.load(source) {
        case .failure(let error):
          state.status.insert(.error)
          state.message = error.description
          warnings.append("layer \"\(layer.id)\": \(error.description); the layer is not drawn")
        case .success(let collection):
          state.features.total = collection.features.count + collection.invalidCount + collection.unlocatedCount
          state.features.invalid = collection.invalidCount
          if collection.invalidCount > 0 {
            state.status.insert(.warning)
            state.message = "skipped \(collection.invalidCount) invalid feature\(collection.invalidCount == 1 ? "" : "s") (\(collection.invalidSamples.joined(separator: "; ")))"
          }
          if draws { resolveFeatures(collection, styling: styling, layer: layer, into: &state) }
        }
      case .graphics(let graphics):
        state.features.total = graphics.count
        if draws {
          for g in graphics {
            if let floor, let f = g.floor, f != floor {
              state.features.otherFloor += 1
              continue
            }
            add(Drawable(geometry: g.geometry, style: g.style), to: &state)
          }
        }
      case .annotation:
        state.status.insert(.warning)
        state.message = "annotation layers are not drawn by this version of mapsnap"
        warnings.append("layer \"\(layer.id)\": \(state.message!)")
      }
      if shown && !state.status.contains(.error) { state.status.insert(.active) }
      layers.append(state)
    }
    if !scene.viewAnnotations.isEmpty {
      warnings.append("\(scene.viewAnnotations.count) view annotation\(scene.viewAnnotations.count == 1 ? " is" : "s are") not drawn by this version of mapsnap")
    }
    return MapState(viewport: viewport, background: scene.map.background, floor: floor, layers: layers, warnings: warnings)
  }

  private func resolveFeatures(_ collection: FeatureCollection, styling: Styling, layer: Layer, into state: inout LayerState) {
    // Rules whose scale range excludes this scale can never match.
    let rules: [Rule]
    switch styling {
    case .single(let s): rules = [Rule(style: s)]
    case .rules(let all): rules = all.filter { $0.scaleRange.contains(viewport.scale) }
    }
    if rules.isEmpty { return }
    state.drawables.reserveCapacity(collection.features.count)
    for feature in collection.features {
      if let floor, let field = layer.floorField,
        let value = feature.properties[field].flatMap(FloorValue.init(json:)), value != floor
      {
        state.features.otherFloor += 1
        continue
      }
      guard let rule = rules.first(where: { $0.filter.matches(feature.properties) }) else { continue }
      add(Drawable(geometry: feature.geometry, style: rule.style), to: &state)
    }
  }

  /// Keeps `d` when its geometry, grown by how far its style reaches, meets the frame.
  private func add(_ d: Drawable, to state: inout LayerState) {
    let reach = StyleReach.pixels(of: d.style) / viewport.pixelsPerMeter * viewport.pixelRatio
    let grown = d.geometry.bounds.insetBy(-reach)
    guard !d.geometry.isEmpty, grown.intersects(viewport.extent) else { return }
    state.features.drawn += 1
    state.drawables.append(d)
  }
}

/// How far, in logical pixels, a style can paint beyond its geometry.
enum StyleReach {
  static func pixels(of s: Style) -> Double {
    var r = 1.0
    if s.stroke != nil {
      let joinFactor = s.lineJoin == .miter ? max(s.miterLimit, 1.5) : 1.5
      r += s.strokeWidth / 2 * joinFactor
    }
    if let m = s.marker {
      r = max(r, m.size * 1.5 + m.strokeWidth + abs(m.offset.0) + abs(m.offset.1) + 1)
    }
    return r
  }
}
