/// A layer's view status as a set of flags, as ArcGIS reports it. `active`
/// excludes `notVisible` and `outOfScale`, which can hold together.
public struct LayerStatus: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Drawn at this scale and floor.
  public static let active = LayerStatus(rawValue: 1)
  /// `visible` is false.
  public static let notVisible = LayerStatus(rawValue: 2)
  /// The scale is outside the layer's scale range.
  public static let outOfScale = LayerStatus(rawValue: 4)
  /// Could not be drawn: its source is missing or invalid.
  public static let error = LayerStatus(rawValue: 8)
  /// Drawn, with problems (such as skipped invalid features).
  public static let warning = LayerStatus(rawValue: 16)

  /// The flags' names in report order.
  public var names: [String] {
    var out: [String] = []
    if contains(.active) { out.append("active") }
    if contains(.notVisible) { out.append("notVisible") }
    if contains(.outOfScale) { out.append("outOfScale") }
    if contains(.error) { out.append("error") }
    if contains(.warning) { out.append("warning") }
    return out
  }
}

/// Feature counts of one layer.
public struct FeatureCounts: Sendable, Hashable {
  /// Features in the source (or graphics in the layer), including skipped ones.
  public var total = 0
  /// Features drawn in this frame: styled at this scale and floor, and
  /// reaching into the frame.
  public var drawn = 0
  /// Features skipped for invalid geometry.
  public var invalid = 0
  /// Features left out by the floor filter.
  public var otherFloor = 0
}

/// What one layer shows in this frame, and why.
public struct LayerState: Sendable {
  public let id: String
  public let kind: Layer.Kind
  public internal(set) var status: LayerStatus = []
  /// Why the layer is in `error` or `warning`; nil otherwise.
  public internal(set) var message: String?
  public internal(set) var features = FeatureCounts()
  /// Group opacity.
  public let opacity: Double
  /// Geometries to draw, bottom to top, each with its style.
  public internal(set) var drawables: [Drawable] = []
  /// For annotation layers: each sublayer's status and counts.
  public internal(set) var sublayers: [SublayerState] = []
  /// For annotation layers: the texts to draw, in feature order.
  public internal(set) var annotations: [AnnotationText] = []
  /// Index of the scene layer this state belongs to.
  public let index: Int
  /// Ids of features styled at this scale and floor that lie outside the
  /// frame (so view annotations tied to them are `outOfBounds`, not hidden).
  public internal(set) var offFrameIDs: Set<FloorValue> = []
}

/// What one annotation sublayer (class) shows, and why. A sublayer is drawn
/// only when it and its layer are both visible at the scale, so it carries
/// its layer's `notVisible` and `outOfScale` flags as well as its own.
public struct SublayerState: Sendable {
  public let id: String
  public internal(set) var status: LayerStatus = []
  public internal(set) var features = FeatureCounts()
}

/// One annotation to draw: its anchor (Web Mercator metres), text, angle in
/// degrees counter-clockwise from east, and the sublayer whose style it takes.
public struct AnnotationText: Sendable {
  public var point: Point
  public var text: String
  public var angle: Double
  public var sublayer: Int
}

/// One geometry and the style it is drawn with.
public struct Drawable: Sendable {
  public var geometry: Geometry
  public var style: Style
  /// The label's text (the `label.field` property as text), when the style
  /// labels features and the feature has a value.
  public var labelText: String?
  /// Position of the feature in its source (for placement order).
  public var order: Int = 0
  /// The feature's id (GeoJSON `id`, the layer's `idField` property, or the
  /// graphic's `id`), for view annotations tied to features.
  public var featureID: FloorValue? = nil
}

/// Everything decided about a frame before any pixel is drawn: the viewport
/// and, per layer, its status and what it draws. The report is this data
/// written out.
public struct MapState: Sendable {
  public let viewport: Viewport
  public let background: Color
  public let floor: FloorValue?
  public internal(set) var layers: [LayerState]
  /// Messages for standard error (missing sources and the like), in layer order.
  public internal(set) var warnings: [String]

  /// Loads every icon the drawn markers use, once, before the parallel build;
  /// a missing or unreadable icon marks its layer `warning` and is reported.
  mutating func loadIcons(_ icons: IconCache) {
    for i in layers.indices {
      var failed: [String: String] = [:]
      for d in layers[i].drawables {
        guard let m = d.style.marker, let path = m.icon, failed[path] == nil else { continue }
        if case .failure(let error) = icons.image(atPath: path) { failed[path] = "icon \(m.iconName ?? path): \(error)" }
      }
      guard !failed.isEmpty else { continue }
      let message = failed.keys.sorted().map { failed[$0]! }.joined(separator: "; ") + "; markers with it are not drawn"
      layers[i].status.insert(.warning)
      layers[i].message = layers[i].message.map { $0 + "; " + message } ?? message
      warnings.append("layer \"\(layers[i].id)\": \(message)")
    }
  }

  /// True when some layer draws annotation or labels, so fonts are needed.
  public var hasText: Bool {
    layers.contains { !$0.annotations.isEmpty || $0.drawables.contains { $0.labelText != nil } }
  }
}
