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

  @Argument(help: "The scene file (JSON, scene format version 1).")
  var scene: String

  @Option(name: .shortAndLong, help: ArgumentHelp("Output PNG; '-' writes to standard output. Default: the scene's name with .png, in the current folder.", valueName: "file"))
  var output: String?

  @Option(parsing: .unconditional, help: ArgumentHelp("Map scale denominator: 2000 means 1:2000.", valueName: "denominator"))
  var scale: Double?

  @Option(parsing: .unconditional, help: "Zoom level of the 256-px tiling scheme (scale = 591657527.591555 / 2^zoom).")
  var zoom: Double?

  @Option(parsing: .unconditional, help: ArgumentHelp("Map centre as lon,lat in degrees (a negative longitude is fine: --center -73.98,40.71).", valueName: "lon,lat"))
  var center: String?

  @Option(help: ArgumentHelp("Image size in logical pixels.", valueName: "WxH"))
  var size: String?

  @Option(name: .customLong("pixel-ratio"), parsing: .unconditional, help: "Output pixels per logical pixel (2 = @2x).")
  var pixelRatio: Double?

  @Option(help: "The floor to show; things on other floors are hidden.")
  var floor: String?

  @Option(help: ArgumentHelp("Write the JSON report (map, layer statuses, counts) to this file; '-' for standard output.", valueName: "file"))
  var report: String?

  @Option(name: .customLong("font-dir"), help: ArgumentHelp("A folder of .ttf/.otf fonts to use before the bundled ones (repeatable).", valueName: "folder"))
  var fontDirs: [String] = []

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

  mutating func validate() throws {
    if let s = scale, !(s > 0 && s.isFinite) { throw ValidationError("--scale must be a number > 0, got \(s)") }
    if let z = zoom, !(z >= 0 && z <= 30) { throw ValidationError("--zoom must be between 0 and 30, got \(z)") }
    if scale != nil && zoom != nil { throw ValidationError("give either --scale or --zoom, not both") }
    if let c = center, parseCenter(c) == nil { throw ValidationError("--center must be lon,lat in degrees (latitude within ±90), got '\(c)'") }
    if let s = size, parseSize(s) == nil { throw ValidationError("--size must be WxH in whole logical pixels (1…32768), got '\(s)'") }
    if let r = pixelRatio, !(r > 0 && r <= 16) { throw ValidationError("--pixel-ratio must be > 0 and <= 16, got \(r)") }
    if threads < 0 { throw ValidationError("--threads must be 0 or more, got \(threads)") }
    if tileRows < 1 { throw ValidationError("--tile-rows must be at least 1, got \(tileRows)") }
    if output == "-" && report == "-" { throw ValidationError("only one of --output and --report can be '-'") }
  }

  func run() throws {
    let loaded: Scene
    let snapshot: Snapshot
    do {
      loaded = try SceneLoader.load(path: scene)
      let overrides = ViewOverrides(
        scale: scale, zoom: zoom, center: center.flatMap(parseCenter), size: size.flatMap(parseSize),
        pixelRatio: pixelRatio, floor: floor.map(FloorValue.init))
      var fonts: FontLibrary? = nil
      if !fontDirs.isEmpty {
        do {
          fonts = try FontLibrary(directories: fontDirs + [FontLibrary.bundledDirectory])
        } catch {
          printError("error: \(error)")
          throw ExitStatus.invalidScene
        }
      }
      snapshot = try Snapshot.render(
        loaded, overrides: overrides, options: RenderOptions(threads: threads, tileRows: tileRows), fonts: fonts)
    } catch let error as ExitCode {
      throw error
    } catch {
      printError("error: \(error)")
      throw ExitStatus.invalidScene
    }
    for w in snapshot.state.warnings { printError("warning: \(w)") }
    if !snapshot.text.missingCodePoints.isEmpty {
      let names = snapshot.text.missingCodePoints.map { "U+" + String($0.value, radix: 16, uppercase: true) }
      printError("warning: no font covers \(names.joined(separator: ", ")); those characters are not drawn (add a font with --font-dir)")
    }
    if strict, snapshot.state.layers.contains(where: { $0.status.contains(.error) }) {
      printError("error: --strict: a layer's source could not be loaded; no output written")
      throw ExitStatus.renderFailed
    }
    // All or nothing: every file is staged next to its target first and
    // renamed into place only when all of them were written.
    var staged: [FileIO.StagedFile] = []
    do {
      let png = try snapshot.pngData(options: compression == .fast ? .fast : .small)
      var reportBytes: [UInt8]? = nil
      if report != nil {
        reportBytes = JSONWriter().writeBytes(snapshot.report)
        reportBytes!.append(10)
      }
      let target = output ?? defaultOutput(for: scene)
      if target != "-" { staged.append(try FileIO.stage(png, for: target)) }
      if let report, report != "-", let reportBytes { staged.append(try FileIO.stage(reportBytes, for: report)) }
      for file in staged { try file.commit() }
      staged.removeAll()
      if target == "-" { try FileIO.writeToStandardOutput(png) }
      if report == "-", let reportBytes { try FileIO.writeToStandardOutput(reportBytes) }
    } catch {
      for file in staged { file.discard() }
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
    lon.isFinite, lat >= -90, lat <= 90
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
