import ArgumentParser
import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// `mapsnap batch MANIFEST`: many frames in one process (scene format
/// section 8).
struct Batch: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render the frames of a manifest (JSON Lines) in one process.",
    discussion: """
      Each line is a JSON object: {"scene": "a.json", "output": "out/a.png"} plus any of scale, zoom, \
      center, size, pixelRatio, floor, bounds, padding, fit ({"layer", "id"}), report (a path) and \
      overlays (markers, highlighted features, GeoJSON); paths are relative to the manifest's folder. \
      The whole manifest is checked before any frame is drawn.

      Exit status: 0 every frame rendered (or skipped by --resume); 1 some frames failed (each is \
      reported with its line number; the others are written); 2 the manifest is invalid (nothing is \
      drawn); 64 usage error.
      """
  )

  @Argument(help: "The manifest: JSON Lines, one frame per line (blank lines are skipped but counted).")
  var manifest: String

  @Option(parsing: .unconditional, help: "Frames drawn at once (0 = one per processor available: the affinity mask and cgroup CPU quota count).")
  var jobs = 0

  @Option(help: ArgumentHelp("Render only the lines whose index (line number − 1) is I modulo N; N shards render every line once.", valueName: "I/N"))
  var shard: String?

  @Flag(help: "Skip a line whose output exists and was made from the same inputs (the digest kept in the PNG).")
  var resume = false

  @Option(help: ArgumentHelp("Write a JSON summary: counts, failures with line numbers, timings.", valueName: "file"))
  var summary: String?

  @Flag(help: "No progress output (failures and the final line are still printed).")
  var quiet = false

  @Option(name: .customLong("report-detail"), help: "full: every label and annotation text in reports (the default); counts: counts only.")
  var reportDetail: Render.ReportDetailOption = .full

  @Flag(help: "A frame fails (no output) when a layer's source cannot be loaded.")
  var strict = false

  @Option(help: "PNG compression: fast (ISA-L igzip), balanced (zlib level 2) or small (zlib level 9).")
  var compression: Render.Compression = .fast

  @OptionGroup var paletteFlags: PaletteFlags

  @Option(name: .customLong("font-dir"), help: ArgumentHelp("A folder of .ttf/.otf fonts to use before the bundled ones (repeatable).", valueName: "folder"))
  var fontDirs: [String] = []

  @Option(
    name: .customLong("max-pixels"), parsing: .unconditional,
    help: ArgumentHelp("The most device pixels a frame may have (a larger frame fails). Default 1073741824 (2^30); at most 2^36.", valueName: "pixels"))
  var maxPixels: Int = FrameSizeLimit.defaultMaxPixels

  @OptionGroup var files: FileOptions

  mutating func validate() throws {
    try CountOptions.checkMaxPixels(maxPixels)
    try CountOptions.checkWorkers("--jobs", jobs)
    if let s = shard, parseShard(s) == nil {
      throw ValidationError("--shard must be I/N with 0 ≤ I < N (for example 0/4 … 3/4), got \(Echo.quoted(s))")
    }
  }

  func run() throws {
    var options = BatchOptions()
    options.jobs = jobs
    options.shard = shard.flatMap(parseShard) ?? (0, 1)
    options.resume = resume
    options.encoding = paletteFlags.settings.applied(to: compression.encoding)
    options.reportDetail = reportDetail == .full ? .full : .counts
    options.fontDirectories = fontDirs
    options.strict = strict
    options.root = try files.settings.confinement()
    options.maximumSourceBytes = files.settings.maxSourceBytes
    options.maxPixels = maxPixels
    let reader = ManifestReader(path: manifest)
    let started = monotonicSeconds()
    let counted: (frames: Int, inShard: Int, lines: Int)
    do {
      counted = try reader.validate(shard: options.shard)
    } catch {
      printError(error.description)
      if let summary { writeSummary(BatchSummary(manifest: manifest, options: options, invalid: error), to: summary) }
      throw ExitStatus.invalidInput.code
    }
    let progress = BatchProgress(total: counted.inShard, manifest: manifest, quiet: quiet)
    let runner = BatchRunner(manifest: reader, options: options)
    do {
      try runner.run { outcome in progress.record(outcome) }
    } catch {
      printError(error.description)
      throw ExitStatus.failed.code
    }
    let result = progress.finish(seconds: monotonicSeconds() - started)
    var written = true
    if let summary {
      written = writeSummary(
        BatchSummary(manifest: manifest, options: options, frames: counted.frames, outcomes: result.outcomes, seconds: result.seconds), to: summary)
    }
    // A summary that could not be written is a failure of the work too.
    if result.failed > 0 || !written { throw ExitStatus.failed.code }
  }

  /// Writes the summary (staged and renamed); false, with the error printed, when it cannot.
  @discardableResult
  private func writeSummary(_ s: BatchSummary, to path: String) -> Bool {
    var bytes = JSONWriter().writeBytes(s.json)
    bytes.append(10)
    do {
      try OutputTarget(path).write(bytes, createDirectories: true)
    } catch {
      printError("error: --summary: \(error)")
      return false
    }
    return true
  }
}

/// `I/N` with 0 ≤ I < N.
func parseShard(_ s: String) -> (index: Int, count: Int)? {
  let parts = s.split(separator: "/", omittingEmptySubsequences: false)
  guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
  return (i, n)
}
