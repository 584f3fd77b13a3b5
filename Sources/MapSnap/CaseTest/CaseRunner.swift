import Dispatch

#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

internal import _MapSnapRaster

/// Runs `mapsnap test` cases: renders each image through a `RenderSession`'s
/// shared caches (parsed scenes, indexed sources, tiles, icons, fonts),
/// several at once, and compares it with its expected image by decoded
/// pixels (`PixelMatch`, exact by default) and, unless the case says
/// `"reports": false`, its expected report (`ReportDiff`: a change in what
/// is visible fails, ``ReportDiff/changesWhatIsVisible``).
///
/// An image fails when a layer has status `error` (a missing source is
/// never a golden: nothing is recorded), or with `strict` when the frame has
/// any warning. An expected image or report that cannot be read makes the
/// image "could not run" (unless recording replaces it).
///
/// A failing image leaves artifacts in `artifacts/<case>/`: `<image>.actual.png`,
/// `<image>.diff.png` (when sizes match), `<image>.expected.png` and
/// `<image>.actual.report.json` (when reports are compared).
///
/// Recording (`RecordMode`) writes expected files instead of failing; each
/// recorded image's report is recorded with it. A recorded image fails its
/// case with "recorded …; re-run", so a recording run never passes.
public final class CaseRunner: Sendable {

  public struct Options: Sendable {
    public var record: RecordMode?
    /// Images rendered at once (0: one per processor).
    public var jobs = 0
    /// Where failing images' artifacts go.
    public var artifacts = "mapsnap-test-artifacts"
    /// `--root`: the paths the cases' scenes name must resolve inside it
    /// (the case folders themselves are the operator's).
    public var root: Confinement? = nil
    /// `--strict`: a frame with any warning fails its image.
    public var strict = false
    /// The largest scene or GeoJSON source file read.
    public var maximumSourceBytes = SourceLoader.defaultMaximumSourceBytes
    /// The folder style cases' `local://PATH` URLs name (the render suite's
    /// root); nil refuses them.
    public var localRoot: String? = nil
    /// Style cases fetch no http(s) URL.
    public var offline = false
    public init() {}
  }

  public let options: Options
  /// The cases' frames: the same session `mapsnap batch` and `render` draw through.
  private let session: RenderSession

  public init(options: Options) {
    self.options = options
    var o = RenderSession.Options()
    // The case folders are the operator's: only the paths their scenes name are confined.
    o.root = options.root
    o.maximumSourceBytes = options.maximumSourceBytes
    // A case's frame is held whole, beside its decoded golden (4 bytes a
    // pixel each), so it stays within what the PNG decoder reads (2^28
    // pixels), not the streamed renderer's limit.
    o.maxPixels = PNGDecoder.maximumPixelCount
    // Pooled fonts never throw: a library that cannot be loaded fails the images with text.
    session = try! RenderSession(options: o, fonts: .pooled(directories: []))
  }

