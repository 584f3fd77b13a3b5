internal import _MapSnapRaster

/// Decides, for one frame, what every layer shows and why: visibility, scale
/// ranges (inclusive, section 2), style rules (first match wins), floors
/// (section 5), which features can reach the frame, labels with nothing to
/// place, annotation texts and why each is hidden, marker icons, and names
/// of properties that match nothing. Every decision is recorded in the
/// returned `MapState` with its reason.
public struct MapResolver {
  public let scene: Scene
  public let viewport: Viewport
  public let floor: FloorValue?
  /// The widest glyph advance of the fonts text is drawn with, in ems (1
  /// without fonts): how far one character of a label can reach.
  let maxAdvance: Double

  /// A resolver for `scene` framed by `viewport` on `floor`; `fonts` are the
  /// fonts its text will be drawn with (see `MapResolver.fonts(for:given:)`).
  public init(scene: Scene, viewport: Viewport, floor: FloorValue?, fonts: FontLibrary? = nil) {
    self.scene = scene
    self.viewport = viewport
    self.floor = floor
    self.maxAdvance = fonts?.maxAdvance ?? 1
  }

  /// Resolves every layer, loading file sources through `sources` and marker
  /// icons through `icons` (pass the same caches to share them across frames).
  public func resolve(sources: SourceLoader, icons: IconCache = IconCache(), tiles: TileCache = TileCache()) -> MapState {
    var tied = Set<String>()
    for a in scene.viewAnnotations { if case .feature(let layer, _) = a.target { tied.insert(layer) } }
    var state = MapState(viewport: viewport, background: scene.map.background, floor: floor, layers: [])
    for (index, layer) in scene.layers.enumerated() {
      var l = LayerState(id: layer.id, kind: layer.kind, index: index, opacity: layer.opacity)
      let visible = layer.visible
      let inScale = layer.scaleRange.contains(viewport.scale)
      if !visible {
        l.status.insert(.notVisible)
        l.hiddenBy.append(.notVisible)
      }
      if !inScale {
        l.status.insert(.outOfScale)
        l.hiddenBy.append(.outOfScale(layer.scaleRange))
      }
      let shown = visible && inScale
      // An invisible layer (opacity 0, or so small that its group alpha
      // rounds to 0) stays active but draws nothing.
      let draws = shown && DisplayList.groupAlpha(layer.opacity) > 0
      var resolver = LayerResolver(
        map: self, layer: layer, state: l, draws: draws, indexesTiedFeatures: tied.contains(layer.id), icons: icons,
        loadedIcons: state.icons)
      switch layer.content {
      case .features(let source, let styling):
        if let collection = resolver.load(source, from: sources) {
          resolver.checkProperties(of: collection, styling: styling)
          resolver.resolveFeatures(collection, styling: styling)
        }
      case .graphics(let graphics):
        resolver.resolveGraphics(graphics)
      case .annotation(let anno):
        resolver.startSublayers(anno)
        if let collection = resolver.load(anno.source, from: sources) {
          resolver.checkProperties(of: collection, annotation: anno)
          resolver.resolveAnnotations(collection, anno)
        }
        resolver.finishSublayers()
      case .tiles(let t):
        let (tileState, problems) = TileResolver(viewport: viewport, layer: t, attribution: layer.attribution, cache: tiles, mapSpatialReference: viewport.projection.code).resolve(draws: draws)
        resolver.state.tiles = tileState
        for p in problems { resolver.state.add(p) }
      }
      l = resolver.state
      l.attribution = layer.attribution ?? l.tiles?.attribution
      state.icons = resolver.loadedIcons
      if shown && !l.status.contains(.error) { l.status.insert(.active) }
      state.layers.append(l)
    }
    return state
  }

  /// A property value as text: strings as they are, integral numbers without
  /// a fraction, booleans as true/false; null and objects give none. Text with
  /// nothing to draw (empty, only spaces or line breaks) gives none either.
  static func text(_ v: JSONValue?) -> String? {
    let s: String
    switch v {
    case .string(let t)?: s = t
    case .number(let n)?: s = format(n)
    case .bool(let b)?: s = b ? "true" : "false"
    default: return nil
    }
    return s.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? nil : s
  }
}

