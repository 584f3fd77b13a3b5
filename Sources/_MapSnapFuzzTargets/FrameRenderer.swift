import MapSnap

/// Renders a decoded scene the way `mapsnap` does, bounded for fuzzing: the
/// frame clamped to 64 × 64 logical pixels at a pixel ratio of 2 at most,
/// on one thread, with the bundled fonts loaded once per process; then the
/// report, the `explain` text and the PNG are made too.
enum FrameRenderer {
  /// The largest width and height drawn.
  static let maximumSide = 64
  static let maximumPixelRatio = 2.0

  /// The bundled fonts (`Fonts/`), loaded on first use. Fuzzing runs one
  /// input at a time; the regression tests run the targets serially.
  nonisolated(unsafe) static let fonts: FontLibrary = {
    do {
      return try FontLibrary(directories: [FontLibrary.bundledDirectory])
    } catch {
      fatalError("mapsnap-fuzz: cannot load the bundled fonts from \(FontLibrary.bundledDirectory): \(error)")
    }
  }()

  /// Digests of the files a PNG's input digest names (the fonts above all),
  /// shared so that they are hashed once, not once per frame (SHA-256 under
  /// coverage instrumentation is slow); renewed every 256 frames, since each
  /// input's scratch files have new paths.
  nonisolated(unsafe) static var files = FileDigests()
  nonisolated(unsafe) static var frames = 0

  /// The overrides that clamp `scene`'s frame.
  static func overrides(for scene: Scene) -> ViewOverrides {
    var o = ViewOverrides()
    let (w, h) = scene.map.size
    if w > maximumSide || h > maximumSide || w < 1 || h < 1 {
      o.size = (min(max(w, 1), maximumSide), min(max(h, 1), maximumSide))
    }
    if !(scene.map.pixelRatio <= maximumPixelRatio) { o.pixelRatio = maximumPixelRatio }
    return o
  }

  /// Plans and renders `scene`; `.rejected` when planning throws (no valid
  /// view, an unknown font), `.accepted` when a frame was drawn.
  static func render(_ scene: Scene) -> FuzzOutcome {
    let plan: FramePlan
    do {
      plan = try FramePlan.make(scene, overrides: overrides(for: scene), fonts: fonts, tiles: TileCache(), threads: 1)
    } catch {
      _ = error.description
      return .rejected
    }
    _ = plan.warnings
    _ = Explanation(plan: plan).text
    let snapshot = Snapshot.render(plan, options: RenderOptions(threads: 1))
    _ = snapshot.report(detail: .full)
    frames += 1
    if frames % 256 == 0 { files = FileDigests() }
    _ = try? snapshot.pngData(options: .fast, files: files)
    return .accepted
  }

  /// Decodes the scene in `json` (paths relative to `folder`) and renders it;
  /// `.rejected` when it does not decode.
  static func render(json: String, in folder: String) -> FuzzOutcome {
    let scene: Scene
    do {
      scene = try SceneLoader.decode(Array(json.utf8), file: folder + "/scene.json", baseDirectory: folder)
    } catch {
      fatalError("mapsnap-fuzz: the target's own scene does not decode: \(error)")
    }
    return render(scene)
  }
}
