internal import _MapSnapStyle

/// A MapLibre style given where a scene is expected (`mapsnap style.json`,
/// a batch line's `style`, a test case's `style.json`): the scene that draws
/// it, a map with the style's camera and the whole style as its one layer.
///
/// - The style's `center` (default 0, 0) and `zoom` (MapLibre's, default 0;
///   the scene's zoom is one more), `bearing` (drawn turned), `pitch`
///   (drawn flat, with a warning).
/// - The frame is 512 × 512 pixels unless `--size` says otherwise, as
///   MapLibre's render tests are; transparent where the style draws nothing
///   (a style without a `background` layer).
/// - A style that cannot be drawn (no `"version": 8`, a layer without an id
///   or type, a layer naming a source the style lacks: the validator's
///   errors) is an input error; its other findings are warnings of the layer.
enum StyleScene {
  /// The frame size when the style is the input and `--size` is not given.
  static let defaultSize = (width: 512, height: 512)

  /// True for a document with `"version": 8`: a style, not a scene.
  static func isStyle(_ json: JSONValue) -> Bool {
    if case .object(let o) = json, case .number(8)? = o["version"] { return true }
    return false
  }

  static func scene(_ json: JSONValue, file: String, baseDirectory: String) throws(SceneError) -> Scene {
    let findings = StyleValidator(expressions: CompiledExpressionChecks()).validate(json, file: file)
    if let e = findings.first(where: { $0.severity == .error }) {
      throw SceneError(file: file, path: e.path, kind: .undrawableStyle(e.message), hint: e.hint.map { "did you mean \(Echo.quoted($0))?" })
    }
    let document: StyleDocument
    do {
      document = try StyleDocument(json: json)
    } catch {
      throw SceneError(file: file, path: error.path, kind: .undrawableStyle(error.message))
    }
    var map = MapSettings(center: document.center ?? (0, 0), zoom: (document.zoom ?? 0) + 1, size: defaultSize)
    map.background = Color(r: 0, g: 0, b: 0, a: 0)
    // Relative URLs start at the style's folder (`baseDirectory`).
    let name = file.split(separator: "/").last.map(String.init) ?? file
    var source = StyleLayerSource(path: file, resolved: FileIO.resolve(name, against: baseDirectory))
    source.document = json
    source.findings = findings
    source.bearing = document.bearing
    let layer = Layer(id: document.name ?? "style", kind: .style, content: .style(source))
    var scene = Scene(version: 8, map: map, layers: [layer], file: file, baseDirectory: baseDirectory)
    scene.isStyle = true
    return scene
  }
}

extension Scene {
  /// Changes every style layer's source (run options such as `--offline`,
  /// the render suite's `local://` root, a `--bearing`).
  mutating func configureStyle(_ change: (inout StyleLayerSource) -> Void) {
    for i in layers.indices {
      guard case .style(var s) = layers[i].content else { continue }
      change(&s)
      layers[i].content = .style(s)
    }
  }
}
