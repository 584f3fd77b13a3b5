/// A halo: the glyph outline stroked under the text, reaching `width` logical
/// pixels beyond it.
public struct Halo: Sendable {
  public var color: Color
  public var width: Double

  public init(color: Color, width: Double) {
    self.color = color
    self.width = width
  }
}

/// How a features layer labels its features (section 3.1): placed with
/// collision detection, never overlapping another placed label unless
/// `allowOverlap`.
public struct LabelStyle: Sendable {
  /// The property whose value is the label's text.
  public var field: String
  /// Em size in logical pixels.
  public var size: Double = 12
  public var color: Color = Color(r: 0x22, g: 0x22, b: 0x22)
  /// A face's full name or family; nil uses DejaVu Sans.
  public var font: String?
  public var halo: Halo?
  /// Candidate anchors, tried in order; the anchor names the point of the
  /// label box that sits on the feature's point plus `offset`.
  public var anchors: [Anchor] = [.center]
  /// Shift in logical pixels, x right and y down.
  public var offset: (Double, Double) = (0, 0)
  public var allowOverlap = false
  /// Higher is placed first.
  public var priority: Double = 0

  public init(field: String) {
    self.field = field
  }
}

/// The text style of an annotation sublayer (section 3.3). `size` and the
/// halo's width hold at the layer's reference scale and scale with the map.
public struct AnnotationStyle: Sendable {
  public var size: Double = 10
  public var color: Color = .black
  public var font: String?
  public var halo: Halo?
  public var align: TextAlign = .center
  public var baseline: TextBaseline = .middle

  public init() {}
}

/// A class of annotation with its own filter, visibility and scale range.
public struct AnnotationSublayer: Sendable {
  public var id: String
  public var filter: Filter = Filter()
  public var visible = true
  public var scaleRange: ScaleRange = .unlimited
  public var style = AnnotationStyle()

  public init(id: String) {
    self.id = id
  }
}

/// An annotation layer: text with a fixed place and a fixed geographic size,
/// never moved or dropped for collisions.
public struct AnnotationLayer: Sendable {
  public var source: Source
  /// The property holding each feature's text.
  public var textField: String
  /// The property holding an angle in degrees counter-clockwise from east.
  public var angleField: String?
  /// The scale at which each sublayer's `size` holds.
  public var referenceScale: Double
  public var sublayers: [AnnotationSublayer]
}
