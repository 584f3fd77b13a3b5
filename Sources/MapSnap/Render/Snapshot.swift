public import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A rendered frame: its plan (every decision) and the pixels (`canvas`).
public struct Snapshot {
  public let plan: FramePlan
  public let canvas: Canvas
  /// Wall time of each stage in seconds.
  public let timings: Timings

  public struct Timings: Sendable {
    public var resolve: Double = 0
    /// Placing the text and, on more than one thread, building the display
    /// list's geometry side by side with it (`FramePlan.make`): the time
    /// until both are done.
    public var text: Double = 0
    /// The rest of the display list: its text, and putting it together.
    public var displayList: Double = 0
    public var rasterize: Double = 0
    /// Size of the display list: fill commands and fixed-point edges.
    public var fills = 0
    public var edges = 0
  }

  public var state: MapState { plan.state }
  /// The frame record's layers: each resolved layer with what placement and
  /// the display list recorded about it.
  public var layers: [LayerRecord] { plan.layers }
  /// Annotation and label text as laid out and placed.
  public var text: TextPlacement { plan.text }
  /// View annotations as resolved: outcomes and the boxes drawn.
  public var viewAnnotations: ViewAnnotationPlacement { plan.viewAnnotations }

  /// Plans and rasterises `scene` with `overrides` applied (see
  /// `FramePlan.make`). File sources load through `sources` (pass one loader
  /// to reuse its cache); pass `fonts` to keep glyph caches warm and `tiles`
  /// to decode each tile once across frames.
  /// - Throws: `SceneError` when the overrides and scene give no valid view,
  ///   or a style names a font that is not available.
  public static func render(
    _ scene: Scene, overrides: ViewOverrides = ViewOverrides(), options: RenderOptions = RenderOptions(),
    sources: SourceLoader = SourceLoader(), fonts: FontLibrary? = nil, tiles: TileCache = TileCache()
  ) throws(SceneError) -> Snapshot {
    let plan = try FramePlan.make(scene, overrides: overrides, sources: sources, fonts: fonts, tiles: tiles, threads: options.threads)
    return render(plan, options: options)
  }

  /// Rasterises a planned frame's display list into tiles; decides nothing.
  public static func render(_ plan: FramePlan, options: RenderOptions = RenderOptions()) -> Snapshot {
    var t = Timings()
    t.resolve = plan.resolveTime
    t.text = plan.textTime
    t.displayList = plan.displayListTime
    t.fills = plan.displayList.fillCount
    t.edges = plan.displayList.edgeCount
    var clock = monotonicSeconds()
    let canvas = Canvas(width: plan.displayList.width, height: plan.displayList.height)
    TileRenderer.render(plan.displayList, into: canvas, options: options)
    t.rasterize = lap(&clock)
    return Snapshot(plan: plan, canvas: canvas, timings: t)
  }

  /// The frame as PNG bytes (RGB when the background is opaque, RGBA
  /// otherwise: `FramePlan.isOpaque`), with one `tEXt` chunk, `mapsnap-inputs`, holding the
  /// frame's `InputDigest`: `report` is the detail of the report written
  /// beside it (nil: none), `files` caches the digests of the files it
  /// reads, across frames.
  public func pngData(options: PNGEncodingOptions = .fast, report: ReportDetail? = nil, files: FileDigests = FileDigests()) throws(PNGError) -> [UInt8] {
    try pngData(options: options, inputDigest: InputDigest.of(plan, encoding: options, report: report, files: files))
  }

  /// The PNG with `inputDigest` (computed already) in its chunk.
  public func pngData(options: PNGEncodingOptions = .fast, inputDigest: String) throws(PNGError) -> [UInt8] {
    let png = try PNGEncoder.encode(
      premultipliedRGBA: canvas.buffer, width: canvas.width, height: canvas.height, opaque: plan.isOpaque, options: options)
    return PNGTextChunk.inserting(keyword: PNGTextChunk.inputsKeyword, text: inputDigest, into: png)
  }

  /// The report (section 6 of the format) as JSON.
  public func report(detail: ReportDetail = .full) -> JSONValue { plan.report(detail: detail) }
  public var report: JSONValue { plan.report() }
}

/// Seconds from a monotonic clock.
package func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
