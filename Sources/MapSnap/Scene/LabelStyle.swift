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
  /// How the lines of a wrapped label line up within its box (`justify`,
  /// Mapbox's `text-justify`): centred by default, as Mapbox, ArcGIS and
  /// Mapnik centre a point label's lines; `left` or `right`. The box, and
  /// so placement and collisions, is the same for all three.
  public var justify: TextAlign = .center
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
  /// Where the label goes: at a point (`point`, the default: a point's
  /// position, a polygon's interior point) or along a line (`line`).
  public var placement: LabelPlacement = .point
  /// Along a line: the distance between repetitions of the label, in
  /// logical pixels (Mapbox's `symbol-spacing`, 250 by default).
  public var spacing: Double = 250
  /// Along a line: the largest turn between neighbouring glyphs, in degrees
  /// (Mapbox's `text-max-angle`, 45 by default).
  public var maxAngle: Double = 45

  /// A label of the property `field`.
  public init(field: String) {
    text = TextTemplate(field: field)
  }

  /// A label of the composed `text`.
  public init(text: TextTemplate) {
    self.text = text
  }
}

/// Where a label goes (`label.placement`).
public enum LabelPlacement: String, Sendable, CaseIterable {
  /// At a point: each position of a point, a polygon's interior point; a
  /// line is not labelled.
  case point
  /// Along a line (a line's parts, a polygon's rings): each glyph on the
  /// line, turned with it (`LinePlacer`).
  case line
}