/// The resolution of one layer: `MapResolver`'s per-layer work, with the
/// layer's state being built.
private struct LayerResolver {
  let map: MapResolver
  let layer: Layer
  var state: LayerState
  let draws: Bool
  let indexesTiedFeatures: Bool
  let icons: IconCache
  var loadedIcons: [String: RasterImage]
  /// Icons already looked up for this layer (nil: failed).
  private var iconResults: [String: RasterImage?] = [:]

  init(
    map: MapResolver, layer: Layer, state: LayerState, draws: Bool, indexesTiedFeatures: Bool, icons: IconCache,
    loadedIcons: [String: RasterImage]
  ) {
    self.map = map
    self.layer = layer
    self.state = state
    self.draws = draws
    self.indexesTiedFeatures = indexesTiedFeatures
    self.icons = icons
    self.loadedIcons = loadedIcons
  }

  private var viewport: Viewport { map.viewport }

  // MARK: - Sources and names

  /// The layer's features, or nil when its source cannot be loaded (a
  /// `source` problem: the layer is `error`). Counts every feature of the
  /// source; skipped invalid ones are a problem (`warning`).
  mutating func load(_ source: Source, from sources: SourceLoader) -> FeatureCollection? {
    switch sources.load(source, projection: viewport.projection) {
    case .failure(let error):
      state.add(.source(error))
      return nil
    case .success(let collection):
      state.features.total = collection.features.count + collection.invalidCount + collection.unlocatedCount + collection.unprojectableCount
      state.features.invalid = collection.invalidCount
      if collection.unprojectableCount > 0, case .reprojected(_, let crs) = source {
        state.add(.unprojectable(count: collection.unprojectableCount, crs: crs))
      }
      // Features without a drawable geometry exist all the same.
      for f in collection.withoutGeometry { tie(key(f), .notDrawn) }
      if collection.invalidCount > 0 {
        state.add(.invalidFeatures(count: collection.invalidCount, samples: collection.invalidSamples))
      }
      return collection
    }
  }

  /// Warns about each property name of a features layer that no feature has.
  mutating func checkProperties(of collection: FeatureCollection, styling: Styling) {
    var names: [(key: String, property: String)] = []
    switch styling {
    case .single(let s):
      if let label = s.label { names.append(("style.label.field", label.field)) }
    case .rules(let rules):
      for (i, r) in rules.enumerated() {
        for c in r.filter.clauses { names.append(("rules[\(i)].where", c.property)) }
        if let label = r.style.label { names.append(("rules[\(i)].style.label.field", label.field)) }
      }
    }
    checkCommonProperties(&names)
    check(names, in: collection)
  }

  /// Warns about each property name of an annotation layer that no feature has.
  mutating func checkProperties(of collection: FeatureCollection, annotation anno: AnnotationLayer) {
    var names: [(key: String, property: String)] = [("textField", anno.textField)]
    if let a = anno.angleField { names.append(("angleField", a)) }
    for (i, s) in anno.sublayers.enumerated() {
      for c in s.filter.clauses { names.append(("sublayers[\(i)].where", c.property)) }
    }
    checkCommonProperties(&names)
    check(names, in: collection)
  }

  private func checkCommonProperties(_ names: inout [(key: String, property: String)]) {
    if let f = layer.floorField { names.append(("floorField", f)) }
    if let f = layer.idField { names.append(("idField", f)) }
  }

  /// Rule: a name is unknown when the source has features and none of them
  /// has a property of that name (of any value, null included). The hint is
  /// the closest existing name (case-insensitive edit distance at most 2).
  /// A name used by several keys is one problem naming every key.
  private mutating func check(_ names: [(key: String, property: String)], in collection: FeatureCollection) {
    let features = collection.features + collection.withoutGeometry
    guard !features.isEmpty else { return }
    var unknown: [(property: String, keys: [String])] = []
    for (key, property) in names {
      if let k = unknown.firstIndex(where: { $0.property == property }) {
        if !unknown[k].keys.contains(key) { unknown[k].keys.append(key) }
        continue
      }
      if features.contains(where: { $0.properties.index(forKey: property) != nil }) { continue }
      unknown.append((property, [key]))
    }
    guard !unknown.isEmpty else { return }
    var seen = Set<String>()
    var all: [String] = []
    for f in features { for k in f.properties.keys where seen.insert(k).inserted { all.append(k) } }
    for u in unknown {
      let key = u.keys.joined(separator: ", ")
      state.add(.unknownProperty(key: key, property: u.property, suggestion: closestMatch(to: u.property, in: all, maxDistance: 2)))
    }
  }

