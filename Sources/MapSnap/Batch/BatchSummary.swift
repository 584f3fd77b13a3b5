/// The JSON that `mapsnap batch --summary FILE` writes: the manifest and
/// shard, frame counts, every failure with its line number in line order
/// (up to `maximumListedFailures`: the first that failed), and timings.
///
/// ```json
/// {"manifest": "jobs.jsonl", "shard": "0/1", "status": "failed",
///  "frames": {"manifest": 1000, "shard": 1000, "rendered": 997, "skipped": 0, "failed": 3},
///  "failures": [{"line": 12, "output": "out/12.png", "error": "…"}],
///  "seconds": {"wall": 12.3, "framesPerSecond": 81.3, "frameMedian": 0.021, "frameP95": 0.04, "frameMax": 0.2}}
/// ```
/// `status` is `ok`, `failed` (some frames failed: exit 1) or `invalid` (the
/// manifest is invalid: exit 2, with `errors` instead of frames).
public struct BatchSummary: Sendable {
  public static let maximumListedFailures = 10_000

  public var json: JSONValue

  /// A finished run. `outcomes` may omit rendered frames' details except
  /// their times (`FrameTimes`).
  package init(manifest: String, options: BatchOptions, frames: Int, outcomes: BatchTally, seconds: Double) {
    var failures: [JSONValue] = []
    // In line order: workers finish frames in any order, and the summary
    // says the same for the same run whatever the timing.
    for f in outcomes.failures.sorted(by: { $0.line < $1.line }).prefix(Self.maximumListedFailures) {
      failures.append(["line": .number(Double(f.line)), "output": .string(f.output), "error": .string(f.message)])
    }
    let times = outcomes.frameSeconds.sorted()
    func quantile(_ q: Double) -> JSONValue {
      times.isEmpty ? .null : .number(Self.rounded(Double(times[min(times.count - 1, Int(Double(times.count - 1) * q + 0.5))])))
    }
    let done = outcomes.rendered + outcomes.skipped + outcomes.failed
    json = [
      "manifest": .string(manifest),
      "shard": .string("\(options.shard.index)/\(options.shard.count)"),
      "status": .string(outcomes.failed > 0 ? "failed" : "ok"),
      "frames": [
        "manifest": .number(Double(frames)), "shard": .number(Double(done)), "rendered": .number(Double(outcomes.rendered)),
        "skipped": .number(Double(outcomes.skipped)), "failed": .number(Double(outcomes.failed)),
      ],
      "failures": .array(failures),
      "seconds": [
        "wall": .number(Self.rounded(seconds)),
        "framesPerSecond": seconds > 0 ? .number(Self.rounded(Double(done) / seconds)) : .null,
        "frameMedian": quantile(0.5), "frameP95": quantile(0.95), "frameMax": times.last.map { .number(Self.rounded(Double($0))) } ?? .null,
      ],
    ]
  }

  /// A manifest that is invalid: nothing was drawn.
  public init(manifest: String, options: BatchOptions, invalid: ManifestError) {
    var errors: [JSONValue] = invalid.problems.map { p in
      ["line": .number(Double(p.line)), "error": .string(p.error.message), "path": .string(p.error.path)]
    }
    if case .unreadable(let reason) = invalid.kind { errors.append(["error": .string("cannot read the manifest: \(reason)")]) }
    json = [
      "manifest": .string(manifest),
      "shard": .string("\(options.shard.index)/\(options.shard.count)"),
      "status": .string("invalid"),
      "errors": .array(errors),
      "unlistedErrors": .number(Double(invalid.unlisted)),
    ]
  }

  /// Times to the microsecond: more digits are noise.
  static func rounded(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }
}

/// Outcomes counted as frames finish, with bounded memory: failures are
/// kept (up to `BatchSummary.maximumListedFailures`), and each frame's time
/// as a `Float`.
package struct BatchTally: Sendable {
  public struct Failure: Sendable {
    public var line: Int
    public var output: String
    public var message: String
  }

  public var rendered = 0
  public var skipped = 0
  public var failed = 0
  public var failures: [Failure] = []
  public var frameSeconds: [Float] = []

  public init() {}

  public mutating func record(_ o: FrameOutcome) {
    frameSeconds.append(Float(o.seconds))
    switch o.status {
    case .rendered: rendered += 1
    case .skipped: skipped += 1
    case .failed(let message):
      failed += 1
      if failures.count < BatchSummary.maximumListedFailures { failures.append(Failure(line: o.line, output: o.output, message: message)) }
    }
  }
}
