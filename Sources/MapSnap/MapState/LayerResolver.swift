internal import _MapSnapRaster

/// The resolution of one layer: `MapResolver`'s per-layer work, with the
/// layer's state and what it loads being built. It starts (`init`) with
/// the layer's status and what it reads, worked out once before any
/// source is read (the frame's `ogr` reads are made from it), and ends
/// (`resolve`) with what the layer shows.
struct LayerResolver {
  let map: MapResolver
  let layer: Layer
  var state: LayerState
  /// What the layer loaded beside its state: its source's digest, tile
  /// pixels, counters.
  var inputs = LayerInputs()
  /// True when the layer is visible at the frame's scale.
  let shown: Bool
  /// True when it is shown and its opacity draws something.
  let draws: Bool
  /// The feature ids of this layer that view annotations name, or nil when
  /// none does.
  let annotatedIDs: [FeatureID]?
  let icons: IconCache
  /// How far beyond the frame, in logical pixels, the layer's `ogr` source
  /// is read (`ogrReach`; NaN: the whole layer; 0 for other sources).
  private(set) var reach = 0.0
  /// The property names the layer uses, each under the key of the scene
  /// that names it (`propertyNames`).
  private(set) var names: [(key: String, property: String)] = []
  /// The icons this layer loaded, by path.
  var loadedIcons: [String: RasterImage] = [:]
  /// The digest of each icon file looked up (`IconCache.entry(atPath:)`).
  var loadedIconDigests: [String: String] = [:]
  /// Icons already looked up for this layer (nil: failed).
  var iconResults: [String: IconSize?] = [:]
  /// For a features layer: each drawable's position in the source's
  /// `features`, ascending (drawables are in feature order).
  var drawnPositions: [Int32] = []
  /// The properties a feature's digest key covers (`FeatureKeyDigest`).
  var keyFields: [String] = []
  /// True when the source's ids are an `ogr` layer's FIDs, which key nothing.
  var idsAreFIDs = false
  /// How many features of this frame had each digest key so far.
  var digestsSeen: [String: Int] = [:]
  /// The reach (logical pixels; NaN: the whole layer) this frame's `ogr`
  /// read was asked for, whichever read served it.
  var ogrRequestReach: Double? = nil

  /// Starts layer `index` of `map`'s scene: its status (not visible, out of
  /// scale) and what it reads (`reach`, `names`; an `ogr` features layer
  /// loads its markers' icons for the reach, and reports those that fail).
  init(map: MapResolver, index: Int, annotatedIDs: [FeatureID]?, icons: IconCache) {
    let layer = map.scene.layers[index]
    self.map = map
    self.layer = layer
    self.annotatedIDs = annotatedIDs
    self.icons = icons
    state = LayerState(id: layer.id, kind: layer.kind, index: index, opacity: layer.opacity)
    let inScale = layer.scaleRange.contains(map.viewport.scale)
    if !layer.visible {
      state.status.insert(.notVisible)
      state.hiddenBy.append(.notVisible)
    }
    if !inScale {
      state.status.insert(.outOfScale)
      state.hiddenBy.append(.outOfScale(layer.scaleRange))
    }
    shown = layer.visible && inScale
    // An invisible layer (opacity 0, or so small that its group alpha
    // rounds to 0) stays active but draws nothing.
    draws = shown && DisplayList.groupAlpha(layer.opacity) > 0
    switch layer.content {
    case .features(let source, let styling):
      reach = ogrReach(source, styling: styling)
      names = propertyNames(styling)
    case .annotation(let anno):
      startSublayers(anno)
      reach = ogrReach(anno)
      names = propertyNames(anno)
    case .graphics, .tiles, .style: break
    }
  }

  /// The layer's `ogr` source, when it has one.
  var ogrSource: OGRSource? {
    switch layer.content {
    case .features(.ogr(let o), _): return o
    case .annotation(let anno): if case .ogr(let o) = anno.source { return o }
    default: break
    }
    return nil
  }