  // MARK: - Icons

  /// The icon of a marker, loaded on first use; a failure is recorded once
  /// per layer and icon as an `icon` problem, and the marker draws nothing.
  private mutating func icon(of marker: MarkerStyle?) -> RasterImage? {
    guard let m = marker, let path = m.icon else { return nil }
    if let known = iconResults[path] { return known }
    switch icons.image(atPath: path) {
    case .success(let image):
      iconResults[path] = image
      loadedIcons[path] = image
      return image
    case .failure(let error):
      iconResults[path] = .some(nil)
      state.add(.icon(name: m.iconName ?? path, error: error))
      return nil
    }
  }

  // MARK: - Features and graphics

  /// Styles each feature with the first rule that takes it, leaves out other
  /// floors, and keeps the features whose symbols or label can reach the frame.
  mutating func resolveFeatures(_ collection: FeatureCollection, styling: Styling) {
    guard draws else {
      if indexesTiedFeatures { for f in collection.features { tie(key(f), .notDrawn) } }
      return
    }
    // Rules whose scale range excludes this scale can never match.
    let rules: [Rule]
    switch styling {
    case .single(let s): rules = [Rule(style: s)]
    case .rules(let all): rules = all.filter { $0.scaleRange.contains(viewport.scale) }
    }
    // Per rule: its icon and how far its symbols reach (logical pixels).
    var reaches: [Double] = []
    for r in rules { reaches.append(SymbolReach.style(r.style, icon: icon(of: r.style.marker))) }
    state.drawables.reserveCapacity(collection.features.count)
    for feature in collection.features {
      let key = key(feature)
      if let floor = map.floor, let field = layer.floorField,
        let value = feature.properties[field].flatMap(FloorValue.init(json:)), value != floor
      {
        state.features.otherFloor += 1
        tie(key, .notDrawn)
        continue
      }
      guard let r = rules.firstIndex(where: { $0.filter.matches(feature.properties) }) else {
        tie(key, .notDrawn)
        continue
      }
      let style = rules[r].style
      var reach = reaches[r]
      var label: LabelRequest? = nil
      if let ls = style.label {
        let text = MapResolver.text(feature.properties[ls.field])
        var request = LabelRequest(style: ls, text: text, skip: nil)
        if text == nil {
          request.skip = .noText
        } else if ls.size * viewport.pixelRatio < FontLibrary.minTextSize {
          request.skip = .tooSmall
        } else {
          reach = max(reach, SymbolReach.text(text!, size: ls.size, halo: ls.halo?.width ?? 0, offset: ls.offset, advance: map.maxAdvance))
        }
        label = request
      }
      add(Drawable(geometry: feature.geometry, style: style, feature: key, label: label), reach: reach)
    }
  }

  /// Graphics: each with its own style, left out on other floors.
  mutating func resolveGraphics(_ graphics: [Graphic]) {
    state.features.total = graphics.count
    for (i, g) in graphics.enumerated() {
      let key = FeatureKey(id: g.id.map(FloorValue.init), index: i)
      guard draws else {
        tie(key, .notDrawn)
        continue
      }
      if let floor = map.floor, let f = g.floor, f != floor {
        state.features.otherFloor += 1
        tie(key, .notDrawn)
        continue
      }
      let reach = SymbolReach.style(g.style, icon: icon(of: g.style.marker))
      add(Drawable(geometry: g.geometry.projected(to: viewport.projection), style: g.style, feature: key, label: nil), reach: reach)
    }
  }

  /// The feature's key: the layer's `idField` property (else the GeoJSON `id`)
  /// and its index.
  private func key(_ f: Feature) -> FeatureKey {
    let id = (layer.idField.flatMap { f.properties[$0] } ?? f.id).flatMap(FloorValue.init(json:))
    return FeatureKey(id: id, index: f.index)
  }

