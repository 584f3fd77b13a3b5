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

  @OptionGroup var files: FileOptions

  mutating func validate() throws {
    try CountOptions.checkWorkers("--jobs", jobs)
    if record != nil && RecordMode.inCI { throw ValidationError("--record is refused when CI is set: goldens are recorded on a developer's machine and committed") }
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
      printError("error: \(cases): no case matches (a case is a folder with golden.json\(filter.isEmpty ? "" : " and an image matching --filter"))")
      throw ExitStatus.invalidInput.code
    }
    var options = CaseRunner.Options()
    options.record = mode
    options.jobs = jobs
    options.strict = strict
    options.artifacts = artifacts
    options.root = try files.settings.confinement()
    options.maximumSourceBytes = files.settings.maxSourceBytes
    let github = getenv("GITHUB_ACTIONS").map { String(cString: $0) } == "true"
    let quiet = self.quiet
    for p in problems { printError("! \(p.caseName): \(p.error)") }
    for n in notices { printError("warning: \(n)") }
    let outcomes = CaseRunner(options: options).run(images) { o in
      if !o.passed || !quiet {
        FileIO.writeToStandardError(Echo.terminalSafe(o.line) + "\n")
        for w in o.warnings { FileIO.writeToStandardError("    warning: \(Echo.terminalSafe(w))\n") }
      }
      for change in o.reportChanges { FileIO.writeToStandardError("    \(Echo.terminalSafe(change))\n") }
    }
    // Obsolete files, for each case whose every image ran and could run (a
    // frame that did not run drew no icons).
    let all = Dictionary(grouping: loaded.cases, by: \.caseName)
    for (name, ran) in Dictionary(grouping: outcomes, by: \.caseName).sorted(by: { $0.key < $1.key }) {
      guard let every = all[name], every.count == ran.count, !ran.contains(where: \.couldNotRun) else { continue }
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
    let report = CaseReport(outcomes: outcomes, problems: problems, notices: notices, seconds: monotonicSeconds() - started)
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
    // A report CI cannot read is as bad as a case that cannot run.
    if report.errors > 0 || unwritten { throw ExitStatus.invalidInput.code }
    if report.failed > 0 || (strict && !notices.isEmpty) { throw ExitStatus.failed.code }
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
