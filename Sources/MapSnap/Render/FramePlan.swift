internal import _MapSnapRaster

/// The frame record: everything decided about a frame before any pixel is
/// drawn, one immutable record per stage, each written by its stage and only
/// read after: the resolved map (`state`: what each layer shows and why,
/// with marker icons and fonts loaded and checked), the placement (`text`,
/// `viewAnnotations`, `attribution`), and the draw record (`drawn`: what of
/// the display list reaches the image), joined per layer in `layers`. It is
/// the only input of the report (`ReportBuilder`) and `mapsnap explain`
/// (`Explanation`); `Snapshot.render` only rasterises its display list.
///
/// The seam for a second front end: a renderer that resolves a map and
/// places its text another way (a MapLibre style over vector tiles) produces
/// the same resolved-map and placement records, and from there the display
/// list, raster, encoders, report, `explain`, batch, `test` and `diff` serve
/// both.
public struct FramePlan {
  public let scene: Scene
  /// The resolved map: the resolver's decisions, never rewritten later.
  public let state: MapState
  /// What resolving loaded beside the state: icon and tile pixels, input
  /// digests, timings (`ResolvedInputs`).
  package let inputs: ResolvedInputs
  public let text: TextPlacement
  public let viewAnnotations: ViewAnnotationPlacement
  /// Per style layer of the state (by layer index), where its symbols were placed.
  var styleSymbols: [Int: StyleSymbolPlacement] = [:]

  /// The symbols of the frame's styles: how many were laid out and shown,
  /// and the seconds their layout took (part of the plan's resolve time;
  /// their placement is part of its text time). For benchmarks.
  package var styleSymbolFigures: (laidOut: Int, shown: Int, layoutSeconds: Double) {
    var laidOut = 0, shown = 0, seconds = 0.0
    for l in state.layers {
      guard let st = l.style else { continue }
      laidOut += st.symbolLayers.reduce(0) { $0 + $1.symbols.count }
      seconds += st.symbolLayoutSeconds
    }
    for p in styleSymbols.values { shown += p.layers.reduce(0) { $0 + $1.outcomes.filter(\.isShown).count } }
    return (laidOut, shown, seconds)
  }
  /// What the display list found reaches the pixels.
  public let drawn: DrawRecord
  /// Per layer of `state`: the layer joined with what placement and the
  /// display list recorded about it (`LayerRecord`).
  public let layers: [LayerRecord]
  /// The attribution line, when `map.attribution` asks for one.
  public let attribution: AttributionPlacement
  /// The scale bar and north arrow, when the map asks for them.
  public internal(set) var furniture = FurniturePlacement()
  /// The font files text was laid out with (every face of the library, in
  /// its order); empty when the scene has no text.
  public let fontFiles: [String]
  /// The frame in device pixels, ready to be cut into tiles.
  let displayList: DisplayList
  /// The library the text was laid out with (nil without text), held while
  /// the plan lives: it goes with the plan, not at the end of `make`, so a
  /// caller that keeps the plan to the end of the process (the `mapsnap`
  /// command) never spends time freeing it (its shaper's caches: about a
  /// millisecond, between planning and drawing).
  let fonts: FontLibrary?
  /// Seconds spent resolving (with fonts and icons), placing text and view
  /// annotations, and building the display list (with glyph masks): not a
  /// decision, so not part of the record a library user reads
  /// (`Snapshot.timings` hands them on).
  package let resolveTime: Double
  package let textTime: Double
  package let displayListTime: Double
  /// The font library lent to this frame by a pool (`BatchRunner`), held
  /// while the plan lives; nil when the caller owns its fonts.
  var fontLease: FontLease? = nil

