/// A box of fixed screen size with text, tied to a coordinate or a feature and
/// drawn above the whole map (section 4 of the format).
public struct ViewAnnotation: Sendable {
  /// What the box sits on.
  public enum Target: Sendable {
    /// WGS84 longitude and latitude.
    case coordinate(lon: Double, lat: Double)
    /// A feature of a `features` or `graphics` layer, by layer id and feature id
    /// (numbers and strings compare by value, as floors do).
    case feature(layer: String, id: FeatureID)
  }

  /// One candidate position: the anchor names the point of the box that sits on
  /// the annotated position; `offsetX` moves the box right and `offsetY` UP, in
  /// logical pixels (Mapbox's `ViewAnnotationAnchorConfig`).
  public struct AnchorConfig: Sendable {
    public var anchor: Anchor
    public var offsetX: Double = 0
    public var offsetY: Double = 0

    public init(anchor: Anchor, offsetX: Double = 0, offsetY: Double = 0) {
      self.anchor = anchor
      self.offsetX = offsetX
      self.offsetY = offsetY
    }
  }

  /// The box's look. Sizes in logical pixels.
  public struct Style: Sendable {
    public var background: Color = .white
    public var borderColor: Color = Color(r: 0x55, g: 0x55, b: 0x55)
    public var borderWidth: Double = 1
    public var cornerRadius: Double = 4
    public var padding: Double = 6
    public var textColor: Color = Color(r: 0x22, g: 0x22, b: 0x22)
    public var fontSize: Double = 12
    public var font: String?
    /// Lines wrap at spaces to at most this many ems; nil: never.
    public var maxWidth: Double? = nil
    /// Space added between characters, in ems.
    public var letterSpacing: Double = 0

    public init() {}
  }

  /// The `id`, or `viewAnnotations[i]` when none is given.
  public var id: String
  public var target: Target
  public var text: String
  /// Fixed size in logical pixels; nil fits the box to the text plus padding.
  public var size: (width: Double, height: Double)?
  public var style = Style()
  public var anchors: [AnchorConfig] = [AnchorConfig(anchor: .center)]
  public var priority: Double = 0
  public var selected = false
  public var allowOverlap = false
  public var visible = true
  public var floor: FloorValue?
  public var scaleRange: ScaleRange = .unlimited

  public init(id: String, target: Target, text: String) {
    self.id = id
    self.target = target
    self.text = text
  }
}
