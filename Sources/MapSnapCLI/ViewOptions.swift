import ArgumentParser
import MapSnap

/// The options that choose the frame, shared by `render` and `explain`; they
/// override the scene's map block.
struct ViewOptions: ParsableArguments {
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

  @Option(parsing: .unconditional, help: ArgumentHelp("Fit the view to this box (degrees): the centre is its centre, and the scale the most zoomed-in at which it fits (unless --scale or --zoom is given).", valueName: "west,south,east,north"))
  var bounds: String?

  @Option(parsing: .unconditional, help: ArgumentHelp("Logical pixels kept free around the fitted box: one number, or top,right,bottom,left.", valueName: "pixels"))
  var padding: String?

  @Option(help: ArgumentHelp("Fit the view to one feature's bounds: a layer id and a feature id, split at the first ':'.", valueName: "layer:id"))
  var fit: String?

  @Option(help: ArgumentHelp("A marker on top: lon,lat, then any of |label:TEXT |color:C |shape:pin|circle|… |size:PX |icon:FILE (repeatable).", valueName: "lon,lat[|key:value…]"))
  var marker: [String] = []

  @Option(help: ArgumentHelp("Draw one feature again on top, highlighted: LAYER:ID (split at the first ':'), then any of |color:C |width:PX (repeatable).", valueName: "layer:id[|key:value…]"))
  var highlight: [String] = []

  @Option(help: ArgumentHelp("Draw a GeoJSON file on top, then any of |color:C |width:PX (repeatable).", valueName: "file[|key:value…]"))
  var geojson: [String] = []

  @Option(help: "The floor to show; things on other floors are hidden.")
  var floor: String?

  @Option(
    name: .customLong("max-pixels"), parsing: .unconditional,
    help: ArgumentHelp(
      "The most device pixels (width × height × pixel ratio²) a frame may have: a guard on time and memory. Default 1073741824 (2^30, 32768×32768); at most 68719476736 (2^36).",
      valueName: "pixels"))
  var maxPixels: Int = FrameSizeLimit.defaultMaxPixels

  @Option(name: .customLong("font-dir"), help: ArgumentHelp("A folder of .ttf/.otf fonts to use before the bundled ones (repeatable).", valueName: "folder"))
  var fontDirs: [String] = []

  mutating func validate() throws {
    if let s = scale, !Viewport.scaleRange.contains(s) {
      throw ValidationError("--scale must be a scale denominator from 0.000001 to 1e12 (2000 means 1:2000), got \(s)")
    }
    if let z = zoom, !(z >= 0 && z <= 30) { throw ValidationError("--zoom must be between 0 and 30, got \(z)") }
    if scale != nil && zoom != nil { throw ValidationError("give either --scale or --zoom, not both") }
    if let c = center, parseCenter(c) == nil { throw ValidationError("--center must be lon,lat in degrees (longitude within ±180, latitude within ±90), got \(Echo.quoted(c))") }
    if let s = size, parseSize(s) == nil { throw ValidationError("--size must be WxH in whole logical pixels (1…32768), got \(Echo.quoted(s))") }
    if !(1...FrameSizeLimit.absoluteMaxPixels).contains(maxPixels) {
      throw ValidationError("--max-pixels must be 1 to \(FrameSizeLimit.absoluteMaxPixels) (2^36), got \(maxPixels)")
    }
    if let r = pixelRatio, !(r > 0 && r <= 16) { throw ValidationError("--pixel-ratio must be > 0 and <= 16, got \(r)") }
    if let b = bounds, parseBounds(b) == nil {
      throw ValidationError("--bounds must be west,south,east,north in degrees (west ≤ east, south ≤ north, within ±180 and ±90), got \(Echo.quoted(b))")
    }
    if let p = padding, parsePadding(p) == nil {
      throw ValidationError("--padding must be one number of logical pixels ≥ 0, or top,right,bottom,left, got \(Echo.quoted(p))")
    }
    if let f = fit, parseFit(f) == nil { throw ValidationError("--fit must be LAYER:ID (split at the first ':'), got \(Echo.quoted(f))") }
    if bounds != nil && fit != nil { throw ValidationError("give either --bounds or --fit, not both") }
    do {
      _ = try overlays()
    } catch {
      throw ValidationError("\(error.path): \(error.message)\(error.hint.map { " (\($0))" } ?? "")")
    }
  }

