import Synchronization

/// What renders frames for `mapsnap render`, `batch` and `test`: the one
/// sequence of a frame (plan → warnings → strict → digest → write) and what
/// frames share: parsed scenes, decoded sources with their spatial index
/// (`SourceLoader`), marker icons (`IconCache`), tiles and mosaics
/// (`TileCache`), file digests (`FileDigests`), and fonts.
///
/// A frame's output does not depend on the session it is drawn in: the
/// caches hold what files give, never a decision about a frame. `render`
/// runs the whole sequence (`mapsnap render` and `batch`); `test` takes its
/// first steps (`plan`, `warnings`) and compares the planned frame instead
/// of writing it.
public final class RenderSession: Sendable {
  /// What the session may read and how large a frame may be.
  public struct Options: Sendable {
    /// `--root`: every path a scene names (sources, icons, tile sets) must
    /// resolve inside it, and with `confinesScenes` the scene files too.
    public var root: Confinement? = nil
    /// Whether the scene files are confined by `root` (a manifest's scenes
    /// are; the operator's own scene or case folder is not).
    public var confinesScenes = false
    /// The largest scene or GeoJSON source file read (`--max-source-bytes`).
    public var maximumSourceBytes = SourceLoader.defaultMaximumSourceBytes
    /// The most device pixels a frame may have (`--max-pixels`,
    /// `FrameSizeLimit`); a frame asking for more is an error.
    public var maxPixels = FrameSizeLimit.defaultMaxPixels
    /// `--strict`: a frame with a layer whose source cannot be loaded is not
    /// written (`strictFailure`).
    public var strict = false
    public init() {}
  }

  /// Where each frame's fonts come from.
  public enum Fonts: Sendable {
    /// One library for every frame, from these folders before the bundled
    /// ones (none given: loaded when a scene has text). One frame at a time.
    case shared(directories: [String])
    /// A pool of libraries from these folders before the bundled ones, one
    /// lent to each frame, so frames run on several threads at once.
    case pooled(directories: [String])
  }

  public let options: Options
  let sources: SourceLoader
  private let icons: IconCache
  private let tiles: TileCache
  /// The digests of the files frames read, for their `InputDigest`.
  public let files = FileDigests(store: DigestStore.standard)
  private let fonts: Fonts
  private let sharedFonts: UncheckedSendable<FontLibrary?>
  private let scenes = Mutex<(byPath: [String: Result<Scene, SceneError>], order: [String])>(([:], []))
  private let fontPool = Mutex<[UncheckedSendable<FontLibrary>]>([])

  /// Parsed scenes kept (the oldest dropped first): scenes are small, and a
  /// batch usually shares a handful.
  public static let keptScenes = 64

  /// - Throws: `TextError` when `shared` fonts are given folders that
  ///   cannot be read.
  public init(options: Options, fonts: Fonts = .pooled(directories: [])) throws(TextError) {
    self.options = options
    self.fonts = fonts
    sources = SourceLoader(maximumSourceBytes: options.maximumSourceBytes, confinement: options.root, digestStore: DigestStore.standard)
    icons = IconCache(confinement: options.root)
    tiles = TileCache(confinement: options.root)
    if case .shared(let directories) = fonts, !directories.isEmpty {
      sharedFonts = UncheckedSendable(try FontLibrary(directories: directories + [FontLibrary.bundledDirectory]))
    } else {
      sharedFonts = UncheckedSendable(nil)
    }
  }

  // MARK: - plan

  /// The plan of the scene at `path` with `overrides` and `overlays` on
  /// `threads` threads (0: one per processor): the scene parsed once and
  /// kept (failures too), its frame at most `options.maxPixels` device
  /// pixels (whatever `overrides` say).
  ///
  /// A pooled font library stays lent to the plan until its last copy (and
  /// the `Snapshot` rendered from it) is gone: the display list reads the
  /// library's glyph mask atlas, which the next frame planned with that
  /// library would grow.
  public func plan(scene path: String, overrides: ViewOverrides, overlays: [Overlay] = [], threads: Int = 1) throws(SceneError) -> FramePlan {
    let scene = try self.scene(at: path).adding(overlays, sources: sources, tiles: tiles)
    var overrides = overrides
    overrides.maxPixels = options.maxPixels
    let library: FontLibrary?
    let lease: FontLease?
    switch fonts {
    case .shared:
      library = sharedFonts.value
      lease = nil
    case .pooled(let directories):
      library = takeFonts(directories)
      lease = library.map { FontLease($0) { [self] in returnFonts($0) } }
    }
    var plan = try FramePlan.make(
      scene, overrides: overrides, sources: sources, fonts: library, icons: icons, tiles: tiles, threads: threads, digests: files)
    plan.fontLease = lease
    return plan
  }

