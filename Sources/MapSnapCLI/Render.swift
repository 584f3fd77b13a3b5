import ArgumentParser
import MapSnap

/// Renders one scene to a PNG (and optionally a report). What it is asked
/// is `settings`, which does the work.
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

  @Option(
    help: "PNG compression: fast (ISA-L igzip), balanced (zlib level 2: ~10% smaller, ~5x slower) or small (zlib level 9).")
  var compression: Compression = .fast

  /// `--compression`: the encoding presets.
  enum Compression: String, ExpressibleByArgument, CaseIterable {
    case fast, balanced, small

    /// The preset's PNG encoding.
    var encoding: PNGEncodingOptions {
      switch self {
      case .fast: .fast
      case .balanced: .balanced
      case .small: .small
      }
    }
  }

  @OptionGroup var paletteFlags: PaletteFlags

  func validate() throws { try settings.validate() }

  func run() throws { try settings.run() }

  /// The values given, as plain data.
  var settings: RenderSettings {
    RenderSettings(
      scene: scene, output: output, view: view.settings, files: files.settings, report: report, reportDetail: reportDetail,
      strict: strict, threads: threads, tileRows: tileRows, compression: compression, palette: paletteFlags.settings)
  }
}

/// `lon,lat` in degrees (`ViewParameter.center`).
func parseCenter(_ s: String, viewCrs: String? = nil) -> (lon: Double, lat: Double)? {
  let parts = s.split(separator: ",", omittingEmptySubsequences: false)
  guard parts.count == 2, let lon = Double(parts[0].trimmingSpaces), let lat = Double(parts[1].trimmingSpaces) else { return nil }
  return ViewParameter.isDegrees(viewCrs: viewCrs) ? ViewParameter.center([lon, lat]) : ViewParameter.centerInMapUnits([lon, lat])
}

/// `WxH` in whole logical pixels (`ViewParameter.size`).
func parseSize(_ s: String) -> (width: Int, height: Int)? {
  let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
  guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
  return ViewParameter.size([Double(w), Double(h)])
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
