import ArgumentParser
import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// `mapsnap test CASES`: golden images for users' CI (the layout is
/// `CaseLoader`'s; the project's own `Golden/` uses it).
struct TestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Render a folder of cases and compare each image with its expected one.",
    discussion: """
      Each case is a folder with scene.json, golden.json ({"scales": [...], "pixelRatios", "floors", \
      "variants", tolerance in mapsnap diff's terms with a "toleranceReason", "reports": false to \
      compare no reports}) and one expected PNG per image (<scale>[@<ratio>x][-floor<F>].png, or \
      <variant>.png) with its <image>.report.json. Comparison is exact by default. An image fails when a \
      layer has status error (with --strict, on any warning); warnings are printed per image. Writes \
      mapsnap-test-report.html and mapsnap-test-junit.xml in the working folder, and artifacts of failing \
      images in mapsnap-test-artifacts/.

      Record mode (--record or MAPSNAP_RECORD=missing|failed|all) writes expected images and their \
      reports; a recorded image fails with "recorded …; re-run". Recording is refused when CI is set. \
      Expected files no image produces any more are listed as obsolete; --remove-obsolete (with \
      recording) deletes them.

      Exit status: 0 all passed; 1 some failed (or were recorded; with --strict, also any warning); \
      2 some case could not run (an invalid golden.json or scene, an expected image or report that \
      cannot be read); 64 usage.

      Style cases (the Mapbox GL render suite's layout): a folder with style.json and expected.png, \
      alone or grouped one level deep (<group>/<case>/style.json). Parameters from the style's \
      metadata.test (width, height, pixelRatio, allowed or a numeric diff, operations); judged by \
      pixelmatch 4.0.2 at threshold 0.13 against the expected image's premultiplied colour. \
      --groups prints a table by group and the flat, symbol and fill-extrusion totals; --counts FILE \
      makes the exit status say only whether any flat or symbol count fell below FILE's \
      (--record-counts rewrites FILE).
      """
  )

  @Argument(help: "The folder of cases (each a folder with scene.json and golden.json).")
  var cases: String

  @Option(help: ArgumentHelp("Run only images whose case/image name contains this text (repeatable).", valueName: "text"))
  var filter: [String] = []

  @Option(help: "Write expected files: missing, failed or all (also MAPSNAP_RECORD).")
  var record: RecordMode?

  @Option(parsing: .unconditional, help: "Images rendered at once (0 = one per processor).")
  var jobs = 0

  @Option(help: ArgumentHelp("The HTML report ('' for none).", valueName: "file"))
  var html = "mapsnap-test-report.html"

  @Option(help: ArgumentHelp("The JUnit XML report ('' for none).", valueName: "file"))
  var junit = "mapsnap-test-junit.xml"

  @Option(help: ArgumentHelp("Where failing images' actual, diff and expected files go.", valueName: "folder"))
  var artifacts = "mapsnap-test-artifacts"

  @Flag(help: "Print only failures (with their warnings), folder warnings and the summary.")
  var quiet = false

  @Flag(help: "Fail an image on any warning (layer problems, characters no font covers), and the run on folders that are not cases and obsolete files.")
  var strict = false

  @Flag(help: "With recording: delete the obsolete expected files of the cases run.")
  var removeObsolete = false

  @Option(help: ArgumentHelp("The folder style cases' local://PATH URLs name (default: the cases folder).", valueName: "folder"))
  var localRoot: String?

  @Flag(help: "Style cases fetch no http(s) URL.")
  var offline = false

  @Flag(help: "Print the style cases by group (tests, passed, within 1 %, unsupported) and the flat, symbol and fill-extrusion totals; per-case lines follow the cases' order.")
  var groups = false

  @Option(help: ArgumentHelp("Compare the style cases' flat and symbol counts with those this file records: the run fails only when one falls below (exit 1).", valueName: "file"))
  var counts: String?

  @Flag(help: "With --counts: write this run's counts to the file instead of comparing.")
  var recordCounts = false

  @OptionGroup var files: FileOptions

  mutating func validate() throws {
    try CountOptions.checkWorkers("--jobs", jobs)
    if record != nil && RecordMode.inCI { throw ValidationError("--record is refused when CI is set: goldens are recorded on a developer's machine and committed") }
    if recordCounts && counts == nil { throw ValidationError("--record-counts needs --counts FILE: the file to write") }
    if recordCounts && RecordMode.inCI { throw ValidationError("--record-counts is refused when CI is set: counts are recorded on a developer's machine and committed") }
    if counts != nil && !filter.isEmpty { throw ValidationError("--counts compares whole runs: drop --filter") }
  }

  func run() throws {
    var mode = record
    if mode == nil {
      switch RecordMode.requested {
      case .none: break
      case .record(let m): mode = m
      case .ignoredInCI(let env): printError("warning: MAPSNAP_RECORD=\(env) is ignored when CI is set")
      case .invalid(let env):
        printError("error: MAPSNAP_RECORD must be missing, failed or all, got \(Echo.quoted(env))")
        throw ExitStatus.usage.code
      }
    }
    if removeObsolete && mode == nil {
      printError("error: --remove-obsolete deletes expected files only when recording (--record or MAPSNAP_RECORD)")
      throw ExitStatus.usage.code
    }
    var st = stat()
    guard stat(cases, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
      printError("error: \(cases): not a folder of cases")
      throw ExitStatus.invalidInput.code
    }
    let started = monotonicSeconds()
    let loader = CaseLoader(root: cases)
    let loaded = loader.load()
    var (images, problems) = loaded
    var notices = loader.folderWarnings()
    if !filter.isEmpty {
      images = images.filter { c in filter.contains { c.id.contains($0) } }
      problems = problems.filter { p in filter.contains { p.caseName.contains($0) } }
      notices = notices.filter { n in filter.contains { n.folder.contains($0) } }
    }
    if images.isEmpty && problems.isEmpty {
      printError("error: \(cases): no case matches (a case is a folder with golden.json or style.json\(filter.isEmpty ? "" : " and an image matching --filter"))")
      throw ExitStatus.invalidInput.code
    }
    var options = CaseRunner.Options()
    options.record = mode
    options.jobs = jobs
    options.strict = strict
    options.artifacts = artifacts
    options.root = try files.settings.confinement()
    options.maximumSourceBytes = files.settings.maxSourceBytes
    options.localRoot = localRoot ?? cases
    options.offline = offline
    let github = getenv("GITHUB_ACTIONS").map { String(cString: $0) } == "true"
    let quiet = self.quiet
    for p in problems { printError("! \(p.caseName): \(p.error)") }
    for n in notices { printError("warning: \(n)") }
    // With --groups the lines follow the cases' order (printed after the run), else as each case finishes.
    let ordered = groups
    let outcomes = CaseRunner(options: options).run(images) { o in
      if !ordered { Self.printLines(of: o, quiet: quiet) }
    }
    if ordered { for o in outcomes { Self.printLines(of: o, quiet: quiet) } }
    // Obsolete files, for each case whose every image ran and could run (a
    // frame that did not run drew no icons).
    let all = Dictionary(grouping: loaded.cases, by: \.caseName)
    for (name, ran) in Dictionary(grouping: outcomes, by: \.caseName).sorted(by: { $0.key < $1.key }) {
      guard let every = all[name], every.count == ran.count, !ran.contains(where: \.couldNotRun), every.allSatisfy({ $0.style == nil }) else { continue }
      let obsolete = CaseLoader.obsoleteFiles(of: every, icons: Set(ran.flatMap(\.icons)))
      // With --remove-obsolete, the files that cannot be removed stay listed.
      let left = obsolete.filter { f in
        guard removeObsolete else { return true }
        let path = every[0].directory + "/" + f
        if unlink(path) == 0 {
          printError("removed obsolete \(path)")
          return false
        }
        printError("error: cannot remove \(path): \(String(cString: strerror(errno)))")
        return true
      }
      guard !left.isEmpty else { continue }
      let n = CaseLoader.Notice(folder: name, kind: .obsolete(left))
      printError("warning: \(n)")
      notices.append(n)
    }
    var report = CaseReport(outcomes: outcomes, problems: problems, notices: notices, seconds: monotonicSeconds() - started)
    let table = ConformanceTable(outcomes: outcomes)
    if groups && !table.isEmpty { report.table = table }
    if github {
      // GitHub Actions workflow commands: one annotation per image that did not pass.
      for o in outcomes where !o.passed {
        let message = ([o.message ?? ""] + o.reportChanges).map(Self.escapeData).joined(separator: "%0A")
        print("::error file=\(Self.escapeProperty(o.expectedImage)),title=\(Self.escapeProperty("mapsnap test " + o.id))::\(message)")
      }
      for p in problems {
        print("::error file=\(Self.escapeProperty(p.error.file)),title=\(Self.escapeProperty("mapsnap test " + p.caseName))::\(Self.escapeData(p.error.description))")
      }
    }
    var unwritten = false
    for (path, text) in [(html, report.html), (junit, report.junit)] where !path.isEmpty {
      do {
        try OutputTarget(path).write(Array(text.utf8), createDirectories: true)
      } catch {
        printError("error: cannot write \(path): \(error)")
        unwritten = true
      }
    }
    var summary = "mapsnap test: \(report.passed) passed, \(report.failed) failed, \(report.errors) could not run, of \(outcomes.count + problems.count)"
    if !notices.isEmpty { summary += ", \(notices.count) warning\(notices.count == 1 ? "" : "s")\(strict ? " (--strict: failing)" : "")" }
    summary += " in \((report.seconds * 10).rounded() / 10) s"
    if !html.isEmpty { summary += "; report: \(html)" }
    printError(summary)
    if groups {
      // Unbuffered, so the counts' verdict (standard error) follows the table.
      try? FileIO.writeToStandardOutput(Array((table.isEmpty ? "no style cases\n" : table.text).utf8))
    }
    let shortfalls = try countsShortfalls(table.counts)
    // A report CI cannot read is as bad as a case that cannot run.
    if report.errors > 0 || unwritten { throw ExitStatus.invalidInput.code }
    if let shortfalls {
      if !shortfalls.isEmpty { throw ExitStatus.failed.code }
      return
    }
    if report.failed > 0 || (strict && !notices.isEmpty) { throw ExitStatus.failed.code }
  }

  /// One case's lines: `✓ id` unless quiet, failures with their warnings and report changes.
  static func printLines(of o: CaseOutcome, quiet: Bool) {
    if !o.passed || !quiet {
      FileIO.writeToStandardError(Echo.terminalSafe(o.line) + "\n")
      for w in o.warnings { FileIO.writeToStandardError("    warning: \(Echo.terminalSafe(w))\n") }
    }
    for change in o.reportChanges { FileIO.writeToStandardError("    \(Echo.terminalSafe(change))\n") }
  }

  /// With --counts: writes `now` to the file (--record-counts; no
  /// shortfall), or compares it with the file's counts and prints what fell
  /// below. Nil without --counts.
  /// - Throws: exit status 2 when the file cannot be read or written.
  private func countsShortfalls(_ now: ConformanceCounts) throws -> [String]? {
    guard let path = counts else { return nil }
    if recordCounts {
      do {
        try OutputTarget(path).write(Array(now.text.utf8), createDirectories: true)
      } catch {
        printError("error: cannot write \(path): \(error)")
        throw ExitStatus.invalidInput.code
      }
      printError("recorded the counts in \(path)")
      return []
    }
    let recorded: ConformanceCounts
    do {
      recorded = try ConformanceCounts(json: try JSONParser.parse(try FileIO.read(path, maximumBytes: 1 << 20)), file: path)
    } catch {
      printError("error: \(path): cannot read the recorded counts: \(error)")
      throw ExitStatus.invalidInput.code
    }
    for d in now.differentTotals(from: recorded) { printError("warning: \(d) (the counts compare runs of one suite)") }
    let shortfalls = now.shortfalls(against: recorded)
    for s in shortfalls { printError("error: below the recorded counts (\(path)): \(s)") }
    if shortfalls.isEmpty { printError("counts: none below those recorded in \(path)") }
    return shortfalls
  }
}

extension TestCommand {
  /// GitHub workflow-command escaping of a message: `%`, CR, LF.
  static func escapeData(_ s: String) -> String {
    s.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
  }

  /// …and of a property value: also `:` and `,`.
  static func escapeProperty(_ s: String) -> String {
    escapeData(s).replacingAll(":", "%3A").replacingAll(",", "%2C")
  }
}

extension String {
  func replacingAll(_ a: String, _ b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}

extension RecordMode: ExpressibleByArgument {}