  /// Every warning of a planned frame, in the order they are printed:
  /// layer and view annotation problems, then characters no font covers.
  public static func warnings(of plan: FramePlan) -> [String] {
    plan.warnings + (plan.missingCodePointsWarning.map { [$0] } ?? [])
  }

  /// Why `--strict` refuses to write the frame (a layer whose source could
  /// not be loaded), nil when it may be written or the session is not strict.
  func strictFailure(of plan: FramePlan) -> String? {
    guard options.strict, let bad = plan.state.layers.first(where: { $0.status.contains(.error) }) else { return nil }
    return "--strict: layer \(Echo.quoted(bad.id)) could not be loaded; no output written"
  }

  // MARK: - digest and write

  /// The frame's `InputDigest` for `encoding`, with the report's detail
  /// when a report is written.
  package func digest(of plan: FramePlan, encoding: PNGEncodingOptions, report: ReportDetail?) -> String {
    InputDigest.of(plan, encoding: encoding, report: report, files: files)
  }

  /// Writes the frame's PNG (and report), all or nothing
  /// (`FrameStream.writeFiles`), with `digest` in its `mapsnap-inputs`
  /// chunk. With `fromManifest` the paths are a manifest's: confined to
  /// `options.root`, missing folders created.
  func write(
    _ plan: FramePlan, output: String, report: String?, reportDetail: ReportDetail, encoding: PNGEncodingOptions,
    render: RenderOptions, digest: String, fromManifest: Bool
  ) throws {
    try FrameStream.writeFiles(
      plan, output: output, report: report, reportDetail: reportDetail, options: render, encoding: encoding, inputDigest: digest,
      confinement: fromManifest ? options.root : nil, createDirectories: fromManifest)
  }

  // MARK: - the sequence

  /// One frame to draw and write.
  public struct Frame: Sendable {
    /// The scene file (`-`: standard input).
    public var scene: String
    public var overrides: ViewOverrides
    /// Drawn above the scene's layers.
    public var overlays: [Overlay]
    /// The PNG to write, and the report (nil: none) with its detail.
    public var output: String
    public var report: String?
    public var reportDetail: ReportDetail
    public var encoding: PNGEncodingOptions
    /// Threads and tile rows; the frame is planned on as many threads.
    public var render: RenderOptions
    /// Whether the paths are a manifest's (`write`).
    public var fromManifest: Bool

    public init(
      scene: String, overrides: ViewOverrides, overlays: [Overlay], output: String, report: String?, reportDetail: ReportDetail,
      encoding: PNGEncodingOptions, render: RenderOptions, fromManifest: Bool
    ) {
      (self.scene, self.overrides, self.overlays, self.output, self.report) = (scene, overrides, overlays, output, report)
      (self.reportDetail, self.encoding, self.render, self.fromManifest) = (reportDetail, encoding, render, fromManifest)
    }
  }

  /// How a frame's sequence ended: the step that stopped it, with why.
  public enum Outcome {
    /// The PNG (and report) written.
    case written
    /// `skip` found the output holding this frame's digest already.
    case skipped
    /// No valid frame: the scene, the overrides or the overlays.
    case invalid(SceneError)
    /// `--strict` refused to write it (`strictFailure`).
    case refused(String)
    /// The PNG or report could not be written; nothing was left.
    case unwritten(any Error)
  }

  /// The frame's sequence, the one every command follows: plan, hand the
  /// plan and its warnings to `planned` (before anything is drawn), refuse
  /// it when `--strict` says so, digest it, skip it when `skip` says the
  /// digest is written already, then draw and write it.
  public func render(
    _ frame: Frame, planned: (FramePlan, [String]) -> Void = { _, _ in }, skip: (String) -> Bool = { _ in false }
  ) -> Outcome {
    let plan: FramePlan
    do throws(SceneError) {
      plan = try self.plan(scene: frame.scene, overrides: frame.overrides, overlays: frame.overlays, threads: frame.render.threads)
    } catch {
      return .invalid(error)
    }
    planned(plan, Self.warnings(of: plan))
    if let refused = strictFailure(of: plan) { return .refused(refused) }
    let digest = digest(of: plan, encoding: frame.encoding, report: frame.report == nil ? nil : frame.reportDetail)
    if skip(digest) { return .skipped }
    do {
      try write(
        plan, output: frame.output, report: frame.report, reportDetail: frame.reportDetail, encoding: frame.encoding, render: frame.render,
        digest: digest, fromManifest: frame.fromManifest)
    } catch {
      return .unwritten(error)
    }
    return .written
  }

  // MARK: - shared

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
  private func takeFonts(_ directories: [String]) -> FontLibrary? {
    if let f = fontPool.withLock({ $0.popLast() }) { return f.value }
    return try? FontLibrary(directories: directories + [FontLibrary.bundledDirectory])
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
