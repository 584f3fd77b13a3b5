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
    /// A feature drawn by a layer of a `style` layer's style: the scene
    /// layer, the style layer's id and the tile feature's id (or its
    /// source's `promoteId` property).
    case styleFeature(layer: String, styleLayer: String, id: FeatureID)
  }

  /// One candidate position: the anchor names the point of the box that sits on
  /// the annotated position; `offsetX` moves the box right and `offsetY` UP, in
  /// logical pixels (Mapbox's `ViewAnnotationAnchorConfig`).
  public struct AnchorConfig: Sendable {
    /// The point of the box that sits on the position.
    public var anchor: Anchor
    /// Logical pixels the box moves right.
    public var offsetX: Double = 0
    /// Logical pixels the box moves up.
    public var offsetY: Double = 0

    /// A candidate at `anchor`, moved by the offsets.
    public init(anchor: Anchor, offsetX: Double = 0, offsetY: Double = 0) {
      self.anchor = anchor
      self.offsetX = offsetX
      self.offsetY = offsetY
    }
  }

  /// The box's look. Sizes in logical pixels.
  public struct Style: Sendable {
    /// The box's fill.
    public var background: Color = .white
    /// The border's colour.
    public var borderColor: Color = Color(r: 0x55, g: 0x55, b: 0x55)
    /// The border's width; 0: none.
    public var borderWidth: Double = 1
    /// The corners' radius.
    public var cornerRadius: Double = 4
    /// Space between the text and the border, on each side.
    public var padding: Double = 6
    /// The text's colour.
    public var textColor: Color = Color(r: 0x22, g: 0x22, b: 0x22)
    /// The text's size.
    public var fontSize: Double = 12
    /// The font's name; nil: `FontLibrary.defaultFont`.
    public var font: String?
    /// Lines wrap at spaces to at most this many ems; nil: never.
    public var maxWidth: Double? = nil
    /// Space added between characters, in ems.
    public var letterSpacing: Double = 0

    /// The default look: white box, grey border, dark 12 px text.
    public init() {}
  }

  /// The `id`, or `viewAnnotations[i]` when none is given.
  public var id: String
  /// What the box sits on.
  public var target: Target
  /// The box's text; `\n` breaks lines.
  public var text: String
  /// Fixed size in logical pixels; nil fits the box to the text plus padding.
  public var size: (width: Double, height: Double)?
  /// The box's look.
  public var style = Style()
  /// The candidate positions, tried in order: the first whose box lies
  /// wholly inside the image and (unless `allowOverlap`) overlaps no box
  /// placed before is taken.
  public var anchors: [AnchorConfig] = [AnchorConfig(anchor: .center)]
  /// Placement order after `selected`: higher first.
  public var priority: Double = 0
  /// Selected boxes are placed first and drawn above the others.
  public var selected = false
  /// True: placed even over boxes placed before.
  public var allowOverlap = false
  /// False: not drawn (reported `notVisible`).
  public var visible = true
  /// The floor it is on (section 5); nil: every floor.
  public var floor: FloorValue?
  /// The scales at which it is drawn.
  public var scaleRange: ScaleRange = .unlimited

  /// A visible box with `text` on `target`, centred, in the default look.
  public init(id: String, target: Target, text: String) {
    self.id = id
    self.target = target
    self.text = text
  }
}
