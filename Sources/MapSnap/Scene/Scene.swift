/// A decoded scene file (format version 1): the map block and the layers.
/// Sources named by path are loaded separately (`SourceLoader`), so that a
/// missing file marks its layer `error` instead of failing the scene.
public struct Scene: Sendable {
  /// The format version the file declares.
  public var version: Int
  /// The `map` block: the view and the frame.
  public var map: MapSettings
  /// The layers, drawn bottom-up in list order.
  public var layers: [Layer]
  /// Boxes drawn above the map, resolved without overlaps (section 4).
  public var viewAnnotations: [ViewAnnotation]
  /// The scene file as named by the user, for messages.
  public var file: String
  /// Folder that relative paths resolve against.
  public var baseDirectory: String
  /// Every font a style names, with the JSON path that names it.
  public var fontReferences: [(name: String, path: String)] = []
  /// SHA-256 of the scene's bytes as read (with the overlays added to it, see
  /// `adding(_:)`), hexadecimal; empty for a scene built in code. Part of a
  /// frame's `InputDigest`.
  public var contentDigest = ""
  /// True when the input was a MapLibre style (`StyleScene`): `--zoom` is
  /// then MapLibre's zoom, one less than the scene's.
  public var isStyle = false

  /// A scene built in code (no digest, no font references).
  public init(version: Int = 1, map: MapSettings, layers: [Layer], viewAnnotations: [ViewAnnotation] = [], file: String, baseDirectory: String) {
    self.version = version
    self.map = map
    self.layers = layers
    self.viewAnnotations = viewAnnotations
    self.file = file
    self.baseDirectory = baseDirectory
  }

  /// True when the scene has text of any kind, at any scale: a label style,
  /// an annotation layer, view annotations, a style naming a font, or an
  /// attribution line, or map furniture.
  public var hasText: Bool {
    if !viewAnnotations.isEmpty || !fontReferences.isEmpty || map.attribution != .none { return true }
    if map.scaleBar != nil || map.northArrow != nil { return true }
    for layer in layers {
      switch layer.content {
      case .annotation: return true
      case .features(_, .single(let s)): if s.label != nil { return true }
      case .features(_, .rules(let rules)): if rules.contains(where: { $0.style.label != nil }) { return true }
      case .graphics, .tiles, .style: break
      }
    }
    return false
  }
}

extension Scene {
  /// The paths of every marker icon the scene names (features layers' styles
  /// and rules, graphics), whether or not a frame at some scale draws it:
  /// what `mapsnap test` keeps when it lists obsolete files.
  public var namedIconPaths: Set<String> {
    var out = Set<String>()
    func add(_ style: Style) { if let icon = style.marker?.icon { out.insert(icon) } }
    for layer in layers {
      switch layer.content {
      case .features(_, .single(let style)): add(style)
      case .features(_, .rules(let rules)): rules.forEach { add($0.style) }
      case .graphics(let graphics): graphics.forEach { add($0.style) }
      default: break
      }
    }
    return out
  }
}
