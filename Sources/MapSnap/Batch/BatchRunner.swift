import Dispatch
import Synchronization

internal import _MapSnapRaster

#if canImport(Glibc)
  import Glibc
#endif

/// Renders the frames of a batch manifest in one process (scene format
/// section 8), sharing between frames what does not change: parsed scenes,
/// decoded sources with their spatial index (`SourceLoader`), marker icons
/// (`IconCache`), tiles and mosaics (`TileCache`), file digests
/// (`FileDigests`), and per worker a font library with its glyph masks.
///
/// Frames run `jobs` at a time, each on one thread; every output is
/// byte-identical to the single-frame render of the same line (the
/// renderer's output does not depend on thread counts). Each output (and
/// report) is written to a temporary file beside it and renamed into place,
/// so it is complete or absent; missing folders are created. A failing line
/// is recorded and the others go on.
///
/// Memory is bounded by the caches' limits (`BatchRunner.keptScenes`
/// scenes, `SourceLoader.limitBytes`, `TileCache.limitBytes` and its
/// mosaics, `IconCache.maximumIcons`) plus, per job, one frame's plan and
/// one strip of its pixels (frames are streamed to PNG: `FrameStream`);
/// lines are streamed from the manifest.
public final class BatchRunner: Sendable {
  public let manifest: ManifestReader
  public let options: BatchOptions

  /// Parsed scenes kept (the oldest dropped first): scenes are small, and a
  /// batch usually shares a handful.
  public static let keptScenes = 64

  private let sources: SourceLoader
  private let icons: IconCache
  private let tiles: TileCache
  private let files = FileDigests(store: DigestStore.standard)
  private let scenes = Mutex<(byPath: [String: Result<Scene, SceneError>], order: [String])>(([:], []))
  private let fontPool = Mutex<[UncheckedSendable<FontLibrary>]>([])

  public init(manifest: ManifestReader, options: BatchOptions) {
    self.manifest = manifest
    self.options = options
    sources = SourceLoader(maximumSourceBytes: options.maximumSourceBytes, confinement: options.root, digestStore: DigestStore.standard)
    icons = IconCache(confinement: options.root)
    tiles = TileCache(confinement: options.root)
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
    let plan: FramePlan
    do throws(SceneError) {
      plan = try self.plan(line)
    } catch {
      outcome.status = .failed(error.description)
      return outcome
    }
    outcome.warnings = plan.warnings + (plan.missingCodePointsWarning.map { [$0] } ?? [])
    if options.strict, let bad = plan.state.layers.first(where: { $0.status.contains(.error) }) {
      outcome.status = .failed("--strict: layer \(Echo.quoted(bad.id)) could not be loaded; no output written")
      return outcome
    }
    var encoding = options.encoding
    encoding.threads = 1
    let digest = InputDigest.of(plan, encoding: encoding, report: line.report == nil ? nil : options.reportDetail, files: files)
    if options.resume, Self.holds(digest, at: line.output, confinement: options.root),
      line.report.map(FileIO.isRegularFile) ?? true
    {
      outcome.status = .skipped
      return outcome
    }
    do {
      // Outputs confined to --root, missing folders created (`FrameStream.writeFiles`).
      try FrameStream.writeFiles(
        plan, output: line.output, report: line.report, reportDetail: options.reportDetail, options: RenderOptions(threads: 1),
        encoding: encoding, inputDigest: digest, confinement: options.root, createDirectories: true)
    } catch {
      outcome.status = .failed("cannot write: \(error)")
    }
    return outcome
  }

  /// The plan of one line through the shared caches, on one thread (a font
  /// library is taken from the pool for it): what `mapsnap batch` draws, and
  /// what `mapsnap test` compares.
  ///
  /// The font library stays lent to the plan until its last copy (and the
  /// `Snapshot` rendered from it) is gone: the display list reads the
  /// library's glyph mask atlas, which the next frame planned with that
  /// library would grow (the thread sanitizer caught `mapsnap test` doing
  /// exactly that when the library went back to the pool after planning).
  public func plan(_ line: ManifestLine) throws(SceneError) -> FramePlan {
    let fonts = takeFonts()
    let lease = fonts.map { FontLease($0) { [self] in returnFonts($0) } }
    let scene = try self.scene(at: line.scene).adding(line.overlays, sources: sources)
    var overrides = line.overrides
    overrides.maxPixels = options.maxPixels
    var plan = try FramePlan.make(
      scene, overrides: overrides, sources: sources, fonts: fonts, icons: icons, tiles: tiles, threads: 1, digests: files)
    plan.fontLease = lease
    return plan
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

  /// The scene at `path`, parsed once (failures too) and kept.
  private func scene(at path: String) throws(SceneError) -> Scene {
    let key = FileIO.canonicalPath(path) ?? path
    if let hit = scenes.withLock({ $0.byPath[key] }) { return try hit.get() }
    let result: Result<Scene, SceneError>
    do throws(SceneError) {
      result = .success(
        try SceneLoader.load(path: path, maximumBytes: options.maximumSourceBytes, confinement: options.confinesScenes ? options.root : nil))
    } catch {
      result = .failure(error)
    }
    scenes.withLock { s in
      if s.byPath[key] == nil { s.order.append(key) }
      s.byPath[key] = result
      if s.order.count > Self.keptScenes { s.byPath[s.order.removeFirst()] = nil }
    }
    return try result.get()
  }

  /// A font library for one frame: each is used by one thread at a time
  /// (`FontLibrary` is not thread-safe) and returned for the next frame,
  /// so its glyph masks stay warm. Nil when fonts cannot be loaded (the
  /// frame then fails if it has text).
  private func takeFonts() -> FontLibrary? {
    if let f = fontPool.withLock({ $0.popLast() }) { return f.value }
    return try? FontLibrary(directories: options.fontDirectories + [FontLibrary.bundledDirectory])
  }

  private func returnFonts(_ f: FontLibrary?) {
    guard let f else { return }
    fontPool.withLock { $0.append(UncheckedSendable(f)) }
  }
}

/// A font library lent to one frame, given back (`giveBack`) when the last
/// reference to the lease goes: `FramePlan.fontLease` holds it, so the
/// library is not used by another frame while this frame's display list,
/// which reads its mask atlas, can still be drawn.
final class FontLease: @unchecked Sendable {
  let fonts: FontLibrary
  private let giveBack: (FontLibrary) -> Void

  init(_ fonts: FontLibrary, giveBack: @escaping (FontLibrary) -> Void) {
    self.fonts = fonts
    self.giveBack = giveBack
  }

  deinit { giveBack(fonts) }
}

/// A value handed to another thread whose safety the caller guarantees.
struct UncheckedSendable<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}
