internal import _MapSnapRaster
import Dispatch
import Synchronization

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
  /// `threads` bounds the threads that read `ogr` datasets side by side (0:
  /// one per processor; 1: one after another, as a batch's workers do); the
  /// state is the same for any number.
  public func resolve(sources: SourceLoader, icons: IconCache = IconCache(), tiles: TileCache = TileCache(), threads: Int = 0) -> MapState {
    // Per layer, the feature ids its view annotations name, each once.
    var tied: [String: [FloorValue]] = [:]
    for a in scene.viewAnnotations {
      guard case .feature(let layer, let id) = a.target else { continue }
      if !(tied[layer]?.contains(id) ?? false) { tied[layer, default: []].append(id) }
    }
    var state = MapState(viewport: viewport, background: scene.map.background, floor: floor, layers: [])
    readOGR(sources: sources, icons: icons, tied: tied, threads: threads)
    let loaded = loadFiles(sources: sources, threads: threads)
    // Each layer is resolved on its own (its sources are read by now), so
    // the layers are resolved side by side and taken in order.
    let layers = scene.layers
    let resolved = UnsafeMutableBufferPointer<ResolvedLayer?>.allocate(capacity: layers.count)
    resolved.initialize(repeating: nil)
    defer {
      resolved.deinitialize()
      resolved.deallocate()
    }
    let job = LayerJobs(resolver: self, tied: tied, loaded: loaded, out: resolved)
    if threads == 1 || layers.count < 2 {
      for i in layers.indices { job.run(i, sources: sources, icons: icons, tiles: tiles) }
    } else {
      DispatchQueue.concurrentPerform(iterations: layers.count) { i in job.run(i, sources: sources, icons: icons, tiles: tiles) }
    }
    for r in resolved {
      guard let r else { continue }
      state.icons.merge(r.icons) { _, later in later }
      state.iconDigests.merge(r.iconDigests) { first, _ in first }
      state.layers.append(r.state)
    }
    return state
  }

  /// One layer resolved: its state, and the marker icons it loaded (by
  /// path) with their digests.
  private struct ResolvedLayer {
    var state: LayerState
    var icons: [String: RasterImage]
    var iconDigests: [String: String]
  }

  /// The layers to resolve, handed to the workers: each resolves the
  /// layers it takes into their own slots of `out`, and only reads the
  /// resolver (a value), `tied` and `loaded`. `SourceLoader`, `IconCache`
  /// and `TileCache` are thread-safe; PROJ transforms are serialised by
  /// `CRSTransform`.
  private struct LayerJobs: @unchecked Sendable {
    let resolver: MapResolver
    let tied: [String: [FloorValue]]
    let loaded: [String: Result<SourceIndex, SourceError>]
    let out: UnsafeMutableBufferPointer<ResolvedLayer?>

    func run(_ i: Int, sources: SourceLoader, icons: IconCache, tiles: TileCache) {
      out[i] = resolver.resolveLayer(
        i, sources: sources, loaded: loaded, icons: icons, tiedIDs: tied[resolver.scene.layers[i].id], tiles: tiles)
    }
  }

  /// Resolves layer `index` of the scene alone: what it shows, read from
  /// `loaded` (file sources loaded for the frame, by `Source.cacheKey`),
  /// `sources` or `tiles`, and why.
  private func resolveLayer(
    _ index: Int, sources: SourceLoader, loaded: [String: Result<SourceIndex, SourceError>], icons: IconCache, tiedIDs: [FloorValue]?,
    tiles: TileCache
  ) -> ResolvedLayer {
    let layer = scene.layers[index]
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
    var resolver = LayerResolver(map: self, layer: layer, state: l, draws: draws, tiedIDs: tiedIDs, icons: icons)
    switch layer.content {
    case .features(let source, let styling):
      let reach = resolver.ogrReach(source, styling: styling)
      let names = resolver.propertyNames(styling)
      resolver.keyFields = LayerResolver.fields(names).sorted()
      if let index = resolver.load(source, from: sources, loaded: loaded, reach: reach, fields: LayerResolver.fields(names)) {
        resolver.checkProperties(names, of: index)
        resolver.checkValues(LayerResolver.whereClauses(styling), of: index)
        resolver.resolveFeatures(index, styling: styling)
        resolver.tieFeatures(of: index, styling: styling)
      }
    case .graphics(let graphics):
      resolver.resolveGraphics(graphics)
    case .annotation(let anno):
      resolver.startSublayers(anno)
      let reach = resolver.ogrReach(anno)
      let names = resolver.propertyNames(anno)
      resolver.keyFields = LayerResolver.fields(names).sorted()
      if let index = resolver.load(anno.source, from: sources, loaded: loaded, reach: reach, fields: LayerResolver.fields(names)) {
        resolver.checkProperties(names, of: index)
        resolver.checkValues(anno.sublayers.enumerated().map { ("sublayers[\($0)].where", $1.filter) }, of: index)
        resolver.resolveAnnotations(index, anno)
        resolver.tieAnnotationFeatures(of: index)
      }
      resolver.finishSublayers()
    case .tiles(let t):
      let (tileState, problems) = TileResolver(
        viewport: viewport, layer: t, attribution: layer.attribution, cache: tiles, mapSpatialReference: viewport.projection.code
      ).resolve(draws: draws)
      resolver.state.tiles = tileState
      for p in problems { resolver.state.add(p) }
    }
    l = resolver.state
    l.attribution = layer.attribution ?? l.tiles?.attribution
    if shown && !l.status.contains(.error) { l.status.insert(.active) }
    return ResolvedLayer(state: l, icons: resolver.loadedIcons, iconDigests: resolver.loadedIconDigests)
  }

  /// Loads the distinct file sources of the frame's layers (GeoJSON files,
  /// re-projected or not) side by side, the largest first, through
  /// `sources` in the map's projection, and returns them by
  /// `Source.cacheKey` for the layers, resolved next: each file is decoded
  /// once per frame at most, even when `sources` has no room to keep them
  /// all (the frame holds what it draws). A failure is reported by each
  /// layer over the file. The largest first: a file takes about its size in
  /// time, and a worker left with the last small one waits least. On one
  /// thread (`threads` 1), or with one file, nothing is loaded here: the
  /// layers load their files as they come to them.
  private func loadFiles(sources: SourceLoader, threads: Int) -> [String: Result<SourceIndex, SourceError>] {
    guard threads != 1 else { return [:] }
    var seen = Set<String>()
    var files: [(key: String, source: Source, bytes: Int)] = []
    for layer in scene.layers {
      let source: Source
      switch layer.content {
      case .features(let s, _): source = s
      case .annotation(let anno): source = anno.source
      case .graphics, .tiles: continue
      }
      guard let key = source.cacheKey, seen.insert(key).inserted else { continue }
      files.append((key, source, source.fileBytes))
    }
    guard files.count >= 2 else { return [:] }
    files.sort { $0.bytes > $1.bytes }
    let largestFirst = files.map { (key: $0.key, source: $0.source) }
    let projection = viewport.projection
    let results = Mutex<[String: Result<SourceIndex, SourceError>]>([:])
    DispatchQueue.concurrentPerform(iterations: largestFirst.count) { i in
      let r = sources.indexed(largestFirst[i].source, projection: projection)
      results.withLock { $0[largestFirst[i].key] = r }
    }
    return results.withLock { $0 }
  }

  /// Reads the frame's `ogr` datasets side by side before its layers are
  /// resolved in order: each distinct source once, at the farthest reach of
  /// the layers over it, with the fields any of them uses. A read serves
  /// every filter and fields it holds, so each layer then finds its
  /// features read (`SourceLoader.ogr`); a failed read is tried again, and
  /// reported, by its layer. The reads are the same on one thread
  /// (`threads` 1) as on several, and so is what each layer reports.
  private func readOGR(sources: SourceLoader, icons: IconCache, tied: [String: [FloorValue]], threads: Int) {
    var order: [OGRSource] = []
    var reach: [OGRSource: Double] = [:]
    var fields: [OGRSource: Set<String>] = [:]
    for (index, layer) in scene.layers.enumerated() {
      var scratch = LayerResolver(
        map: self, layer: layer, state: LayerState(id: layer.id, kind: layer.kind, index: index, opacity: layer.opacity), draws: false,
        tiedIDs: tied[layer.id], icons: icons)
      let source: OGRSource
      let r: Double
      let used: Set<String>
      switch layer.content {
      case .features(.ogr(let o), let styling):
        (source, r, used) = (o, scratch.ogrReach(.ogr(o), styling: styling), LayerResolver.fields(scratch.propertyNames(styling)))
      case .annotation(let anno):
        guard case .ogr(let o) = anno.source else { continue }
        (source, r, used) = (o, scratch.ogrReach(anno), LayerResolver.fields(scratch.propertyNames(anno)))
      default: continue
      }
      fields[source, default: []].formUnion(used)
      if let known = reach[source] {
        reach[source] = LayerResolver.farther(known, r)
      } else {
        order.append(source)
        reach[source] = r
      }
    }
    var inOrder = order.map { (source: $0, near: ogrNear(reach: reach[$0]!), fields: fields[$0]!) }
    if threads != 1 && inOrder.count > 2 {
      // Largest first, so that the longest read is not the one left to
      // start last: layers whose size the dataset tells cheaply (a
      // GeoPackage's counts, read as it opens) by count, most features
      // first, after those it does not (a database or GDAL, whose opening
      // is slow enough to be started first).
      let counts = inOrder.map { sources.ogrFeatureCountHint($0.source) ?? Int.max }
      inOrder = inOrder.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }.map { inOrder[$0] }
    }
    let reads = inOrder
    let projection = viewport.projection
    if threads == 1 || reads.count < 2 {
      for r in reads { _ = sources.ogrIndexed(r.source, near: r.near, fields: r.fields, projection: projection) }
      return
    }
    DispatchQueue.concurrentPerform(iterations: reads.count) { i in
      _ = sources.ogrIndexed(reads[i].source, near: reads[i].near, fields: reads[i].fields, projection: projection)
    }
  }

  /// The degrees an `ogr` read covers for a layer reaching `reach` logical
  /// pixels beyond the frame: the frame grown by it, clamped to the world;
  /// nil (everything) for a NaN reach.
  func ogrNear(reach: Double) -> Rect? {
    guard reach.isFinite else { return nil }
    let e = viewport.extent.insetBy(-(reach * viewport.unitsPerPixel))
    let a = viewport.projection.unproject(Point(e.minX, e.minY))
    let b = viewport.projection.unproject(Point(e.maxX, e.maxY))
    return Rect(minX: max(-180, a.lon), minY: max(-90, a.lat), maxX: min(180, b.lon), maxY: min(90, b.lat))
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
struct LayerResolver {
  let map: MapResolver
  let layer: Layer
  var state: LayerState
  let draws: Bool
  /// The feature ids of this layer that view annotations name, or nil when
  /// none does.
  let tiedIDs: [FloorValue]?
  let icons: IconCache
  /// The icons this layer loaded, by path.
  var loadedIcons: [String: RasterImage] = [:]
  /// The digest of each icon file looked up (`IconCache.entry(atPath:)`).
  var loadedIconDigests: [String: String] = [:]
  /// Icons already looked up for this layer (nil: failed).
  private var iconResults: [String: RasterImage?] = [:]
  /// For a features layer: each drawable's position in the source's
  /// `features`, ascending (drawables are in feature order).
  private var drawnPositions: [Int32] = []
  /// The properties a feature's digest key covers (`FeatureKeyDigest`).
  var keyFields: [String] = []
  /// True when the source's ids are an `ogr` layer's FIDs, which key nothing.
  private var idsAreFIDs = false
  /// How many features of this frame had each digest key so far.
  private var digestsSeen: [String: Int] = [:]
  /// The reach (logical pixels; NaN: the whole layer) this frame's `ogr`
  /// read was asked for, whichever read served it.
  var ogrRequestReach: Double? = nil

  init(map: MapResolver, layer: Layer, state: LayerState, draws: Bool, tiedIDs: [FloorValue]?, icons: IconCache) {
    self.map = map
    self.layer = layer
    self.state = state
    self.draws = draws
    self.tiedIDs = tiedIDs
    self.icons = icons
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
      if key != nil { state.sourceContent = ContentDigest("error: \(error)") }
      return nil
    case .success(let index):
      let collection = index.collection
      idsAreFIDs = collection.idsAreFIDs
      if key != nil { state.sourceContent = collection.content }
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
  private mutating func loadOGR(_ o: OGRSource, from sources: SourceLoader, reach: Double, fields: Set<String>?) -> SourceIndex? {
    ogrRequestReach = reach
    switch sources.ogrIndexed(o, near: map.ogrNear(reach: reach), fields: fields, projection: viewport.projection) {
    case .failure(let error):
      state.add(.source(error))
      state.sourceContent = ContentDigest("error: \(error)")
      return nil
    case .success(let (index, info)):
      let collection = index.collection
      idsAreFIDs = collection.idsAreFIDs
      state.sourceContent = collection.content
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

  /// How far beyond the frame, in logical pixels, an `ogr` source's
  /// features are read for a features layer: the farthest reach of the
  /// symbols of its rules in scale and of their labels, these taken at
  /// `OGRSource.labelTextBound` (the texts themselves are not known before
  /// reading). 0 for other sources. NaN (the whole layer) when view
  /// annotations name features of the layer: a named feature may lie
  /// anywhere, and its fate (drawn, off the frame, not drawn, no such id)
  /// must be the one the same data gives as GeoJSON.
  mutating func ogrReach(_ source: Source, styling: Styling) -> Double {
    guard case .ogr = source else { return 0 }
    if tiedIDs != nil { return .nan }
    var farthest = 0.0
    for rule in rulesInScale(styling) {
      var reach = SymbolReach.style(rule.style, icon: icon(of: rule.style.marker))
      if let ls = rule.style.label { reach = Self.farther(reach, SymbolReach.label(OGRSource.labelTextBound, style: ls, advance: ogrAdvance)) }
      farthest = Self.farther(farthest, reach)
    }
    return farthest
  }

  /// The same for an annotation layer: its largest text at the bound.
  func ogrReach(_ anno: AnnotationLayer) -> Double {
    guard case .ogr = anno.source else { return 0 }
    return boundedReach(anno)
  }

  /// How far, in logical pixels, an annotation layer's texts of at most
  /// `OGRSource.labelTextBound` reach: the reach of an `ogr` read, and
  /// the one sublayer totals count within for every source kind.
  func boundedReach(_ anno: AnnotationLayer) -> Double {
    annotationReach(anno, extent: OGRSource.labelTextBound, advance: ogrAdvance)
  }

  /// How far a feature's label of `style` can reach (logical pixels): at
  /// the source's largest text of the label's field; for an `ogr` source,
  /// at the bound its read was made for (`ogrReach`), so that the features
  /// examined do not depend on which read, the frame's own or a larger kept
  /// one, serves the frame.
  private func labelReach(_ style: LabelStyle, index: SourceIndex) -> Double {
    if case .features(let source, _) = layer.content, isOGR(source) {
      return SymbolReach.label(OGRSource.labelTextBound, style: style, advance: ogrAdvance)
    }
    return SymbolReach.label(index.textExtent(style.text), style: style, advance: map.maxAdvance)
  }

  private func isOGR(_ source: Source) -> Bool {
    if case .ogr = source { return true }
    return false
  }

  /// The widest character of a text not yet read: the fonts' widest, but
  /// at most `OGRSource.labelAdvanceBound`.
  private var ogrAdvance: Double { min(map.maxAdvance, OGRSource.labelAdvanceBound) }

  /// The farthest reach of `anno`'s sublayers for texts of `extent` whose
  /// characters are at most `advance` ems wide (the fonts' widest unless
  /// told), each capped at `maxListedReach` (`SymbolReach.annotation`).
  private func annotationReach(_ anno: AnnotationLayer, extent: TextExtent, advance: Double? = nil) -> Double {
    let factor = anno.referenceScale / viewport.scale
    var farthest = 0.0
    for sub in anno.sublayers {
      let bound = SymbolReach.annotation(extent, style: sub.style, factor: factor, advance: advance ?? map.maxAdvance)
      farthest = Self.farther(farthest, bound.isNaN ? bound : min(bound, Self.maxListedReach))
    }
    return farthest
  }

  /// The property names a features layer uses, each under the key of the
  /// scene that names it: its rules' `where`, its labels' texts, its
  /// `floorField` and `idField`. An `ogr` read makes properties of these
  /// fields alone (`fields`).
  func propertyNames(_ styling: Styling) -> [(key: String, property: String)] {
    var names: [(key: String, property: String)] = []
    switch styling {
    case .single(let s):
      if let label = s.label { names += Self.templateNames("style.label", label.text) }
    case .rules(let rules):
      for (i, r) in rules.enumerated() {
        for c in r.filter.clauses { names.append(("rules[\(i)].where", c.property)) }
        if let label = r.style.label { names += Self.templateNames("rules[\(i)].style.label", label.text) }
      }
    }
    checkCommonProperties(&names)
    return names
  }

  /// The same for an annotation layer: its `textField`, `angleField`,
  /// sublayers' `where`, `floorField` and `idField`.
  func propertyNames(_ anno: AnnotationLayer) -> [(key: String, property: String)] {
    var names = Self.templateNames("", anno.text, field: "textField")
    if let a = anno.angleField { names.append(("angleField", a)) }
    for (i, s) in anno.sublayers.enumerated() {
      for c in s.filter.clauses { names.append(("sublayers[\(i)].where", c.property)) }
    }
    checkCommonProperties(&names)
    return names
  }

  /// The fields an `ogr` read makes properties of for a layer that uses
  /// `names`.
  static func fields(_ names: [(key: String, property: String)]) -> Set<String> { Set(names.map(\.property)) }

  /// The keys a text template's properties are checked under:
  /// `label.field` for a field, `label.text` for a template.
  private static func templateNames(_ prefix: String, _ t: TextTemplate, field: String = "field") -> [(key: String, property: String)] {
    let key = (prefix.isEmpty ? "" : prefix + ".") + (t.isField ? field : "text")
    return t.properties.map { (key, $0) }
  }

  private func checkCommonProperties(_ names: inout [(key: String, property: String)]) {
    if let f = layer.floorField { names.append(("floorField", f)) }
    if let f = layer.idField { names.append(("idField", f)) }
  }

  /// Warns about each of `names` (`propertyNames`) that no feature of the
  /// layer's source has. Rule: a name is unknown when the source has
  /// features and none of them has a property of that name (of any value,
  /// null included; a fixed schema's fields are every feature's, read into
  /// properties or not). The hint is
  /// the closest existing name (case-insensitive edit distance at most 2).
  /// A name used by several keys is one problem naming every key. The
  /// source's names are an aggregate of its index, gathered once.
  mutating func checkProperties(_ names: [(key: String, property: String)], of index: SourceIndex) {
    let collection = index.collection
    guard !collection.features.isEmpty || !collection.withoutGeometry.isEmpty else { return }
    let known = index.propertyNames()
    var unknown: [(property: String, keys: [String])] = []
    for (key, property) in names {
      if let k = unknown.firstIndex(where: { $0.property == property }) {
        if !unknown[k].keys.contains(key) { unknown[k].keys.append(key) }
        continue
      }
      if known.set.contains(property) { continue }
      unknown.append((property, [key]))
    }
    let all = known.ordered
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
    let (result, digest) = icons.entry(atPath: path)
    loadedIconDigests[path] = digest
    switch result {
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
  ///
  /// Only the features the source's index returns are looked at: those whose
  /// bounds, grown by the farthest any feature's symbols and label can reach
  /// at this scale, meet the frame. Every other feature would fail the exact
  /// test in `add` (its own reach is no farther), so the drawables are the
  /// same as a scan's, in feature order. Features on other floors are
  /// counted over the whole source, once per floor (`otherFloorCount`).
  mutating func resolveFeatures(_ index: SourceIndex, styling: Styling) {
    guard draws else { return }
    let rules = rulesInScale(styling)
    // Per rule: its icon and how far its symbols reach (logical pixels).
    var reaches: [Double] = []
    for r in rules { reaches.append(SymbolReach.style(r.style, icon: icon(of: r.style.marker))) }
    // The farthest any feature can reach: each rule's symbols, and its label
    // at the source's largest text of the label's field.
    var farthest = 0.0
    for (r, rule) in rules.enumerated() {
      var reach = reaches[r]
      if let ls = rule.style.label {
        if ls.placement == .point {
          reach = Self.farther(reach, labelReach(ls, index: index))
        }
      }
      farthest = Self.farther(farthest, reach)
    }
    if let floor = map.floor, let field = layer.floorField {
      state.features.otherFloor = index.otherFloorCount(field: field, floor: floor)
    }
    let features = index.collection.features
    let candidates = index.features(near: viewport.extent, reach: farthest * viewport.unitsPerPixel)
    state.examinedFeatures += candidates.count
    state.drawables.reserveCapacity(candidates.count)
    for position in candidates {
      let feature = features[Int(position)]
      if isOnOtherFloor(feature) { continue }
      guard let r = rules.firstIndex(where: { $0.filter.matches(feature.properties) }) else { continue }
      let style = rules[r].style
      var reach = reaches[r]
      var label: LabelRequest? = nil
      if let ls = style.label {
        let text = ls.text.text(feature.properties)
        var request = LabelRequest(text: text, skip: nil)
        if text == nil {
          request.skip = .noText
        } else if ls.size * viewport.pixelRatio < FontLibrary.minTextSize {
          request.skip = .tooSmall
        } else {
          reach = max(reach, SymbolReach.label(text!, style: ls, advance: map.maxAdvance))
        }
        label = request
      }
      // Only labels and `collides` markers name their feature in a report,
      // and only a feature that reaches the frame is keyed.
      guard meetsFrame(feature.geometry, reach) else { continue }
      let k = key(feature, at: Int(position), in: index, digest: label != nil || style.marker?.collides == true)
      if case .drawable = add(Drawable(geometry: feature.geometry, style: style, feature: k, label: label), reach: reach) {
        drawnPositions.append(position)
      }
    }
  }

  /// The rules that can match at this scale (one for a single style).
  private func rulesInScale(_ styling: Styling) -> [Rule] {
    switch styling {
    case .single(let s): return [Rule(style: s)]
    case .rules(let all): return all.filter { $0.scaleRange.contains(viewport.scale) }
    }
  }

  /// True when the map has a floor and `feature` is on another (by the
  /// layer's `floorField`).
  private func isOnOtherFloor(_ feature: Feature) -> Bool {
    guard let floor = map.floor, let field = layer.floorField else { return false }
    return SourceIndex.isOnOtherFloor(feature, field: field, floor: floor)
  }

  /// The larger reach; NaN when either is (a query then returns everything).
  static func farther(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : max(a, b)
  }

  /// Records, for the ids this layer's view annotations name, what became
  /// of their features (see `TiedFeature`), and every id of the source for
  /// hints. Only the named ids' features are looked at, through the
  /// source's id index: the first drawn wins, then any off the frame, then
  /// any not drawn (on another floor, taken by no rule, without geometry).
  mutating func tieFeatures(of index: SourceIndex, styling: Styling) {
    guard let named = tiedIDs else { return }
    let ids = index.featureIDs(field: layer.idField)
    state.featureIDs = ids.sortedTexts
    let features = index.collection.features
    let rules = draws ? rulesInScale(styling) : []
    for id in named {
      guard let positions = ids.positions[id] else { continue }
      var fate = TiedFeature.notDrawn
      for p in positions where draws && Int(p) < features.count {
        let f = features[Int(p)]
        if f.geometry.isEmpty || isOnOtherFloor(f) || !rules.contains(where: { $0.filter.matches(f.properties) }) { continue }
        if let k = drawableIndex(ofPosition: p) {
          fate = .drawable(k)
          break
        }
        fate = .offFrame
      }
      state.tiedFeatures[id] = fate
    }
  }

  /// View annotations cannot name an annotation layer (the scene decoder
  /// refuses it); for a scene built otherwise, the features of such a layer
  /// without geometry are not drawn and its other features are not tied.
  mutating func tieAnnotationFeatures(of index: SourceIndex) {
    guard let named = tiedIDs else { return }
    var fates: [FloorValue: TiedFeature] = [:]
    for f in index.collection.withoutGeometry {
      if let id = FeatureIDIndex.id(of: f, idField: layer.idField) { fates[id] = .notDrawn }
    }
    state.featureIDs = fates.keys.map(\.text).sorted()
    for id in named { state.tiedFeatures[id] = fates[id] }
  }

  /// The index in `drawables` of the feature at `position` in the source's
  /// `features`, when it is drawn.
  private func drawableIndex(ofPosition position: Int32) -> Int? {
    var low = 0
    var high = drawnPositions.count
    while low < high {
      let mid = (low + high) / 2
      if drawnPositions[mid] < position { low = mid + 1 } else { high = mid }
    }
    return low < drawnPositions.count && drawnPositions[low] == position ? low : nil
  }

  /// Graphics: each with its own style, left out on other floors.
  mutating func resolveGraphics(_ graphics: [Graphic]) {
    defer { keepNamedTies() }
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
      let drawable = Drawable(geometry: g.geometry.projected(to: viewport.projection), style: g.style, feature: key, label: nil)
      tie(key, add(drawable, reach: reach))
    }
  }

  /// The feature's key (`FeatureKey`'s rule): its id, else its digest
  /// (when `digest`: the key is named by the report), numbered among the
  /// layer's features keyed in this frame in read order (features of one
  /// digest share geometry, style and used properties, so they reach the
  /// frame together and in no order that matters).
  private mutating func key(_ f: Feature, at position: Int, in index: SourceIndex, digest wanted: Bool = true) -> FeatureKey {
    let own = idsAreFIDs ? nil : f.id
    if let id = (layer.idField.flatMap { f.properties[$0] } ?? own).flatMap(FloorValue.init(json:)) {
      return FeatureKey(id: id, index: f.index)
    }
    guard wanted else { return FeatureKey(id: nil, index: f.index) }
    let digest = index.digestKey(position, fields: keyFields, projection: viewport.projection)
    let n = (digestsSeen[digest] ?? 0) + 1
    digestsSeen[digest] = n
    return FeatureKey(id: nil, index: f.index, digest: n == 1 ? digest : "\(digest)-\(n)")
  }

  /// True when `g`, grown by `reach` logical pixels, meets the frame: the
  /// exact test `add` makes.
  private func meetsFrame(_ g: Geometry, _ reach: Double) -> Bool {
    !g.isEmpty && g.bounds.insetBy(-reach * viewport.unitsPerPixel).intersects(viewport.extent)
  }

  /// Keeps `d` when its geometry, grown by `reach` logical pixels, meets the
  /// frame (the exact test); returns what became of it.
  @discardableResult
  private mutating func add(_ d: Drawable, reach: Double) -> TiedFeature {
    guard !d.geometry.isEmpty else { return .notDrawn }
    guard meetsFrame(d.geometry, reach) else { return .offFrame }
    state.drawables.append(d)
    return .drawable(state.drawables.count - 1)
  }

  /// Records what became of a graphic for view annotations tied to it. With
  /// several graphics of one id, the first drawn one wins, then any off the
  /// frame, then any not drawn.
  private mutating func tie(_ key: FeatureKey, _ fate: TiedFeature) {
    guard tiedIDs != nil, let id = key.id else { return }
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

  /// Keeps, of a graphics layer's tied graphics, those of the named ids,
  /// and lists every id for hints.
  private mutating func keepNamedTies() {
    guard let named = tiedIDs else { return }
    state.featureIDs = state.tiedFeatures.keys.map(\.text).sorted()
    state.tiedFeatures = state.tiedFeatures.filter { named.contains($0.key) }
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
  ///
  /// Only the anchors the source's point index returns are looked at: those
  /// within the farthest any text can reach at this scale (each sublayer's
  /// size at the source's largest text, capped as each text is). A
  /// sublayer's `total` counts its features that can reach the frame: a
  /// text listed whose anchor lies within `boundedReach` of the frame, what
  /// an `ogr` read holds, so that a file (which holds the whole source)
  /// and a dataset count alike; `otherFloor` those of them on another
  /// floor, where the layer draws.
  mutating func resolveAnnotations(_ index: SourceIndex, _ anno: AnnotationLayer) {
    let frame = viewport.extent
    let factor = anno.referenceScale / viewport.scale
    // An `ogr` read holds part of the dataset (and a kept read may hold more
    // than this frame asked for): its labels reach as far as the read was
    // made for, never as far as the texts it happens to hold, so the same
    // frame examines the same features whichever read serves it.
    let farthest = isOGR(anno.source) ? boundedReach(anno) : annotationReach(anno, extent: index.textExtent(anno.text))
    let anchors = index.annotationPoints(near: frame.insetBy(-(farthest * viewport.unitsPerPixel)))
    let bound = boundedReach(anno)
    let counted = bound.isNaN ? nil : frame.insetBy(-(bound * viewport.unitsPerPixel))
    let features = index.collection.features
    var next = 0
    while next < anchors.count {
      let position = anchors[next].feature
      // This feature's anchors: anchors[next..<end], in part order.
      var end = next + 1
      while end < anchors.count && anchors[end].feature == position { end += 1 }
      defer { next = end }
      state.examinedFeatures += 1
      let feature = features[position]
      guard let s = anno.sublayers.firstIndex(where: { $0.filter.matches(feature.properties) }) else { continue }
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
      if isOnOtherFloor(feature) { hidden = hidden ?? .floor }
      let text = anno.text.text(feature.properties)
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
      let reach =
        min(SymbolReach.annotation(TextExtent(text ?? ""), style: style, factor: factor, advance: map.maxAdvance), Self.maxListedReach)
        * viewport.unitsPerPixel
      let grown = frame.insetBy(-reach)
      var key: FeatureKey? = nil
      var isCounted = false
      for a in anchors[next..<end] {
        let p = feature.geometry.points[a.part]
        let box = Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
        guard grown.intersects(box) else { continue }
        if key == nil { key = self.key(feature, at: Int(position), in: index) }
        if !isCounted && counted?.intersects(box) ?? true {
          isCounted = true
          state.sublayers[s].features.total += 1
          // Counted, as for features layers, only where the layer draws.
          if draws && isOnOtherFloor(feature) {
            state.sublayers[s].features.otherFloor += 1
            state.features.otherFloor += 1
          }
        }
        state.annotations.append(
          AnnotationText(
            feature: key!, part: a.part, sublayer: s, point: p, text: text ?? "", angle: angle, size: size, haloWidth: halo,
            hidden: hidden))
      }
    }
  }

  /// Texts farther than this many logical pixels from the frame are not
  /// listed, whatever their size: larger than any image side.
  static let maxListedReach = 65536.0
}
