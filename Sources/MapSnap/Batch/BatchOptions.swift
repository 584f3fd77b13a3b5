/// How `BatchRunner` renders a manifest (the options of `mapsnap batch`).
public struct BatchOptions: Sendable {
  /// Frames drawn at once, each on one thread (0: one per processor).
  public var jobs = 0
  /// Render only the lines whose index is `shard.index` modulo `shard.count`.
  public var shard: (index: Int, count: Int) = (0, 1)
  /// Skip a line whose output exists and holds the same `InputDigest`
  /// (and whose report, if it asks for one, exists).
  public var resume = false
  public var encoding: PNGEncodingOptions = .fast
  public var reportDetail: ReportDetail = .full
  /// Folders of fonts to use before the bundled ones.
  public var fontDirectories: [String] = []
  /// A frame with a layer whose source cannot be loaded fails.
  public var strict = false
  /// `--root`: every path a manifest line or a scene names (the line's
  /// scene, output, report and overlay files; the scene's sources, icons
  /// and tile sets) must resolve inside it; a line naming one outside fails.
  public var root: Confinement? = nil
  /// The largest scene or GeoJSON source file read (`--max-source-bytes`).
  public var maximumSourceBytes = SourceLoader.defaultMaximumSourceBytes
  /// The most device pixels a frame may have (`--max-pixels`,
  /// `FrameSizeLimit`); a line asking for more fails.
  public var maxPixels = FrameSizeLimit.defaultMaxPixels

  public init() {}
}
