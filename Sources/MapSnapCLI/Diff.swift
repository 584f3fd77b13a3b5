import ArgumentParser
import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// `mapsnap diff A.png B.png`: decoded pixels compared as pixelmatch does
/// (scene format section 8).
struct Diff: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare two PNG images by their decoded pixels.",
    discussion: """
      Pixels are compared as pixelmatch compares them: the YIQ colour distance against --threshold, \
      and differences that look like anti-aliasing counted apart unless --include-aa. Any PNG libpng \
      reads (every colour type and bit depth) is compared as 8-bit RGBA, row by row as decoded.

      The defaults are pixelmatch's (--threshold 0.1, anti-aliasing not counted); mapsnap test compares \
      exactly (--threshold 0 --include-aa). The output names the rule used and, unless it is exact, the \
      options that count as mapsnap test does.

      --reports lists, per layer and sublayer, what became visible or hidden and the counts that \
      changed (at most 10 items a group; changes between hidden states only with --verbose; all in --json).

      Exit status: 0 equal (no more pixels differ than the larger of --max-diff-pixels and \
      --max-diff-ratio × all pixels, and with --reports nothing became visible or hidden and no count \
      changed); 1 different; \
      2 cannot compare (a file unreadable or not a PNG, the sizes differ, a report invalid) or the diff image \
      cannot be written; 64 usage (also a diff image asked for an image over 2^26 pixels).
      """
  )

  @Argument(help: "The expected image.")
  var a: String

  @Argument(help: "The actual image.")
  var b: String

  @Option(name: .shortAndLong, help: ArgumentHelp("Write a diff image: the first image faded, differences red, anti-aliasing yellow.", valueName: "diff.png"))
  var output: String?

  @Option(parsing: .unconditional, help: "Colour distance that counts as a difference, 0 (any) to 1 (none), as pixelmatch's threshold.")
  var threshold = 0.1

  @Flag(name: .customLong("include-aa"), help: "Count pixels that look like anti-aliasing as differences too.")
  var includeAA = false

  @Option(name: .customLong("max-diff-pixels"), parsing: .unconditional, help: "Differing pixels still taken as equal.")
  var maxDiffPixels = 0

  @Option(name: .customLong("max-diff-ratio"), parsing: .unconditional, help: "Differing pixels, as a fraction of all (0–1), still taken as equal.")
  var maxDiffRatio = 0.0

  @Option(parsing: .upToNextOption, help: ArgumentHelp("The two renders' reports: list what became visible or hidden, and why.", valueName: "A.json B.json"))
  var reports: [String] = []

  @Flag(help: "Print the result as JSON on standard output.")
  var json = false

  @Flag(help: "With --reports: list every item, also changes between two hidden states.")
  var verbose = false

  mutating func validate() throws {
    guard threshold >= 0 && threshold <= 1 else { throw ValidationError("--threshold must be from 0 to 1, got \(threshold)") }
    guard maxDiffPixels >= 0 else { throw ValidationError("--max-diff-pixels must be 0 or more, got \(maxDiffPixels)") }
    guard maxDiffRatio >= 0 && maxDiffRatio <= 1 else { throw ValidationError("--max-diff-ratio must be from 0 to 1, got \(maxDiffRatio)") }
    guard reports.isEmpty || reports.count == 2 else { throw ValidationError("--reports takes two files (A's report, then B's), got \(reports.count)") }
    if let o = output {
      let target: OutputTarget
      do { target = try OutputTarget(o) } catch { throw ValidationError("-o \(o): \(error.reason)") }
      if case .file(let resolved) = target.kind {
        guard o.lowercased().hasSuffix(".png") else { throw ValidationError("-o \(o): the diff image is a PNG; the path must end in .png") }
        let folder = FileIO.directory(of: resolved)
        guard access(folder.isEmpty ? "." : folder, W_OK) == 0 else { throw ValidationError("-o \(o): its folder does not exist or cannot be written") }
      }
      // Never overwrite what is being compared (also through a link).
      var out = stat()
      if stat(o, &out) == 0 {
        for input in [a, b] + reports {
          var st = stat()
          if stat(input, &st) == 0, st.st_dev == out.st_dev, st.st_ino == out.st_ino {
            throw ValidationError("-o \(o) is \(input), an input of the comparison; choose another file")
          }
        }
      }
    }
  }

  func run() throws {
    let match = PixelMatch(threshold: threshold, includeAA: includeAA)
    let result: ImageDiff.Result
    do {
      result = try ImageDiff.compare(a, b, match: match, diffImage: output != nil)
    } catch {
      printError("error: \(error)")
      throw ExitStatus.of(error).code
    }
    var changes: ReportDiff? = nil
    if reports.count == 2 {
      func load(_ path: String) throws -> JSONValue {
        do {
          return try JSONParser.parse(try FileIO.read(path, maximumBytes: 1 << 30))
        } catch let error as JSONSyntaxError {
          printError("error: \(path):\(error.line):\(error.column): invalid JSON: \(error.message)")
          throw ExitStatus.invalidInput.code
        } catch {
          printError("error: \(path): cannot read the report: \(error)")
          throw ExitStatus.invalidInput.code
        }
      }
      let (ja, jb) = (try load(reports[0]), try load(reports[1]))
      do {
        changes = try ReportDiff.compare(ja, jb)
      } catch {
        let file = error.report == .a ? reports[0] : reports[1]
        printError("error: \(file): \(error.path.isEmpty ? "" : error.path + ": ")\(error.message)")
        throw ExitStatus.invalidInput.code
      }
    }
    // The allowance is the larger of the two limits (0 unless given).
    let allowed = max(Double(maxDiffPixels), maxDiffRatio * Double(result.width * result.height))
    let equal = Double(result.counts.differing) <= allowed
    // A diff image that cannot be written is not a difference: the
    // comparison could not deliver (exit 2), after the result is printed.
    var writeFailed = false
    if let output, let png = result.diffPNG {
      do {
        try OutputTarget(output).write(png)
      } catch {
        printError("error: -o: \(error)")
        writeFailed = true
      }
    }
    let line = Self.summary(result)
    let rule = ImageCase.Comparison(threshold: threshold, includeAA: includeAA, maxDiffPixels: 0)
    let reportsDiffer = changes?.changesWhatIsVisible ?? false
    if json {
      var object: JSONObject = [
        "equal": .bool(equal), "width": .number(Double(result.width)), "height": .number(Double(result.height)),
        "differingPixels": .number(Double(result.counts.differing)), "antialiasedPixels": .number(Double(result.counts.antialiased)),
        "ratio": .number(result.ratio), "threshold": .number(threshold), "includeAA": .bool(includeAA),
      ]
      if let changes {
        object["reports"] = ["a": changes.a.json, "b": changes.b.json, "changesWhatIsVisible": .bool(reportsDiffer)]
        object["changes"] = .array(changes.changes.map(\.json))
      }
      var bytes = JSONWriter().writeBytes(.object(object))
      bytes.append(10)
      try? FileIO.writeToStandardOutput(bytes)
    } else {
      var text = line + (equal ? "" : result.counts.differing > 0 && (maxDiffPixels > 0 || maxDiffRatio > 0) ? " (more than allowed)" : "") + "\n"
      text += rule.isExact ? "rule: exact (as mapsnap test compares by default)\n"
        : "rule: \(rule.rule); mapsnap test compares exactly by default: --threshold 0 --include-aa counts as it does\n"
      if let changes { text += changes.summary(verbose: verbose).joined(separator: "\n") + "\n" }
      try? FileIO.writeToStandardOutput(Array(text.utf8))
    }
    if writeFailed { throw ExitStatus.invalidInput.code }
    if !equal || reportsDiffer { throw ExitStatus.failed.code }
  }

  /// `312 px differ (0.08 %), 45 anti-aliased px not counted`.
  static func summary(_ r: ImageDiff.Result) -> String {
    let percent = r.ratio * 100
    let shown = percent == 0 ? "0" : percent < 0.01 ? "< 0.01" : String((percent * 100).rounded() / 100)
    var s = "\(r.counts.differing) px differ (\(shown) %) of \(r.width)×\(r.height)"
    if r.counts.antialiased > 0 { s += ", \(r.counts.antialiased) anti-aliased px not counted" }
    return s
  }
}
