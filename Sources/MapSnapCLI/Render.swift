import ArgumentParser
import MapSnap

/// Renders one scene to a PNG (and optionally a report).
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render a scene to PNG.",
    discussion: """
      Values given here override the scene's map block. Relative paths inside the scene \
      resolve against the scene file's folder.
      """
  )

  @Argument(help: "The scene file (JSON, scene format version 1); '-' reads it from standard input (relative paths then resolve against the working directory).")
  var scene: String

  @Option(name: .shortAndLong, help: ArgumentHelp("Output PNG; '-' writes to standard output. Default: the scene's name with .png, in the current folder.", valueName: "file"))
  var output: String?

  @OptionGroup var view: ViewOptions

  @OptionGroup var files: FileOptions

  @Option(help: ArgumentHelp("Write the JSON report (map, layer statuses, counts) to this file; '-' for standard output.", valueName: "file"))
  var report: String?

  @Option(name: .customLong("report-detail"), help: "full: every label and annotation text in the report (the default); counts: counts only.")
  var reportDetail: ReportDetailOption = .full

  enum ReportDetailOption: String, ExpressibleByArgument, CaseIterable {
    case full, counts
  }

  @Flag(help: "Fail (exit status 1, no output) when a layer's source cannot be loaded.")
  var strict = false

  @Option(parsing: .unconditional, help: "Worker threads (0 = one per processor). The image is identical for any value.")
  var threads = 0

  @Option(name: .customLong("tile-rows"), parsing: .unconditional, help: "Height of a tile band in rows. The image is identical for any value.")
  var tileRows = 32

  @Option(help: "PNG compression: fast (zlib level 2) or small (level 9, several times slower).")
  var compression: Compression = .fast

  enum Compression: String, ExpressibleByArgument, CaseIterable {
    case fast, small
  }

  @OptionGroup var paletteFlags: PaletteFlags

  mutating func validate() throws {
    if !(0...maximumWorkers).contains(threads) { throw ValidationError("--threads must be 0 (one per processor) to \(maximumWorkers), got \(threads)") }
    if !(1...maximumTileRows).contains(tileRows) { throw ValidationError("--tile-rows must be 1 to \(maximumTileRows), got \(tileRows)") }
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

  func run() throws {
    let plan = try view.plan(sceneAt: scene, threads: threads, files: files)
    if strict, plan.state.layers.contains(where: { $0.status.contains(.error) }) {
      printError("error: --strict: a layer's source could not be loaded; no output written")
      throw ExitStatus.renderFailed
    }
    // All or nothing: every file is staged next to its target first and
    // renamed into place only when all of them were written; devices, FIFOs
    // and standard output are written after (OutputTarget's rule). The PNG
    // is drawn and compressed a strip at a time straight into its staged
    // file (FrameStream), so the frame is never held whole.
    var pending: [PendingOutput] = []
    do {
      let detail: ReportDetail = reportDetail == .full ? .full : .counts
      var encoding = paletteFlags.applied(to: compression == .fast ? .fast : .small)
      encoding.threads = threads
      let digest = InputDigest.of(plan, encoding: encoding, report: report == nil ? nil : detail, files: FileDigests())
      if let report {
        var bytes = JSONWriter().writeBytes(plan.report(detail: detail))
        bytes.append(10)
        pending.append(try OutputTarget(report).prepare(bytes))
      }
      let png = try OutputTarget(output ?? defaultOutput(for: scene)).openStreaming()
      try FrameStream.writePNG(
        plan, options: RenderOptions(threads: threads, tileRows: tileRows), encoding: encoding, inputDigest: digest, to: png)
      pending.append(try png.finish())
      let outputs = pending
      pending.removeAll()
      try PendingOutput.commitAll(outputs)
    } catch {
      for p in pending { p.discard() }
      printError("error: \(error)")
      throw ExitStatus.renderFailed
    }
  }
}

/// `lon,lat` in degrees.
func parseCenter(_ s: String) -> (lon: Double, lat: Double)? {
  let parts = s.split(separator: ",", omittingEmptySubsequences: false)
  guard parts.count == 2,
    let lon = Double(parts[0].trimmingSpaces), let lat = Double(parts[1].trimmingSpaces),
    lon >= -180, lon <= 180, lat >= -90, lat <= 90
  else { return nil }
  return (lon, lat)
}

/// `WxH` in whole logical pixels.
func parseSize(_ s: String) -> (width: Int, height: Int)? {
  let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
  guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...32768).contains(w), (1...32768).contains(h) else {
    return nil
  }
  return (w, h)
}

/// `scene.json` → `scene.png` in the current folder.
func defaultOutput(for scene: String) -> String {
  var name = scene.split(separator: "/").last.map(String.init) ?? scene
  if name.hasSuffix(".json") { name.removeLast(5) }
  return name + ".png"
}

extension Substring {
  var trimmingSpaces: Substring {
    var s = self
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return s
  }
}
