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
  /// The text's colour.
  public var color: Color = Color(r: 0x22, g: 0x22, b: 0x22)
  /// A face's full name or family; nil uses DejaVu Sans.
  public var font: String?
  /// An outline under the glyphs; nil: none.
  public var halo: Halo?
  /// Candidate anchors, tried in order; the anchor names the point of the
  /// label box that sits on the feature's point plus `offset`.
  public var anchors: [Anchor] = [.center]
  /// Shift in logical pixels, x right and y down: every anchor's, unless
  /// `anchorOffsets` or `radialOffset` gives it one (`offset(forAnchorAt:)`).
  public var offset: (Double, Double) = (0, 0)
  /// Per anchor (parallel to `anchors`), its own offset when the scene gives
  /// one (`{"anchor": "right", "offset": [-6, 0]}`, MapLibre's
  /// `text-variable-anchor-offset`); nil entries use `radialOffset` or
  /// `offset`.
  public var anchorOffsets: [(Double, Double)?] = []
  /// A distance in logical pixels that moves each anchor's box away from
  /// the point in its own direction (`radialOffset`, MapLibre's
  /// `text-radial-offset`, which counts ems): `left` moves right, `top`
  /// down, a corner by the distance along its diagonal, `center` not at
  /// all. Excludes `offset`.
  public var radialOffset: Double? = nil
  /// When true a label is placed only where its box lies wholly inside the
  /// image (`avoidEdges`, as Mapnik's `avoid-edges` keeps labels inside the
  /// image it renders); an anchor whose box crosses the edge is passed over.
  public var avoidEdges = false
  /// True: placed even over labels placed before (and not blocking them).
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

  /// The offset of anchor `i` (x right, y down, logical pixels): its own,
  /// else `radialOffset` in its direction, else `offset`.
  public func offset(forAnchorAt i: Int) -> (Double, Double) {
    if i < anchorOffsets.count, let own = anchorOffsets[i] { return own }
    guard let r = radialOffset else { return offset }
    // The box moves away from the point: opposite to where its anchor lies in it.
    let u = anchors[i].unitPosition
    let (dx, dy) = ((0.5 - u.x) * 2, (0.5 - u.y) * 2)
    let length = (dx * dx + dy * dy).squareRoot()
    return length == 0 ? (0, 0) : (dx / length * r, dy / length * r)
  }

  /// The farthest any anchor's offset moves the label's box (`|dx| + |dy|`
  /// logical pixels, over `offset(forAnchorAt:)`): what its reach adds for
  /// the offset (`SymbolReach.label`).
  public var offsetReach: Double {
    anchors.indices.reduce(abs(offset.0) + abs(offset.1)) { m, i in
      let (dx, dy) = offset(forAnchorAt: i)
      return max(m, abs(dx) + abs(dy))
    }
  }

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
