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
    for (index, layer) in scene.layers.enumerated() {
      var state = LayerState(id: layer.id, kind: layer.kind, opacity: layer.opacity, index: index)
      let visible = layer.visible
      let inScale = layer.scaleRange.contains(viewport.scale)
      if !visible { state.status.insert(.notVisible) }
      if !inScale { state.status.insert(.outOfScale) }
      let shown = visible && inScale
      // An invisible layer (opacity 0) stays active but draws nothing.
      let draws = shown && layer.opacity > 0
      switch layer.content {
      case .features(let source, let styling):
        if let collection = load(source, from: sources, layer: layer, into: &state, warnings: &warnings), draws {
          resolveFeatures(collection, styling: styling, layer: layer, into: &state)
        }
      case .graphics(let graphics):
        state.features.total = graphics.count
        if draws {
          for g in graphics {
            if let floor, let f = g.floor, f != floor {
              state.features.otherFloor += 1
              continue
            }
            add(
              Drawable(geometry: g.geometry, style: g.style, labelText: nil, order: state.drawables.count, featureID: g.id.map(FloorValue.init)),
              to: &state)
          }
        }
      case .annotation(let anno):
        state.sublayers = anno.sublayers.map { sub in
          var s = SublayerState(id: sub.id)
          if !visible || !sub.visible { s.status.insert(.notVisible) }
          if !inScale || !sub.scaleRange.contains(viewport.scale) { s.status.insert(.outOfScale) }
          return s
        }
        if let collection = load(anno.source, from: sources, layer: layer, into: &state, warnings: &warnings) {
          resolveAnnotations(collection, anno, layer: layer, draws: draws, into: &state)
        }
        for i in state.sublayers.indices where state.sublayers[i].status.isEmpty && !state.status.contains(.error) {
          state.sublayers[i].status.insert(.active)
        }
      }
      if shown && !state.status.contains(.error) { state.status.insert(.active) }
      layers.append(state)
    }
    return MapState(viewport: viewport, background: scene.map.background, floor: floor, layers: layers, warnings: warnings)
  }

  /// The layer's features, or nil when its source cannot be loaded (the
  /// layer is then `error`, with a warning). Counts every feature of the
  /// source; skipped invalid ones make the layer `warning`.
  private func load(_ source: Source, from sources: SourceLoader, layer: Layer, into state: inout LayerState, warnings: inout [String]) -> FeatureCollection? {
    switch sources.load(source) {
    case .failure(let error):
      state.status.insert(.error)
      state.message = error.description
      warnings.append("layer \"\(layer.id)\": \(error.description); the layer is not drawn")
      return nil
    case .success(let collection):
      state.features.total = collection.features.count + collection.invalidCount + collection.unlocatedCount
      state.features.invalid = collection.invalidCount
      if collection.invalidCount > 0 {
        state.status.insert(.warning)
        let n = collection.invalidCount
        state.message = "skipped \(n) invalid feature\(n == 1 ? "" : "s") (\(collection.invalidSamples.joined(separator: "; ")))"
      }
      return collection
    }
  }

  /// A property value as label text: strings as they are, integral numbers
  /// without a fraction, booleans as true/false; null and objects give none.
  func labelText(_ v: JSONValue) -> String? {
    switch v {
    case .string(let s): return s
    case .number(let n): return format(n)
    case .bool(let b): return b ? "true" : "false"
    default: return nil
    }
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
    for (index, feature) in collection.features.enumerated() {
      if let floor, let field = layer.floorField,
        let value = feature.properties[field].flatMap(FloorValue.init(json:)), value != floor
      {
        state.features.otherFloor += 1
        continue
      }
      guard let rule = rules.first(where: { $0.filter.matches(feature.properties) }) else { continue }
      // Text with nothing to draw (empty, only spaces or line breaks) gets no label.
      let text = rule.style.label.flatMap { feature.properties[$0.field].flatMap(labelText) }
        .flatMap { $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? nil : $0 }
      let id = (layer.idField.flatMap { feature.properties[$0] } ?? feature.id).flatMap(FloorValue.init(json:))
      add(Drawable(geometry: feature.geometry, style: rule.style, labelText: text, order: index, featureID: id), to: &state, labelReach: text.map { labelReach($0, rule.style.label!) } ?? 0)
    }
  }

  /// Sorts annotation features into sublayers (first `where` that matches)
  /// and keeps those whose sublayer draws at this scale and floor and whose
  /// text can reach into the frame.
  private func resolveAnnotations(
    _ collection: FeatureCollection, _ anno: AnnotationLayer, layer: Layer, draws: Bool, into state: inout LayerState
  ) {
    let frame = viewport.extent
    for feature in collection.features {
      guard let s = anno.sublayers.firstIndex(where: { $0.filter.matches(feature.properties) }) else { continue }
      state.sublayers[s].features.total += 1
      if let floor, let field = layer.floorField,
        let value = feature.properties[field].flatMap(FloorValue.init(json:)), value != floor
      {
        state.sublayers[s].features.otherFloor += 1
        state.features.otherFloor += 1
        continue
      }
      guard draws, state.sublayers[s].status.isEmpty,
        let text = feature.properties[anno.textField].flatMap(labelText), !text.isEmpty
      else { continue }
      var angle = 0.0
      if let field = anno.angleField, let v = feature.properties[field] {
        switch v {
        case .number(let n) where n.isFinite: angle = n
        case .string(let t): angle = Double(t).flatMap { $0.isFinite ? $0 : nil } ?? 0
        default: break
        }
      }
      // Text under one device pixel per em (or absurdly large) is not drawn.
      let size = anno.sublayers[s].style.size * anno.referenceScale / viewport.scale
      let device = size * viewport.pixelRatio
      guard device >= 1, device <= FontLibrary.maxTextSize else { continue }
      // Conservative reach of the text: its size times its longest line.
      let longest = text.split(separator: "\n").map(\.count).max() ?? 0
      let reach = (size * (Double(longest) + 2) + (anno.sublayers[s].style.halo?.width ?? 0)) * viewport.metersPerPixel
      var counted = false
      for p in feature.geometry.points where frame.insetBy(-reach).intersects(Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) {
        state.annotations.append(AnnotationText(point: p, text: text, angle: angle, sublayer: s))
        counted = true
      }
      if counted {
        state.sublayers[s].features.drawn += 1
        state.features.drawn += 1
      }
    }
  }

  /// How far a label can reach from its point, in logical pixels: its longest
  /// line at one em per character, plus offset and halo.
  private func labelReach(_ text: String, _ label: LabelStyle) -> Double {
    let longest = text.split(separator: "\n").map(\.count).max() ?? 0
    return label.size * Double(longest + 1) + abs(label.offset.0) + abs(label.offset.1) + (label.halo?.width ?? 0)
  }

  /// Keeps `d` when its geometry, grown by how far its style (and label)
  /// reaches, meets the frame.
  private func add(_ d: Drawable, to state: inout LayerState, labelReach: Double = 0) {
    let reach = max(StyleReach.pixels(of: d.style), labelReach) * viewport.metersPerPixel
    let grown = d.geometry.bounds.insetBy(-reach)
    guard !d.geometry.isEmpty else { return }
    guard grown.intersects(viewport.extent) else {
      if let id = d.featureID { state.offFrameIDs.insert(id) }
      return
    }
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
      // An icon drawn at its own height (size 0) may be up to 256 px tall.
      let size = m.icon != nil && m.size == 0 ? 256 : m.size
      r = max(r, size * 1.5 + m.strokeWidth + abs(m.offset.0) + abs(m.offset.1) + 1)
    }
    return r
  }
}