  /// Resolves `scene` with `overrides` (its `ogr` datasets read on up to
  /// `threads` threads) and builds its display list on `threads` workers (0:
  /// one per processor; the state and the list are the same for any number):
  /// on more than one, the list's geometry (tiles and drawables, which need
  /// the state alone) while the text is placed, the rest after. Fonts load on first use when the scene has text and none are
  /// given (`FontLibrary.bundledDirectory`); pass `sources`, `icons`,
  /// `tiles` and `fonts` to share them across frames. With `digests`, the
  /// font files start being hashed for the input digest as soon as the
  /// fonts are chosen (`FileDigests.prefetch`), while the rest is planned;
  /// the bytes `ogr` reads keep for their digests are hashed by the worker
  /// that builds the geometry, after it (`ContentDigest`).
  /// - Throws: `SceneError` when the overrides and scene give no valid view,
  ///   or a style names a font that is not available.
  public static func make(
    _ scene: Scene, overrides: ViewOverrides = ViewOverrides(), sources: SourceLoader = SourceLoader(),
    fonts: FontLibrary? = nil, icons: IconCache = IconCache(), tiles: TileCache = TileCache(), threads: Int = 0,
    digests: FileDigests? = nil
  ) throws(SceneError) -> FramePlan {
    var scene = scene
    if let bearing = overrides.bearing {
      guard scene.isStyle else {
        throw SceneError(file: scene.file, kind: .invalidValue, expected: "no --bearing: a scene's map is drawn north up; --bearing turns a style's map")
      }
      scene.configureStyle { $0.bearing = bearing }
    }
    let viewport = try overrides.viewport(for: scene, projection: try MapResolver.projection(for: scene, tiles: tiles), sources: sources)
    var clock = monotonicSeconds()
    try MapResolver.checkSpatialReferences(of: scene)
    let library = try MapResolver.fonts(for: scene, given: fonts)
    if let library, let digests { digests.prefetch(library.faces.map(\.path)) }
    if let library { TextShaper.preload(paths: library.faces.map(\.path)) }
    let frame = FrameContext(viewport: viewport, floor: overrides.floor ?? scene.map.floor, fonts: library)
    let (state, inputs) = MapResolver(scene: scene, frame: frame).resolve(sources: sources, icons: icons, tiles: tiles, threads: threads)
    let resolveTime = lap(&clock)
    // The display list's geometry needs the state alone: on more than one
    // thread it is built on a worker while the text is placed here (most of
    // which runs on one thread). The same worker then hashes what the
    // `ogr` reads kept for the input digest (`ContentDigest`), off the
    // reads' path.
    let geometry =
      (threads > 0 ? threads : activeProcessorCount()) > 1
      ? DisplayListBuilder.GeometryBuild.start(state: state, inputs: inputs, threads: threads, then: Self.hashing(inputs)) : nil
    let placed = FramePlacement.place(scene: scene, state: state, fonts: library, threads: threads)
    let text = placed.text
    let (boxes, attribution) = (placed.boxes, placed.attribution)
    let textTime = lap(&clock)
    var builder = DisplayListBuilder(
      state: state, inputs: inputs, text: text, boxes: boxes.boxes, attribution: attribution.run, fonts: library, threads: threads,
      furniture: placed.furniture)
    builder.styleSymbols = placed.styleSymbols
    let (list, coverage) = builder.build(geometry: geometry?.take())
    let drawn = DrawRecord(state: state, text: text, coverage: coverage)
    var plan = FramePlan(
      scene: scene, state: state, inputs: inputs, text: text, viewAnnotations: boxes, drawn: drawn,
      layers: LayerRecord.join(state: state, text: text, drawn: drawn), attribution: attribution,
      fontFiles: library?.faces.map(\.path) ?? [], displayList: list, fonts: library, resolveTime: resolveTime,
      textTime: textTime, displayListTime: lap(&clock))
    plan.styleSymbols = placed.styleSymbols
    plan.furniture = placed.furniture
    return plan
  }

  /// What hashes the digests `inputs`' layers keep unhashed (their `ogr`
  /// reads' bytes), nil when there are none.
  private static func hashing(_ inputs: ResolvedInputs) -> (@Sendable () -> Void)? {
    let pending = inputs.layers.compactMap(\.sourceContent).filter(\.isPending)
    return pending.isEmpty ? nil : { @Sendable in for d in pending { _ = d.value } }
  }

  /// True when the frame's background is opaque: its PNG is then RGB, else
  /// RGBA (scene format section 6), decided before anything is drawn so that
  /// the frame can be streamed. The rule holds for every pixel: each band
  /// starts as the background, and every draw (fills, strokes, glyphs,
  /// images, group layers at any opacity) is source-over or replaces a pixel
  /// with an opaque one, and source-over onto an opaque pixel is opaque.
  public var isOpaque: Bool { displayList.background.a == 255 }

  /// The frame's size in device pixels.
  public var deviceSize: (width: Int, height: Int) { (displayList.width, displayList.height) }

  /// The warning for characters no font covers (they are not drawn), or nil.
  public var missingCodePointsWarning: String? {
    guard !text.missingCodePoints.isEmpty else { return nil }
    let names = text.missingCodePoints.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    return "no font covers \(names.joined(separator: ", ")); those characters are not drawn (add a font with --font-dir)"
  }

  /// Every warning, for standard error: each layer problem (`layers`), then
  /// each view annotation's.
  public var warnings: [String] {
    var out = MapState.warnings(layers.map { ($0.id, $0.problems) }) + viewAnnotations.warnings
    if let shaping = text.shaping, shaping.hasPrefix("unshaped: "), !text.fontsUsed.isEmpty {
      out.append("text is not shaped (\(shaping.dropFirst(10))): complex scripts and right-to-left text are drawn one character at a time")
    }
    return out
  }

  /// The report (section 6 of the format) as JSON, with every label and
  /// annotation text entry, or with counts only.
  public func report(detail: ReportDetail = .full) -> JSONValue {
    ReportBuilder(plan: self, detail: detail).build()
  }

  /// The full report.
  public var report: JSONValue { report() }
}

func lap(_ clock: inout Double) -> Double {
  let now = monotonicSeconds()
  defer { clock = now }
  return now - clock
}
