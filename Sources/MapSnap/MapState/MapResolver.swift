internal import _MapSnapRaster
import Dispatch
import Synchronization

/// Decides, for one frame, what every layer shows and why: visibility, scale
/// ranges (inclusive, section 2), style rules (first match wins), floors
/// (section 5), which features can reach the frame, labels with nothing to
/// place, annotation texts and why each is hidden, marker icons, and names
/// of properties that match nothing. Every decision is recorded in the
/// returned `MapState` with its reason; what was loaded to decide (pixels,
/// digests, timings) goes beside it, in `ResolvedInputs`.
struct MapResolver {
  let scene: Scene
  /// The frame resolved, worked out once by `FramePlan.make`.
  let frame: FrameContext

  /// A resolver for `scene` in `frame`, whose `maxAdvance` is that of the
  /// fonts its text will be drawn with (see `MapResolver.fonts(for:given:)`).
  init(scene: Scene, frame: FrameContext) {
    self.scene = scene
    self.frame = frame
  }

  /// A resolver for `scene` framed by `viewport` on `floor`; `fonts` are the
  /// fonts its text will be drawn with.
  init(scene: Scene, viewport: Viewport, floor: FloorValue?, fonts: FontLibrary? = nil) {
    self.init(scene: scene, frame: FrameContext(viewport: viewport, floor: floor, fonts: fonts))
  }

  var viewport: Viewport { frame.viewport }
  var floor: FloorValue? { frame.floor }
  /// The widest glyph advance of the fonts text is drawn with, in ems.
  var maxAdvance: Double { frame.maxAdvance }

  /// Resolves every layer, loading file sources through `sources` and marker
  /// icons through `icons` (pass the same caches to share them across frames):
  /// the decisions (`MapState`) and, beside them, what was loaded to make
  /// them (`ResolvedInputs`). `threads` bounds the threads that read `ogr`
  /// datasets side by side (0: one per processor; 1: one after another, as
  /// a batch's workers do); both are the same for any number.
  func resolve(
    sources: SourceLoader, icons: IconCache = IconCache(), tiles: TileCache = TileCache(), threads: Int = 0
  ) -> (state: MapState, inputs: ResolvedInputs) {
    // Per layer, the feature ids its view annotations name, each once.
    var annotatedIDs: [String: [FeatureID]] = [:]
    for a in scene.viewAnnotations {
      guard case .feature(let layer, let id) = a.target else { continue }
      if !(annotatedIDs[layer]?.contains(id) ?? false) { annotatedIDs[layer, default: []].append(id) }
    }
    // Each layer starts with what it reads, from which the frame's `ogr`
    // reads are made; then each is resolved on its own (its sources are
    // read by now), side by side, and taken in order.
    let count = scene.layers.count
    let layers = UnsafeMutableBufferPointer<LayerResolver>.allocate(capacity: count)
    _ = layers.initialize(from: scene.layers.indices.map { i in
      LayerResolver(map: self, index: i, annotatedIDs: annotatedIDs[scene.layers[i].id], icons: icons)
    })
    defer {
      layers.deinitialize()
      layers.deallocate()
    }
    readOGR(layers, sources: sources, threads: threads)
    let loaded = loadFiles(sources: sources, threads: threads)
    let job = LayerJobs(layers: layers, loaded: loaded)
    if threads == 1 || count < 2 {
      for i in 0..<count { job.run(i, sources: sources, tiles: tiles) }
    } else {
      DispatchQueue.concurrentPerform(iterations: count) { i in job.run(i, sources: sources, tiles: tiles) }
    }
    var icons: [String: RasterImage] = [:]
    var iconDigests: [String: String] = [:]
    for l in layers {
      icons.merge(l.loadedIcons) { _, later in later }
      iconDigests.merge(l.loadedIconDigests) { first, _ in first }
    }
    let state = MapState(
      frame: frame, background: scene.map.background, layers: layers.map(\.state), iconSizes: icons.mapValues(IconSize.init))
    return (state, ResolvedInputs(icons: icons, iconDigests: iconDigests, layers: layers.map(\.inputs)))
  }

  /// The layers to resolve, handed to the workers: each resolves the
  /// layers it takes in their own slots of `layers`, and only reads
  /// `loaded`. `SourceLoader`, `IconCache` and `TileCache` are thread-safe;
  /// PROJ transforms are serialised by `CRSTransform`.
  private struct LayerJobs: @unchecked Sendable {
    let layers: UnsafeMutableBufferPointer<LayerResolver>
    let loaded: [String: Result<SourceIndex, SourceError>]

    func run(_ i: Int, sources: SourceLoader, tiles: TileCache) {
      layers[i].resolve(sources: sources, loaded: loaded, tiles: tiles)
    }
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
