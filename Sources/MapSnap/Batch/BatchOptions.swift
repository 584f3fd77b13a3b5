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

  public init() {}
}
