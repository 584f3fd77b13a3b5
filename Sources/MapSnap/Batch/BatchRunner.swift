import Dispatch
import Synchronization

internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

/// Renders the frames of a batch manifest in one process (scene format
/// section 8) in one `RenderSession`, which shares between frames what does
/// not change (parsed scenes, sources, icons, tiles, file digests, and per
/// worker a font library with its glyph masks) and takes each frame through
/// plan → warnings → strict → digest → write.
///
/// Frames run `jobs` at a time, each on one thread; every output is
/// byte-identical to the single-frame render of the same line (the
/// renderer's output does not depend on thread counts). Each output (and
/// report) is written to a temporary file beside it and renamed into place,
/// so it is complete or absent; missing folders are created. A failing line
/// is recorded and the others go on.
///
/// Memory is bounded by the caches' limits (`RenderSession.keptScenes`
/// scenes, `SourceLoader.limitBytes`, `TileCache.limitBytes` and its
/// mosaics, `IconCache.maximumIcons`) plus, per job, one frame's plan and
/// one strip of its pixels (frames are streamed to PNG: `FrameStream`);
/// lines are streamed from the manifest.
public final class BatchRunner: Sendable {
  public let manifest: ManifestReader
  public let options: BatchOptions

  /// The frames' shared caches and the sequence each frame goes through.
  public let session: RenderSession

  public init(manifest: ManifestReader, options: BatchOptions) {
    self.manifest = manifest
    self.options = options
    var o = RenderSession.Options()
    o.root = options.root
    o.confinesScenes = true
    o.maximumSourceBytes = options.maximumSourceBytes
    o.maxPixels = options.maxPixels
    o.strict = options.strict
    // Pooled fonts never throw: a library that cannot be loaded fails the frames with text.
    session = try! RenderSession(options: o, fonts: .pooled(directories: options.fontDirectories))
    // Read the umask before any worker creates a folder (reading it means
    // setting it for a moment).
    _ = FileIO.processUmask
  }

  /// Renders the lines of this shard. `total` is the number of frames in the
  /// shard (from `ManifestReader.validate`). `report` is called once per
  /// line as it finishes, from worker threads one at a time.
  /// - Throws: `ManifestError` when the manifest cannot be read again.
  public func run(report: @escaping @Sendable (FrameOutcome) -> Void) throws(ManifestError) {
    let jobs = options.jobs > 0 ? options.jobs : activeProcessorCount()
    let slots = DispatchSemaphore(value: jobs)
    let group = DispatchGroup()
    let reporting = Mutex<Void>(())
    var failure: ManifestError? = nil
    do throws(ManifestError) {
      try manifest.forEachFrame(shard: options.shard) { number, decoded in
        slots.wait()
        group.enter()
        DispatchQueue.global().async {
          let outcome: FrameOutcome
          switch decoded {
          case .success(let line): outcome = self.render(line)
          case .failure(let error):
            outcome = FrameOutcome(
              line: number, output: "", status: .failed("the line changed after the manifest was checked: \(error.message)"), seconds: 0)
          }
          reporting.withLock { _ in report(outcome) }
          slots.signal()
          group.leave()
        }
      }
    } catch {
      failure = error
    }
    group.wait()
    if let failure { throw failure }
  }

  /// One line: plan, check `--resume`, draw, encode, write.
  func render(_ line: ManifestLine) -> FrameOutcome {
    let start = monotonicSeconds()
    var outcome = draw(line)
    outcome.seconds = monotonicSeconds() - start
    return outcome
  }

  private func draw(_ line: ManifestLine) -> FrameOutcome {
    var outcome = FrameOutcome(line: line.number, output: line.output, status: .rendered, seconds: 0)
    var encoding = options.encoding
    encoding.threads = 1
    let frame = RenderSession.Frame(
      scene: line.scene, overrides: line.overrides, overlays: line.overlays, output: line.output, report: line.report,
      reportDetail: options.reportDetail, encoding: encoding, render: RenderOptions(threads: 1), fromManifest: true)
    let result = session.render(
      frame, planned: { _, warnings in outcome.warnings = warnings },
      skip: { digest in
        options.resume && Self.holds(digest, at: line.output, confinement: options.root) && (line.report.map(FileIO.isRegularFile) ?? true)
      })
    switch result {
    case .written: break
    case .skipped: outcome.status = .skipped
    case .invalid(let error): outcome.status = .failed(error.description)
    case .refused(let why): outcome.status = .failed(why)
    case .unwritten(let error): outcome.status = .failed("cannot write: \(error)")
    }
    return outcome
  }

  /// True when the file at `path` is a complete PNG (`CompletePNG`) holding
  /// `digest` in its `mapsnap-inputs` chunk (read from the first 64 KiB:
  /// the chunk follows the header). One file opened once; only its first
  /// 64 KiB and its chunk headers are read.
  static func holds(_ digest: String, at path: String, confinement: Confinement? = nil) -> Bool {
    guard let opened = try? FileIO.openForReading(path, confinement: confinement) else { return false }
    defer { close(opened.fd) }
    var head = [UInt8](repeating: 0, count: min(opened.size, 1 << 16))
    let n = head.withUnsafeMutableBytes { pread(opened.fd, $0.baseAddress, $0.count, 0) }
    guard n == head.count, PNGTextChunk.text(keyword: PNGTextChunk.inputsKeyword, in: head) == digest else { return false }
    return CompletePNG.check(fd: opened.fd, size: opened.size)
  }
}
