/// How a features layer labels its features (section 3.1): placed with
/// collision detection, never overlapping another placed label unless
/// `allowOverlap`.
public struct LabelStyle: Sendable {
  /// The label's text: one property (`field`) or a template of several
  /// (`text`: `"{ref} {name}"`).
  public var text: TextTemplate
  /// Lines wrap at spaces to at most this many ems (`maxWidth`); nil: never.
  public var maxWidth: Double? = nil
  /// Space added between characters, in ems (`letterSpacing`; negative
  /// tightens).
  public var letterSpacing: Double = 0
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

  /// A label of the property `field`.
  public init(field: String) {
    text = TextTemplate(field: field)
  }

  /// A label of the composed `text`.
  public init(text: TextTemplate) {
    self.text = text
  }
}