  /// Keeps `d` when its geometry, grown by `reach` logical pixels, meets the frame.
  private mutating func add(_ d: Drawable, reach: Double) {
    guard !d.geometry.isEmpty else {
      tie(d.feature, .notDrawn)
      return
    }
    let grown = d.geometry.bounds.insetBy(-reach * viewport.unitsPerPixel)
    guard grown.intersects(viewport.extent) else {
      tie(d.feature, .offFrame)
      return
    }
    tie(d.feature, .drawable(state.drawables.count))
    state.drawables.append(d)
  }

  /// Records what became of a feature for view annotations tied to it. With
  /// several features of one id, the first drawn one wins, then any off the
  /// frame, then any not drawn.
  private mutating func tie(_ key: FeatureKey, _ fate: TiedFeature) {
    guard indexesTiedFeatures, let id = key.id else { return }
    func rank(_ f: TiedFeature) -> Int {
      switch f {
      case .drawable: return 2
      case .offFrame: return 1
      case .notDrawn: return 0
      }
    }
    if let old = state.tiedFeatures[id], rank(old) >= rank(fate) { return }
    state.tiedFeatures[id] = fate
  }

  // MARK: - Annotation

  /// Each sublayer's status: shown only when it and its layer are visible at
  /// the scale.
  mutating func startSublayers(_ anno: AnnotationLayer) {
    let inScale = layer.scaleRange.contains(viewport.scale)
    state.sublayers = anno.sublayers.map { sub in
      var s = SublayerState(id: sub.id, scaleRange: sub.scaleRange, style: sub.style)
      if !sub.visible { s.hiddenBy.append(.notVisible) }
      if !layer.visible { s.hiddenBy.append(.layerNotVisible) }
      if !sub.scaleRange.contains(viewport.scale) { s.hiddenBy.append(.outOfScale(sub.scaleRange)) }
      if !inScale { s.hiddenBy.append(.layerOutOfScale(layer.scaleRange)) }
      if !sub.visible || !layer.visible { s.status.insert(.notVisible) }
      if !inScale || !sub.scaleRange.contains(viewport.scale) { s.status.insert(.outOfScale) }
      return s
    }
  }

  mutating func finishSublayers() {
    for i in state.sublayers.indices where state.sublayers[i].status.isEmpty && !state.status.contains(.error) {
      state.sublayers[i].status.insert(.active)
    }
  }

  /// Sorts annotation features into sublayers (first `where` that matches) and
  /// lists every text whose anchor, grown by the text's reach, meets the
  /// frame, drawn or with the reason it is not (in this order: not visible,
  /// out of scale, the layer's opacity is 0, other floor, no text, too
  /// small, too large).
  mutating func resolveAnnotations(_ collection: FeatureCollection, _ anno: AnnotationLayer) {
    let frame = viewport.extent
    let factor = anno.referenceScale / viewport.scale
    for feature in collection.features {
      guard let s = anno.sublayers.firstIndex(where: { $0.filter.matches(feature.properties) }) else { continue }
      state.sublayers[s].features.total += 1
      let style = anno.sublayers[s].style
      var hidden: AnnotationHiddenReason? = nil
      let sublayer = state.sublayers[s].status
      if sublayer.contains(.notVisible) {
        hidden = .notVisible
      } else if sublayer.contains(.outOfScale) {
        hidden = .outOfScale
      } else if !draws {
        hidden = .transparent
      }
      if let floor = map.floor, let field = layer.floorField,
        let value = feature.properties[field].flatMap(FloorValue.init(json:)), value != floor
      {
        // Counted, as for features layers, only where the layer draws.
        if draws {
          state.sublayers[s].features.otherFloor += 1
          state.features.otherFloor += 1
        }
        hidden = hidden ?? .floor
      }
      let text = MapResolver.text(feature.properties[anno.textField])
      // Size and halo scale with the map: `x × referenceScale / scale`.
      let size = style.size * factor
      let halo = (style.halo?.width ?? 0) * factor
      let device = size * viewport.pixelRatio
      let invisibleHalo = (style.halo?.color.a ?? 0) == 0 || halo <= 0
      if text == nil {
        hidden = hidden ?? .noText
      } else if style.color.a == 0 && invisibleHalo {
        hidden = hidden ?? .transparent
      } else if device < FontLibrary.minTextSize {
        hidden = hidden ?? .tooSmall
      } else if device > FontLibrary.maxTextSize {
        hidden = hidden ?? .tooLarge
      }
      var angle = 0.0
      if let field = anno.angleField, let v = feature.properties[field] {
        switch v {
        case .number(let n) where n.isFinite: angle = n
        case .string(let t): angle = Double(t).flatMap { $0.isFinite ? $0 : nil } ?? 0
        default: break
        }
      }
      // Listed when the anchor can be within the text's reach of the frame
      // (capped, so a text too large to draw does not list the whole world).
      let reach = min(SymbolReach.text(text ?? "", size: size, halo: halo, advance: map.maxAdvance), Self.maxListedReach) * viewport.unitsPerPixel
      let grown = frame.insetBy(-reach)
      let key = key(feature)
      for (part, p) in feature.geometry.points.enumerated() where grown.intersects(Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) {
        state.annotations.append(
          AnnotationText(
            feature: key, part: part, sublayer: s, point: p, text: text ?? "", angle: angle, size: size, haloWidth: halo,
            hidden: hidden))
      }
    }
  }

