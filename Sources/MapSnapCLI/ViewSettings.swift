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
  var bearing: Double? = nil
  /// `--view-crs` as given.
  var viewCrs: String? = nil

  /// `--view-crs` as `ViewParameter.viewCrs` reads it.
  var viewReference: String? { viewCrs.flatMap { ViewParameter.viewCrs(.string($0)) } }

  /// The view's parameters by `ViewParameter`'s rules (the scene's and a
  /// manifest line's), then what only the command line has.
  func validate() throws {
    if let s = scale, !ViewParameter.isScale(s) { throw invalid(.scale, "\(s)") }
    if let z = zoom, !ViewParameter.isZoom(z) { throw invalid(.zoom, "\(z)") }
    if let b = bearing, !ViewParameter.isBearing(b) { throw invalid(.bearing, "\(b)") }
    if scale != nil && zoom != nil { throw ValidationError("give either --scale or --zoom, not both") }
    if let v = viewCrs {
      guard let reference = viewReference else { throw invalid(.viewCrs, Echo.quoted(v)) }
      if reference != ViewParameter.mapUnits, case .failure(let e) = MapProjection.named(reference) {
        throw ValidationError("--view-crs must be \(ViewParameter.viewCrs.expected(.commandLine)), got \(Echo.quoted(v)): \(e)")
      }
    }
    if let c = center, parseCenter(c, viewCrs: viewReference) == nil {
      throw ViewValidation.invalid(.center, Echo.quoted(c), degrees: ViewParameter.isDegrees(viewCrs: viewReference))
    }
    if let s = size, parseSize(s) == nil { throw invalid(.size, Echo.quoted(s)) }
    try CountOptions.checkMaxPixels(maxPixels)
    if let r = pixelRatio, !ViewParameter.isPixelRatio(r) { throw invalid(.pixelRatio, "\(r)") }
    if let b = bounds {
      switch boundsCheck(b, viewCrs: viewReference) {
      case .box: break
      case .outOfRange: throw ViewValidation.invalid(.bounds, Echo.quoted(b), degrees: ViewParameter.isDegrees(viewCrs: viewReference))
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
    ViewValidation.invalid(parameter, found, degrees: true)
  }

  /// The overlays of `--geojson`, `--highlight` and `--marker`, in that
  /// order (markers on top), each kind in the order given.
  func overlays() throws(SceneError) -> [Overlay] {
    let decoder = OverlayDecoder(file: "command line", baseDirectory: "", viewCrs: viewReference)
    var out: [Overlay] = []
    for g in geojson { out.append(try decoder.decode(commandLine: g, kind: "geojson")) }
    for h in highlight { out.append(try decoder.decode(commandLine: h, kind: "highlight")) }
    for m in marker { out.append(try decoder.decode(commandLine: m, kind: "marker")) }
    return out
  }

  var overrides: ViewOverrides {
    ViewOverrides(
      scale: scale, zoom: zoom, center: center.flatMap { parseCenter($0, viewCrs: viewReference) }, size: size.flatMap(parseSize),
      pixelRatio: pixelRatio, floor: floor.map(FloorValue.init), bounds: bounds.flatMap { parseBounds($0, viewCrs: viewReference) },
      padding: padding.flatMap(parsePadding), fit: fit.flatMap(parseFit), maxPixels: maxPixels, bearing: bearing, viewCrs: viewReference)
  }

  /// The one-frame `RenderSession` of this command line (the session
  /// `batch` and `test` draw through), kept until the process exits: the
  /// `--root` confinement with the command line's own overlay files left
  /// out (they are the operator's), the `--font-dir` fonts, `--max-pixels`.
  func session(files: FileSettings, strict: Bool = false) throws -> RenderSession {
    var options = RenderSession.Options()
    options.root = try files.confinement(exempt: FileSettings.paths(of: try overlays()))
    options.maximumSourceBytes = files.maxSourceBytes
    options.maxPixels = overrides.maxPixels
    options.strict = strict
    let session: RenderSession
    do {
      session = try RenderSession(options: options, fonts: .shared(directories: fontDirs))
    } catch {
      printError("error: \(error)")
      throw ExitStatus.of(error).code
    }
    KeptUntilExit.keep(session)
    return session
  }

  /// Loads the scene at `path` and plans its frame with these options,
  /// printing what goes wrong (`failure`) and the warnings (missing
  /// sources, code points no font covers) to standard error.
  func plan(sceneAt path: String, files: FileSettings) throws -> FramePlan {
    let session = try session(files: files)
    // The viewport is decided once, by the plan, through the confined
    // loader (a `--fit` layer's source outside `--root` is never opened).
    let plan: FramePlan
    do throws(SceneError) {
      plan = try session.plan(scene: path, overrides: overrides, overlays: try overlays(), threads: 0)
    } catch {
      throw failure(error)
    }
    for w in RenderSession.warnings(of: plan) { printError("warning: \(w)") }
    return plan
  }

  /// Prints why no frame could be planned and returns the exit: an image
  /// made too large by the options is a usage error (64), anything else an
  /// invalid scene (2).
  func failure(_ error: SceneError) -> ExitCode {
    if let usage = imageSizeUsageError(error) {
      printError("error: \(usage)")
      return ExitStatus.usage.code
    }
    printError("error: \(error)")
    return ExitStatus.of(error).code
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
}

/// The command line's words for a view value it refuses.
enum ViewValidation {
  /// "--option must be …, got …", in degrees or in the view's units.
  static func invalid(_ parameter: ViewParameter, _ found: String, degrees: Bool) -> ValidationError {
    let expected = degrees ? parameter.expected(.commandLine) : parameter.expectedInMapUnits(.commandLine)
    let hint = degrees && [.center, .bounds].contains(parameter) ? " (coordinates in map units need --view-crs: map, or a reference such as EPSG:3067)" : ""
    return ValidationError("\(parameter.option ?? parameter.key) must be \(expected), got \(found)\(hint)")
  }
}