  /// Resolves what the layer shows, reading its source from `loaded` (file
  /// sources loaded for the frame, by `Source.cacheKey`), `sources` or
  /// `tiles`, and why.
  mutating func resolve(sources: SourceLoader, loaded: [String: Result<SourceIndex, SourceError>], tiles: TileCache) {
    let fields = Self.fields(names)
    switch layer.content {
    case .features(let source, let styling):
      keyFields = fields.sorted()
      if let index = load(source, from: sources, loaded: loaded, reach: reach, fields: fields) {
        checkProperties(names, of: index)
        checkValues(Self.whereClauses(styling), of: index)
        resolveFeatures(index, styling: styling)
        recordAnnotatedFeatures(of: index, styling: styling)
      }
    case .graphics(let graphics):
      resolveGraphics(graphics)
    case .annotation(let anno):
      keyFields = fields.sorted()
      if let index = load(anno.source, from: sources, loaded: loaded, reach: reach, fields: fields) {
        checkProperties(names, of: index)
        checkValues(anno.sublayers.enumerated().map { ("sublayers[\($0)].where", $1.filter) }, of: index)
        resolveAnnotations(index, anno)
        recordAnnotatedFeatures(ofAnnotations: index)
      }
      finishSublayers()
    case .tiles(let t):
      let (tileState, tileInputs, problems) = TileResolver(
        viewport: viewport, layer: t, attribution: layer.attribution, cache: tiles, mapSpatialReference: viewport.projection
      ).resolve(draws: draws)
      state.tiles = tileState
      if tileState != nil { inputs.tiles = tileInputs }
      for p in problems { state.add(p) }
    case .style(let s):
      resolveStyle(s)
    }
    state.attribution = layer.attribution ?? state.tiles?.attribution
    if shown && !state.status.contains(.error) { state.status.insert(.active) }
  }

  var viewport: Viewport { map.viewport }

  // MARK: - Sources and names

  /// The layer's features with their index, or nil when its source cannot be
  /// loaded (a `source` problem: the layer is `error`). Counts every feature
  /// of the source; skipped invalid ones are a problem (`warning`). An
  /// `ogr` source makes properties of `fields` alone (nil: every field).
  mutating func load(
    _ source: Source, from sources: SourceLoader, loaded: [String: Result<SourceIndex, SourceError>] = [:], reach: Double = 0,
    fields: Set<String>? = nil
  ) -> SourceIndex? {
    if case .ogr(let o) = source { return loadOGR(o, from: sources, reach: reach, fields: fields) }
    let key = source.cacheKey
    switch key.flatMap({ loaded[$0] }) ?? sources.indexed(source, projection: viewport.projection) {
    case .failure(let error):
      state.add(.source(error))
      if key != nil { inputs.sourceContent = ContentDigest("error: \(error)") }
      return nil
    case .success(let index):
      let collection = index.collection
      idsAreFIDs = collection.idsAreFIDs
      if key != nil { inputs.sourceContent = collection.content }
      state.features.total = collection.features.count + collection.invalidCount + collection.unlocatedCount + collection.unprojectableCount
      state.features.invalid = collection.invalidCount
      state.reference = collection.reference
      if collection.unprojectableCount > 0 { state.add(.unprojectable(count: collection.unprojectableCount, crs: collection.reference?.crs ?? "")) }
      if collection.notDegreesCount > 0 { state.add(.notDegrees(count: collection.notDegreesCount, total: collection.features.count)) }
      if collection.invalidCount > 0 {
        state.add(.invalidFeatures(count: collection.invalidCount, samples: collection.invalidSamples))
      }
      return index
    }
  }

  /// An `ogr` source's features for this frame: those whose bounds meet the
  /// frame grown by `reach` logical pixels (`ogrReach`; NaN: all), read
  /// through the dataset's spatial index, projected and indexed for this
  /// frame only. `features.total` counts the layer's features when the
  /// driver knows them cheaply, else those read.
  mutating func loadOGR(_ o: OGRSource, from sources: SourceLoader, reach: Double, fields: Set<String>?) -> SourceIndex? {
    ogrRequestReach = reach
    switch sources.ogrIndexed(o, near: map.ogrNear(reach: reach), fields: fields, projection: viewport.projection) {
    case .failure(let error):
      state.add(.source(error))
      inputs.sourceContent = ContentDigest("error: \(error)")
      return nil
    case .success(let (index, info)):
      let collection = index.collection
      idsAreFIDs = collection.idsAreFIDs
      inputs.sourceContent = collection.content
      state.ogr = info
      state.features.total = info.featuresInLayer ?? info.featuresRead
      state.features.invalid = collection.invalidCount
      if collection.unprojectableCount > 0 { state.add(.unprojectable(count: collection.unprojectableCount, crs: info.spatialReference)) }
      if collection.invalidCount > 0 {
        state.add(.invalidFeatures(count: collection.invalidCount, samples: collection.invalidSamples))
      }
      return index
    }
  }

  // MARK: - Icons

  /// The icon of a marker, loaded on first use; a failure is recorded once
  /// per layer and icon as an `icon` problem, and the marker draws nothing.
  mutating func icon(of marker: MarkerStyle?) -> IconSize? {
    guard let m = marker, let path = m.icon else { return nil }
    if let known = iconResults[path] { return known }
    let (result, digest) = icons.entry(atPath: path)
    loadedIconDigests[path] = digest
    switch result {
    case .success(let image):
      let size = IconSize(image)
      iconResults[path] = size
      loadedIcons[path] = image
      return size
    case .failure(let error):
      iconResults[path] = .some(nil)
      state.add(.icon(name: m.iconName ?? path, error: error))
      return nil
    }
  }
}