  /// Runs `cases`, calling `progress` as each finishes (one at a time);
  /// returns the outcomes in the cases' order.
  public func run(_ cases: [ImageCase], progress: @Sendable (CaseOutcome) -> Void = { _ in }) -> [CaseOutcome] {
    let jobs = max(1, min(options.jobs > 0 ? options.jobs : activeProcessorCount(), cases.count))
    let results = Mutex<[Int: CaseOutcome]>([:])
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: jobs) { _ in
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < cases.count else { return }
        let outcome = self.check(cases[i])
        results.withLock { r in
          r[i] = outcome
          progress(outcome)
        }
      }
    }
    return results.withLock { r in cases.indices.map { r[$0]! } }
  }

  /// One image: render, compare (or record), write artifacts when it fails.
  func check(_ c: ImageCase) -> CaseOutcome {
    let start = monotonicSeconds()
    var o = CaseOutcome(id: c.id, caseName: c.caseName, stem: c.stem, status: .passed, expectedImage: c.expectedImage)
    // Artifacts of an earlier run must not stand beside this one's result.
    for suffix in Self.artifactSuffixes { unlink(artifactPath(c, suffix)) }
    if let style = c.style { return checkStyle(c, style, outcome: o, start: start) }
    let plan: FramePlan
    do throws(SceneError) {
      plan = try session.plan(scene: c.line.scene, overrides: c.line.overrides, overlays: c.line.overlays)
    } catch {
      o.status = .error(error.description)
      o.seconds = monotonicSeconds() - start
      return o
    }
    o.warnings = RenderSession.warnings(of: plan)
    // Every icon the scene names, drawn at this scale or not, is the case's.
    o.icons = Array(Set(plan.inputs.iconDigests.keys).union(plan.scene.namedIconPaths)).sorted()
    let snapshot = Snapshot.render(plan, options: RenderOptions(threads: 1))
    var encoding = PNGEncodingOptions.fast
    encoding.threads = 1
    encoding.palette = c.palette
    let png: [UInt8]
    let actual: DecodedImage
    do {
      png = try snapshot.pngData(options: encoding, files: session.files)
      actual = try PNGDecoder.decode(png)
    } catch {
      o.status = .error("cannot encode the image: \(error)")
      o.seconds = monotonicSeconds() - start
      return o
    }
    o.width = actual.width
    o.height = actual.height
    var recorded: [String] = []
    // Differences and missing files (failed), and files that cannot be read
    // (could not run).
    var problems: [String] = []
    var unreadable: [String] = []
    // A render with a layer error is never a golden: it fails and records nothing.
    var broken: [String] = plan.state.layers.filter { $0.status.contains(.error) }.map {
      "layer \(Echo.quoted($0.id)) could not be loaded\($0.message.map { ": " + $0 } ?? "")"
    }
    if options.strict && !o.warnings.isEmpty {
      broken.append("--strict: \(o.warnings.count) warning\(o.warnings.count == 1 ? "" : "s")")
    }
    if options.record != nil && !broken.isEmpty { broken.append("nothing recorded (a render with a layer error or, with --strict, a warning is never a golden)") }
    let record = broken.isEmpty ? options.record : nil
    // The image: absent, unreadable (could not run, and never "missing": an
    // LFS pointer or a truncated file is not overwritten by `missing`), or there.
    var expected: DecodedImage? = nil
    var exists = false
    var imageDiffers = false
    if FileIO.exists(c.expectedImage) {
      exists = true
      do {
        expected = try PNGDecoder.decode(contentsOf: c.expectedImage)
      } catch {
        imageDiffers = true
        unreadable.append("the expected image cannot be read: \(error)")
      }
    }
    if let expected {
      if expected.width != actual.width || expected.height != actual.height {
        imageDiffers = true
        problems.append("the image is \(actual.width)×\(actual.height), the expected one \(expected.width)×\(expected.height)")
      } else {
        var diff = [UInt32](repeating: 0, count: actual.width * actual.height)
        let a = expected.packedPixels
        let b = actual.packedPixels
        let match = PixelMatch(threshold: c.comparison.threshold, includeAA: c.comparison.includeAA)
        let counts = a.withUnsafeBufferPointer { pa in
          b.withUnsafeBufferPointer { pb in
            diff.withUnsafeMutableBufferPointer { d in match.compare(pa, pb, width: actual.width, height: actual.height, diff: d, threads: 1) }
          }
        }
        o.counts = counts
        if counts.differing > c.comparison.maxDiffPixels {
          imageDiffers = true
          let percent = Double(counts.differing) * 100 / Double(actual.width * actual.height)
          problems.append(
            "\(counts.differing) px differ (\(percent < 0.01 ? "< 0.01" : String((percent * 100).rounded() / 100)) %), "
              + "compared \(c.comparison.isExact ? "exactly" : "with " + c.comparison.rule) (mapsnap diff \(c.comparison.diffOptions))")
          if let diffPNG = try? diff.withUnsafeBufferPointer({ try PNGEncoder.encode(premultipliedRGBA: $0, width: actual.width, height: actual.height) }) {
            o.diffPath = write(diffPNG, artifact: c, suffix: "diff.png")
          }
        }
      }
    }
    let recordImage: Bool
    switch record {
    case .all?: recordImage = true
    case .failed?: recordImage = !exists || imageDiffers
    case .missing?: recordImage = !exists
    case nil: recordImage = false
    }
    if recordImage {
      if (try? OutputTarget(c.expectedImage).write(png)) != nil {
        recorded.append("recorded \(c.stem).png")
        unreadable.removeAll()
      } else {
        problems.append("cannot write \(c.expectedImage)")
      }
    } else if !exists {
      problems.append("no expected image \(c.stem).png (run with --record missing to write it)")
    }
    var reportBytes: [UInt8]? = nil
    if c.compareReports {
      var bytes = JSONWriter().writeBytes(snapshot.report())
      bytes.append(10)
      reportBytes = bytes
      let r = compareReport(c, bytes)
      // The report is recorded beside each image recorded, and on its own as the mode says.
      let recordReport: Bool
      switch record {
      case .all?: recordReport = true
      case .failed?: recordReport = recordImage || !r.exists || r.unreadable != nil || !r.changes.isEmpty
      case .missing?: recordReport = recordImage || !r.exists
      case nil: recordReport = false
      }
      if recordReport {
        if (try? OutputTarget(c.expectedReport).write(bytes)) != nil {
          recorded.append("recorded \(c.stem).report.json")
        } else {
          problems.append("cannot write \(c.expectedReport)")
        }
      } else if !r.exists {
        problems.append(
          "no expected report \(c.stem).report.json (run with --record missing to write it, or set \"reports\": false in golden.json)")
      } else if let u = r.unreadable {
        unreadable.append(u)
      } else if !r.changes.isEmpty {
        o.reportChanges = r.changes
        problems.append("the report changed in what is visible (\(r.count) change\(r.count == 1 ? "" : "s"))")
      }
    }
    if !recorded.isEmpty && broken.isEmpty && unreadable.isEmpty {
      o.status = .recorded(([recorded.joined(separator: ", ") + "; re-run without recording"] + problems).joined(separator: "; "))
    } else if !unreadable.isEmpty {
      o.status = .error((unreadable + broken + problems).joined(separator: "; "))
    } else if !broken.isEmpty || !problems.isEmpty {
      o.status = .failed((broken + problems).joined(separator: "; "))
    }
    switch o.status {
    case .passed, .recorded: break
    case .failed, .error:
      o.actualPath = write(png, artifact: c, suffix: "actual.png")
      if let reportBytes { o.actualReportPath = write(reportBytes, artifact: c, suffix: "actual.report.json") }
      if expected != nil, let bytes = try? FileIO.read(c.expectedImage) { o.expectedPath = write(bytes, artifact: c, suffix: "expected.png") }
    }
    o.seconds = monotonicSeconds() - start
    return o
  }

  /// The expected report against the actual one: whether it exists, why it
  /// cannot be read, or the summary lines of a change in what is visible
  /// (empty when there is none) and how many changes that is.
  private func compareReport(_ c: ImageCase, _ actual: [UInt8]) -> (exists: Bool, unreadable: String?, changes: [String], count: Int) {
    guard FileIO.exists(c.expectedReport) else { return (false, nil, [], 0) }
    let old: JSONValue
    do {
      old = try JSONParser.parse(try FileIO.read(c.expectedReport, maximumBytes: 1 << 30))
    } catch let error as JSONSyntaxError {
      return (true, "the expected report \(c.stem).report.json cannot be read: \(error.line):\(error.column): invalid JSON: \(error.message)", [], 0)
    } catch {
      return (true, "the expected report \(c.stem).report.json cannot be read: \(error)", [], 0)
    }
    guard let new = try? JSONParser.parse(actual) else { return (true, nil, [], 0) }
    do throws(ReportDiffError) {
      let d = try ReportDiff.compare(old, new)
      guard d.changesWhatIsVisible else { return (true, nil, [], 0) }
      return (true, nil, Array(d.summary().dropFirst()), d.changes.filter(\.changesWhatIsVisible).count)
    } catch {
      return (true, "the expected report \(c.stem).report.json cannot be read: \(error.path.isEmpty ? "" : error.path + ": ")\(error.message)", [], 0)
    }
  }

  /// What a failing image leaves in `artifacts/<case>/<image>.<suffix>`.
  static let artifactSuffixes = ["actual.png", "diff.png", "expected.png", "actual.report.json"]

  /// Writes an artifact file; returns its path, or nil when it cannot be written.
  func artifactPath(_ c: ImageCase, _ suffix: String) -> String {
    options.artifacts + "/" + c.caseName + "/" + c.stem + "." + suffix
  }

  func write(_ bytes: [UInt8], artifact c: ImageCase, suffix: String) -> String? {
    let path = artifactPath(c, suffix)
    do {
      try OutputTarget(path).write(bytes, createDirectories: true)
      return path
    } catch {
      return nil
    }
  }
}
