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
}

/// One geometry and the style it is drawn with.
public struct Drawable: Sendable {
  public var geometry: Geometry
  public var style: Style
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
}
