#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A rendered frame: the decisions (`state`) and the pixels (`canvas`).
public struct Snapshot: Sendable {
  public let state: MapState
  /// Annotation and label text as laid out and placed.
  public let text: TextPlacement
  /// View annotations as resolved: outcomes and the boxes drawn.
  public let viewAnnotations: ViewAnnotationPlacement
  public let canvas: Canvas
  /// Wall time of each stage in seconds.
  public let timings: Timings

  public struct Timings: Sendable {
    public var resolve: Double = 0
    public var text: Double = 0
    public var displayList: Double = 0
    public var rasterize: Double = 0
    /// Size of the display list: fill commands and fixed-point edges.
    public var fills = 0
    public var edges = 0
  }

  /// Resolves, lays out, builds and rasterises `scene` with `overrides`
  /// applied (see `FramePlan.make`). File sources load through `sources`
  /// (pass one loader to reuse its cache); pass `fonts` to keep glyph caches
  /// warm across frames.
  /// - Throws: `SceneError` when the overrides and scene give no valid view,
  ///   or a style names a font that is not available.
  public static func render(
    _ scene: Scene, overrides: ViewOverrides = ViewOverrides(), options: RenderOptions = RenderOptions(),
    sources: SourceLoader = SourceLoader(), fonts: FontLibrary? = nil
  ) throws(SceneError) -> Snapshot {
    let plan = try FramePlan.make(scene, overrides: overrides, sources: sources, fonts: fonts)
    return render(plan, options: options)
  }

  /// Draws a resolved frame.
  public static func render(_ plan: FramePlan, options: RenderOptions = RenderOptions()) -> Snapshot {
    var t = Timings()
    t.resolve = plan.resolveTime
    t.text = plan.textTime
    var clock = monotonicSeconds()
    let list = DisplayListBuilder(
      state: plan.state, text: plan.text, boxes: plan.viewAnnotations.boxes, icons: plan.icons, threads: options.threads
    ).build()
    t.displayList = lap(&clock)
    t.fills = list.fillCount
    t.edges = list.edgeCount
    let canvas = Canvas(width: list.width, height: list.height)
    TileRenderer.render(list, into: canvas, options: options)
    t.rasterize = lap(&clock)
    return Snapshot(state: plan.state, text: plan.text, viewAnnotations: plan.viewAnnotations, canvas: canvas, timings: t)
  }

  /// The frame as PNG bytes (RGB when every pixel is opaque, RGBA otherwise).
  public func pngData(options: PNGEncodingOptions = .fast) throws(PNGError) -> [UInt8] {
    try PNGEncoder.encode(premultipliedRGBA: canvas.buffer, width: canvas.width, height: canvas.height, options: options)
  }

  /// The report (section 6 of the format) as JSON.
  public var report: JSONValue { ReportBuilder(state: state, text: text, viewAnnotations: viewAnnotations).build() }
}

/// Seconds from a monotonic clock.
public func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

