/// One entry of `layers`, drawn bottom-up in list order.
public struct Layer: Sendable {
  /// The layer's `type`: what its content is.
  public enum Kind: String, Sendable, CaseIterable {
    case features, graphics, annotation, tiles, style
  }

  /// The layer's `id`, unique in the scene: how reports, `explain` and
  /// view annotations name it.
  public var id: String
  /// Its `type`, matching `content`.
  public var kind: Kind
  /// False: the layer is not drawn (reported as hidden).
  public var visible: Bool = true
  /// Group opacity 0...1: the layer is composed as a whole.
  public var opacity: Double = 1
  /// The scales at which the layer is drawn.
  public var scaleRange: ScaleRange = .unlimited
  /// Property holding each feature's floor (section 5); nil: not floor-aware.
  public var floorField: String?
  /// Property holding a feature's id when the GeoJSON `id` member is absent.
  public var idField: String?
  /// Credit for the layer's data, drawn with `map.attribution: true`; for a
  /// tiles layer nil takes the source's metadata.
  public var attribution: String?
  /// What it draws, by kind.
  public var content: Content

  /// What the layer draws.
  public enum Content: Sendable {
    /// GeoJSON with one style or a list of rules.
    case features(source: Source, styling: Styling)
    /// Inline geometry, each with its own style.
    case graphics([Graphic])
    /// Text at a fixed geographic size, in sublayers.
    case annotation(AnnotationLayer)
    /// A raster tile set.
    case tiles(TileLayer)
    /// A whole MapLibre style, drawn as one layer (a vector basemap).
    case style(StyleLayerSource)
  }

  /// A visible layer at every scale, opaque, with no floor or id field.
  public init(id: String, kind: Kind, content: Content) {
    self.id = id
    self.kind = kind
    self.content = content
  }
}