  /// Texts farther than this many logical pixels from the frame are not
  /// listed, whatever their size: larger than any image side.
  static let maxListedReach = 65536.0
}

extension MapResolver {
  /// The fonts a frame draws with, loaded and checked when the map is
  /// resolved, before any layer: `given`, or the bundled ones loaded now,
  /// when the scene has text of any kind (a label style, an annotation layer,
  /// view annotations, or a style naming a font), whatever the scale; nil
  /// when it has none (even when `given`). Every font the scene names is checked.
  /// - Throws: `SceneError` when a named font is not available or no font
  ///   can be loaded.
  public static func fonts(for scene: Scene, given: FontLibrary?) throws(SceneError) -> FontLibrary? {
    // Without text no fonts take part, even when given: the frame (and its
    // input digest) is the same whether a caller passes a library or not.
    guard scene.hasText else { return nil }
    let library: FontLibrary
    if let given {
      library = given
    } else {
      do {
        library = try FontLibrary(directories: [FontLibrary.bundledDirectory])
      } catch {
        throw SceneError(file: scene.file, kind: .fontsUnavailable(error))
      }
    }
    try library.check(scene)
    return library
  }
}

extension MapResolver {
  /// The map's spatial reference (scene format 1.1): `map.spatialReference`
  /// when the scene gives it; else, as in ArcGIS, the first layer's when it
  /// is a `tiles` layer (its `tileMatrixSet`, else its source's; an MBTiles
  /// file is Web Mercator; a source that cannot be opened counts as Web
  /// Mercator and is reported on its layer); else Web Mercator (3857).
  public static func projection(for scene: Scene, tiles: TileCache) -> MapProjection {
    if let p = scene.map.spatialReference { return p }
    guard let first = scene.layers.first, case .tiles(let t) = first.content else { return .webMercator }
    var set = t.tileMatrixSet
    if set == nil, case .success(let source) = tiles.source(t.source) { set = source.tileMatrixSet }
    return (set ?? .webMercatorQuad) == .worldCRS84Quad ? .geographic : .webMercator
  }
}

extension MapResolver {
  /// Checks, before anything is drawn, that PROJ knows every source `crs` of
  /// the scene: an unknown reference is an input error naming it (PROJ
  /// missing on the machine is left to the layer, as a source that cannot be
  /// read).
  /// - Throws: `SceneError` at `layers[i].source.crs`.
  public static func checkSpatialReferences(of scene: Scene) throws(SceneError) {
    for (i, layer) in scene.layers.enumerated() {
      let source: Source
      switch layer.content {
      case .features(let s, _): source = s
      case .annotation(let a): source = a.source
      default: continue
      }
      guard case .reprojected(_, let crs) = source, case .failure(.unknown(_, let reason)) = CRSTransform.to84(from: crs) else { continue }
      throw SceneError(
        file: scene.file, path: "layers[\(i)].source.crs", kind: .invalidValue,
        expected: "a spatial reference that PROJ knows, such as \"EPSG:3067\"", found: "\"\(crs)\" (\(reason))")
    }
  }
}
