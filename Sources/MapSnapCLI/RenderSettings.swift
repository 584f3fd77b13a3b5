import ArgumentParser
import MapSnap

/// What `mapsnap render` is asked, as plain values, whoever read the
/// arguments (`Render` through ArgumentParser, or `QuickRender`), and the
/// render itself.
struct RenderSettings: Equatable {
  var scene: String
  var output: String? = nil
  var view = ViewSettings()
  var files = FileSettings()
  var report: String? = nil
  var reportDetail: Render.ReportDetailOption = .full
  var strict = false
  var threads = 0
  var tileRows = 32
  var compression: Render.Compression = .fast
  var palette = PaletteSettings()

  /// The checks of the render options themselves (ArgumentParser runs the
  /// option groups' own; `validateAll` runs every one).
  func validate() throws {
    try CountOptions.checkWorkers("--threads", threads)
    try CountOptions.checkTileRows(tileRows)
    if output == "-" && report == "-" { throw ValidationError("only one of --output and --report can be '-'") }
    if scene == "-" && output == nil { throw ValidationError("a scene read from standard input ('-') needs -o (a .png file, or '-')") }
    var targets: [OutputTarget] = []
    if let o = output {
      let target: OutputTarget
      do { target = try OutputTarget(o) } catch { throw ValidationError("-o \(o): \(error.reason)") }
      if target.isFile, !o.lowercased().hasSuffix(".png") {
        throw ValidationError("-o \(o): mapsnap writes PNG only; the output must end in .png (or be '-', a FIFO or a device)")
      }
      targets.append(target)
    }
    if let r = report {
      do { targets.append(try OutputTarget(r)) } catch { throw ValidationError("--report \(r): \(error.reason)") }
    }
    if targets.count == 2, targets.allSatisfy(\.isStandardOutput) {
      throw ValidationError("only one of --output and --report can be standard output ('-' or /dev/stdout)")
    }
  }

  /// Every check ArgumentParser would run: the option groups', then the command's.
  func validateAll() throws {
    try view.validate()
    try files.validate()
    try palette.validate()
    try validate()
  }

  /// Renders the scene to the PNG (and the report), all or nothing, by
  /// the sequence `batch` follows (`RenderSession.render`). The PNG is
  /// drawn and compressed a strip at a time straight into its staged file,
  /// so the frame is never held whole.
  func run() throws {
    let session = try view.session(files: files, strict: strict)
    let detail: ReportDetail = reportDetail == .full ? .full : .counts
    var encoding = palette.applied(to: compression.encoding)
    encoding.threads = threads
    let frame = RenderSession.Frame(
      scene: scene, overrides: view.overrides, overlays: try view.overlays(), output: output ?? defaultOutput(for: scene), report: report,
      reportDetail: detail, encoding: encoding, render: RenderOptions(threads: threads, tileRows: tileRows), fromManifest: false)
    let result = session.render(frame, planned: { plan, warnings in
      KeptUntilExit.keep(plan)
      for w in warnings { printError("warning: \(w)") }
    })
    switch result {
    case .written, .skipped: return
    case .invalid(let error): throw view.failure(error)
    case .refused(let why):
      printError("error: \(why)")
      throw ExitStatus.failed.code
    case .unwritten(let error):
      printError("error: \(error)")
      throw ExitStatus.failed.code
    }
  }
}