  /// The overlays of `--geojson`, `--highlight` and `--marker`, in that
  /// order (markers on top), each kind in the order given.
  func overlays() throws(SceneError) -> [Overlay] {
    let decoder = OverlayDecoder(file: "command line", baseDirectory: "")
    var out: [Overlay] = []
    for g in geojson { out.append(try decoder.decode(commandLine: g, kind: "geojson")) }
    for h in highlight { out.append(try decoder.decode(commandLine: h, kind: "highlight")) }
    for m in marker { out.append(try decoder.decode(commandLine: m, kind: "marker")) }
    return out
  }

  var overrides: ViewOverrides {
    ViewOverrides(
      scale: scale, zoom: zoom, center: center.flatMap(parseCenter), size: size.flatMap(parseSize),
      pixelRatio: pixelRatio, floor: floor.map(FloorValue.init), bounds: bounds.flatMap(parseBounds),
      padding: padding.flatMap(parsePadding), fit: fit.flatMap(parseFit), maxPixels: maxPixels)
  }

  /// Loads the scene at `path` and resolves its frame with these options,
  /// printing what goes wrong to standard error: an invalid scene exits 2, an
  /// image made too large by the options exits 64. Warnings (missing sources,
  /// code points no font covers) are printed and the plan returned.
  func plan(sceneAt path: String, threads: Int = 0, files: FileOptions) throws -> FramePlan {
    var loaded: Scene
    let confinement = try files.confinement(exempt: FileOptions.paths(of: try overlays()))
    let sources = SourceLoader(maximumSourceBytes: files.maxSourceBytes.value, confinement: confinement)
    do {
      loaded = try SceneLoader.load(path: path, maximumBytes: files.maxSourceBytes.value)
      loaded = try loaded.adding(try overlays(), sources: sources)
    } catch {
      printError("error: \(error)")
      throw ExitStatus.invalidScene
    }
    do {
      try checkImageSize(for: loaded)
    } catch {
      printError("error: \(error)")
      throw ExitCode.validationFailure
    }
    let plan: FramePlan
    do {
      plan = try FramePlan.make(
        loaded, overrides: overrides, sources: sources, fonts: try fonts(), icons: IconCache(confinement: confinement),
        tiles: TileCache(confinement: confinement), threads: threads)
    } catch {
      printError("error: \(error)")
      throw ExitStatus.invalidScene
    }
    for w in plan.warnings { printError("warning: \(w)") }
    if let w = plan.missingCodePointsWarning { printError("warning: \(w)") }
    return plan
  }

  /// Checks the image the options ask for: a size the scene accepts can grow
  /// too large through `--size` or `--pixel-ratio` (or a lowered
  /// `--max-pixels`), which is a usage error
  /// (exit 64) naming the options, not an invalid scene.
  func checkImageSize(for scene: Scene) throws {
    guard size != nil || pixelRatio != nil || maxPixels < FrameSizeLimit.defaultMaxPixels else { return }
    do {
      _ = try overrides.viewport(for: scene)
    } catch {
      if case .imageTooLarge = error.kind {
        throw ValidationError("--size/--pixel-ratio: \(error.message)\(error.hint.map { " (\($0))" } ?? "")")
      }
    }
  }

  /// The fonts to draw with: `--font-dir` folders before the bundled ones;
  /// nil (load on demand) without `--font-dir`.
  func fonts() throws(TextError) -> FontLibrary? {
    guard !fontDirs.isEmpty else { return nil }
    return try FontLibrary(directories: fontDirs + [FontLibrary.bundledDirectory])
  }
}

/// `west,south,east,north` in degrees, west ≤ east and south ≤ north.
func parseBounds(_ s: String) -> MapBounds? {
  let n = s.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0.trimmingSpaces) }
  guard n.count == 4, n.allSatisfy(\.isFinite), abs(n[0]) <= 180, abs(n[2]) <= 180, abs(n[1]) <= 90, abs(n[3]) <= 90,
    n[0] <= n[2], n[1] <= n[3]
  else { return nil }
  return MapBounds(west: n[0], south: n[1], east: n[2], north: n[3])
}

/// One number, or `top,right,bottom,left`, in logical pixels ≥ 0.
func parsePadding(_ s: String) -> Padding? {
  let n = s.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0.trimmingSpaces) }
  guard n.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
  switch n.count {
  case 1: return Padding(n[0])
  case 4: return Padding(top: n[0], right: n[1], bottom: n[2], left: n[3])
  default: return nil
  }
}

/// `LAYER:ID`, split at the first `:` (so ids may contain colons).
func parseFit(_ s: String) -> (layer: String, id: FloorValue)? {
  OverlayDecoder.featureReference(s).map { ($0.layer, FloorValue($0.id)) }
}
