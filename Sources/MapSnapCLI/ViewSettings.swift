import ArgumentParser
import MapSnap

/// What the view options ask for, as plain values, whoever read them
/// (`ViewOptions` through ArgumentParser, or `QuickRender`): the frame's
/// overrides of the scene's map block, the overlays and the fonts.
struct ViewSettings: Equatable {
  var scale: Double? = nil
  var zoom: Double? = nil
  var center: String? = nil
  var size: String? = nil
  var pixelRatio: Double? = nil
  var bounds: String? = nil
  var padding: String? = nil
  var fit: String? = nil
  var marker: [String] = []
  var highlight: [String] = []
  var geojson: [String] = []
  var floor: String? = nil
  var maxPixels: Int = FrameSizeLimit.defaultMaxPixels
  var fontDirs: [String] = []

  /// The view's parameters by `ViewParameter`'s rules (the scene's and a
  /// manifest line's), then what only the command line has.
  func validate() throws {
    if let s = scale, !ViewParameter.isScale(s) { throw invalid(.scale, "\(s)") }
    if let z = zoom, !ViewParameter.isZoom(z) { throw invalid(.zoom, "\(z)") }
    if scale != nil && zoom != nil { throw ValidationError("give either --scale or --zoom, not both") }
    if let c = center, parseCenter(c) == nil { throw invalid(.center, Echo.quoted(c)) }
    if let s = size, parseSize(s) == nil { throw invalid(.size, Echo.quoted(s)) }
    if !(1...FrameSizeLimit.absoluteMaxPixels).contains(maxPixels) {
      throw ValidationError("--max-pixels must be 1 to \(FrameSizeLimit.absoluteMaxPixels) (2^36), got \(maxPixels)")
    }
    if let r = pixelRatio, !ViewParameter.isPixelRatio(r) { throw invalid(.pixelRatio, "\(r)") }
    if let b = bounds {
      switch boundsCheck(b) {
      case .box: break
      case .outOfRange: throw invalid(.bounds, Echo.quoted(b))
      case .wrongOrder: throw ValidationError("--bounds must have \(ViewParameter.boundsOrder), got \(Echo.quoted(b))")
      }
    }
    if let p = padding, parsePadding(p) == nil { throw invalid(.padding, Echo.quoted(p)) }
    if let f = fit, parseFit(f) == nil { throw ValidationError("--fit must be LAYER:ID (split at the first ':'), got \(Echo.quoted(f))") }
    if bounds != nil && fit != nil { throw ValidationError("give either --bounds or --fit, not both") }
    do {
      _ = try overlays()
    } catch {
      throw ValidationError("\(error.path): \(error.message)\(error.hint.map { " (\($0))" } ?? "")")
    }
  }

  /// The usage error of a value `parameter` refuses: "--option must be …, got …".
  private func invalid(_ parameter: ViewParameter, _ found: String) -> ValidationError {
    ValidationError("\(parameter.option ?? parameter.key) must be \(parameter.expected(.commandLine)), got \(found)")
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
  func plan(sceneAt path: String, threads: Int = 0, files: FileSettings, digests: FileDigests? = nil) throws -> FramePlan {
    var loaded: Scene
    let confinement = try files.confinement(exempt: FileSettings.paths(of: try overlays()))
    let sources = SourceLoader(maximumSourceBytes: files.maxSourceBytes, confinement: confinement, digestStore: DigestStore.standard)
    KeptUntilExit.keep(sources)
    do {
      loaded = try SceneLoader.load(path: path, maximumBytes: files.maxSourceBytes)
      loaded = try loaded.adding(try overlays(), sources: sources)
    } catch {
      printError("error: \(error)")
      throw ExitStatus.invalidInput.code
    }
    // The viewport is decided once, by the plan, through the confined
    // loader (a `--fit` layer's source outside `--root` is never opened).
    let plan: FramePlan
    do {
      plan = try FramePlan.make(
        loaded, overrides: overrides, sources: sources, fonts: try fonts(), icons: IconCache(confinement: confinement),
        tiles: TileCache(confinement: confinement), threads: threads, digests: digests)
    } catch let error as SceneError {
      if let usage = imageSizeUsageError(error) {
        printError("error: \(usage)")
        throw ExitStatus.usage.code
      }
      printError("error: \(error)")
      throw ExitStatus.invalidInput.code
    } catch {
      printError("error: \(error)")
      throw ExitStatus.invalidInput.code
    }
    for w in plan.warnings { printError("warning: \(w)") }
    if let w = plan.missingCodePointsWarning { printError("warning: \(w)") }
    return plan
  }

  /// The usage error for a frame made too large by these options: a size
  /// the scene accepts can grow too large through `--size` or
  /// `--pixel-ratio` (or a lowered `--max-pixels`), which is a usage error
  /// (exit 64) naming the options, not an invalid scene; nil for any other
  /// error, or when no such option is given.
  func imageSizeUsageError(_ error: SceneError) -> String? {
    guard case .imageTooLarge = error.kind, size != nil || pixelRatio != nil || maxPixels < FrameSizeLimit.defaultMaxPixels else {
      return nil
    }
    return "--size/--pixel-ratio: \(error.message)\(error.hint.map { " (\($0))" } ?? "")"
  }

  /// The fonts to draw with: `--font-dir` folders before the bundled ones;
  /// nil (load on demand) without `--font-dir`.
  func fonts() throws(TextError) -> FontLibrary? {
    guard !fontDirs.isEmpty else { return nil }
    return try FontLibrary(directories: fontDirs + [FontLibrary.bundledDirectory])
  }
}
