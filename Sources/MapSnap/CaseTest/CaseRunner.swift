import Dispatch

#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

internal import _MapSnapRaster

/// Runs `mapsnap test` cases: renders each image through `BatchRunner`'s
/// shared caches (parsed scenes, indexed sources, tiles, icons, fonts),
/// several at once, and compares it with its expected image by decoded
/// pixels (`PixelMatch`, exact by default) and, when the case has one, its
/// expected report (`ReportDiff`: any visibility change fails).
///
/// A failing image leaves artifacts in `artifacts/<case>/`: `<image>.actual.png`,
/// `<image>.diff.png` (when sizes match) and `<image>.expected.png`.
///
/// Record mode writes expected files instead of failing: `missing` (only
/// images and reports that do not exist), `failed` (and those that differ),
/// `all` (every one). A recorded image fails its case with "recorded …;
/// re-run", so a recording run never passes.
public final class CaseRunner: Sendable {
  public enum RecordMode: String, Sendable, CaseIterable {
    case missing, failed, all
  }

  public struct Options: Sendable {
    public var record: RecordMode?
    /// Images rendered at once (0: one per processor).
    public var jobs = 0
    /// Where failing images' artifacts go.
    public var artifacts = "mapsnap-test-artifacts"
    /// `--root`: the paths the cases' scenes name must resolve inside it
    /// (the case folders themselves are the operator's).
    public var root: Confinement? = nil
    /// The largest scene or GeoJSON source file read.
    public var maximumSourceBytes = SourceLoader.defaultMaximumSourceBytes
    public init() {}
  }

  public let options: Options
  private let batch: BatchRunner
  private let files = FileDigests(store: DigestStore.standard)

  public init(options: Options) {
    self.options = options
    var b = BatchOptions()
    b.jobs = 1
    b.root = options.root
    b.confinesScenes = false
    b.maximumSourceBytes = options.maximumSourceBytes
    // A case's frame is held whole, beside its decoded golden (4 bytes a
    // pixel each), so it stays within what the PNG decoder reads (2^28
    // pixels), not the streamed renderer's limit.
    b.maxPixels = PNGDecoder.maximumPixelCount
    batch = BatchRunner(manifest: ManifestReader(path: "mapsnap-test"), options: b)
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
    for suffix in ["actual", "diff", "expected"] { unlink(artifactPath(c, suffix)) }
    let plan: FramePlan
    do throws(SceneError) {
      plan = try batch.plan(c.line)
    } catch {
      o.status = .error(error.description)
      o.seconds = monotonicSeconds() - start
      return o
    }
    let snapshot = Snapshot.render(plan, options: RenderOptions(threads: 1))
    var encoding = PNGEncodingOptions.fast
    encoding.threads = 1
    encoding.palette = c.palette
    let png: [UInt8]
    let actual: DecodedImage
    do {
      png = try snapshot.pngData(options: encoding, files: files)
      actual = try PNGDecoder.decode(png)
    } catch {
      o.status = .error("cannot encode the image: \(error)")
      o.seconds = monotonicSeconds() - start
      return o
    }
    o.width = actual.width
    o.height = actual.height
    var recorded: [String] = []
    var problems: [String] = []
    // The image: absent, unreadable (a failure, never "missing": an LFS
    // pointer or a truncated file is not overwritten by `missing`), or there.
    var expected: DecodedImage? = nil
    var exists = false
    var imageDiffers = false
    if FileIO.exists(c.expectedImage) {
      exists = true
      do {
        expected = try PNGDecoder.decode(contentsOf: c.expectedImage)
      } catch {
        imageDiffers = true
        problems.append("the expected image cannot be read: \(error)")
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
          problems.append("\(counts.differing) px differ (\(percent < 0.01 ? "< 0.01" : String((percent * 100).rounded() / 100)) %)")
          if let diffPNG = try? diff.withUnsafeBufferPointer({ try PNGEncoder.encode(premultipliedRGBA: $0, width: actual.width, height: actual.height) }) {
            o.diffPath = write(diffPNG, artifact: c, suffix: "diff")
          }
        }
      }
    }
    let recordImage: Bool
    switch options.record {
    case .all?: recordImage = true
    case .failed?: recordImage = !exists || imageDiffers
    case .missing?: recordImage = !exists
    case nil: recordImage = false
    }
    if recordImage {
      if (try? OutputTarget(c.expectedImage).write(png)) != nil {
        recorded.append("recorded \(c.stem).png")
      } else {
        problems.append("cannot write \(c.expectedImage)")
      }
    } else if !exists {
      problems.append("no expected image \(c.stem).png (run with --record missing to write it)")
    }
    // The report, when the case keeps one.
    let reportExists = FileIO.isRegularFile(c.expectedReport)
    if reportExists {
      var bytes = JSONWriter().writeBytes(snapshot.report())
      bytes.append(10)
      var changes: [String] = []
      if let old = try? JSONParser.parse(try FileIO.read(c.expectedReport)), let new = try? JSONParser.parse(bytes) {
        do throws(ReportDiffError) {
          changes = try ReportDiff.compare(old, new).changes.map(\.line)
        } catch {
          changes = ["the expected report cannot be read: \(error.message)"]
        }
      } else {
        changes = ["the expected report is not valid JSON"]
      }
      let recordReport = options.record == .all || (options.record == .failed && !changes.isEmpty)
      if recordReport {
        if (try? OutputTarget(c.expectedReport).write(bytes)) != nil {
          recorded.append("recorded \(c.stem).report.json")
        } else {
          o.reportChanges = changes
          problems.append("cannot write \(c.expectedReport)")
        }
      } else if !changes.isEmpty {
        o.reportChanges = changes
        problems.append("the report changed: \(changes.count) change\(changes.count == 1 ? "" : "s")")
      }
    }
    if !recorded.isEmpty {
      o.status = .recorded(recorded.joined(separator: ", ") + "; re-run without recording")
    } else if !problems.isEmpty {
      o.status = .failed(problems.joined(separator: "; "))
      o.actualPath = write(png, artifact: c, suffix: "actual")
      if expected != nil, let bytes = try? FileIO.read(c.expectedImage) { o.expectedPath = write(bytes, artifact: c, suffix: "expected") }
    }
    o.seconds = monotonicSeconds() - start
    return o
  }

  /// Writes an artifact file; returns its path, or nil when it cannot be written.
  private func artifactPath(_ c: ImageCase, _ suffix: String) -> String {
    options.artifacts + "/" + c.caseName + "/" + c.stem + "." + suffix + ".png"
  }

  private func write(_ bytes: [UInt8], artifact c: ImageCase, suffix: String) -> String? {
    let path = artifactPath(c, suffix)
    do {
      try OutputTarget(path).write(bytes, createDirectories: true)
      return path
    } catch {
      return nil
    }
  }
}
