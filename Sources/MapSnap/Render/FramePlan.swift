/// Everything decided about a frame before any pixel is drawn: the map state
/// (what each layer shows and why), the placed text and the resolved view
/// annotations. `mapsnap explain` prints it; `Snapshot.render` draws it.
public struct FramePlan: Sendable {
  public let scene: Scene
  public let state: MapState
  public let text: TextPlacement
  public let viewAnnotations: ViewAnnotationPlacement
  let icons: IconCache
  /// Seconds spent resolving and on text and view annotations.
  public let resolveTime: Double
  public let textTime: Double

  /// Resolves `scene` with `overrides`. Fonts load on first use when the
  /// scene has text and none are given (`FontLibrary.bundledDirectory`).
  /// - Throws: `SceneError` when the overrides and scene give no valid view,
  ///   or a style names a font that is not available.
  public static func make(
    _ scene: Scene, overrides: ViewOverrides = ViewOverrides(), sources: SourceLoader = SourceLoader(), fonts: FontLibrary? = nil
  ) throws(SceneError) -> FramePlan {
    let viewport = try overrides.viewport(for: scene)
    var clock = monotonicSeconds()
    var state = MapResolver(scene: scene, viewport: viewport, floor: overrides.floor ?? scene.map.floor).resolve(sources: sources)
    let icons = IconCache()
    state.loadIcons(icons)
    let resolveTime = lap(&clock)
    var text = TextPlacement()
    var boxes = ViewAnnotationPlacement()
    // Fonts are loaded (and every font the scene names is checked, whatever
    // the scale) when the scene has text of any kind.
    if state.hasText || !scene.viewAnnotations.isEmpty || !scene.fontReferences.isEmpty {
      let library: FontLibrary
      if let fonts {
        library = fonts
      } else {
        do {
          library = try FontLibrary(directories: [FontLibrary.bundledDirectory])
        } catch {
          throw SceneError(file: scene.file, kind: .fontsUnavailable(error))
        }
      }
      try library.check(scene)
      text = TextPlacer(state: state, scene: scene, fonts: library, icons: icons).place()
      boxes = ViewAnnotationPlacer(state: state, scene: scene, fonts: library).place()
      for m in boxes.missingCodePoints where !text.missingCodePoints.contains(m) { text.missingCodePoints.append(m) }
      let used = Set(text.fontsUsed).union(boxes.faces.map { library.faces[$0].fullName })
      text.fontsUsed = library.names.filter { used.contains($0) }
    }
    return FramePlan(
      scene: scene, state: state, text: text, viewAnnotations: boxes, icons: icons, resolveTime: resolveTime, textTime: lap(&clock))
  }

  /// The report (section 6 of the format) as JSON.
  public var report: JSONValue { ReportBuilder(state: state, text: text, viewAnnotations: viewAnnotations).build() }
}

func lap(_ clock: inout Double) -> Double {
  let now = monotonicSeconds()
  defer { clock = now }
  return now - clock
}
