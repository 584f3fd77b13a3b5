/// Text for one frame, as placement leaves it: every drawn annotation text
/// laid out at its geographic size, and every label candidate placed or
/// hidden with its reason. Glyph runs only: the display-list stage rasterises.
public struct TextPlacement: Sendable {
  /// Per layer (index into `MapState.layers`), one entry per annotation text
  /// of that layer (`LayerState.annotations`, same order): its run when drawn.
  public var annotations: [Int: [GlyphRun?]] = [:]
  /// Per layer, the annotation texts none of whose characters any font
  /// covers (indices into `LayerState.annotations`).
  public var annotationsWithoutGlyphs: [Int: Set<Int>] = [:]
  /// Per layer, the annotation texts not laid out because the frame's text
  /// budget was spent (indices into `LayerState.annotations`).
  public var annotationsOverBudget: [Int: Set<Int>] = [:]
  /// Placed labels in drawing order (lower priority first, so higher
  /// priority labels are drawn on top).
  public var labels: [PlacedLabel] = []
  /// Every label candidate: those that took part in placement in placement
  /// order, then those that could not (no text, too small, no glyphs, no
  /// position, out of bounds) in layer and feature order.
  public var outcomes: [LabelOutcome] = []
  /// Per layer index: labels placed, dropped and hidden.
  public var labelCounts: [Int: LabelCounts] = [:]
  /// Code points no font covers, in order of first appearance.
  public var missingCodePoints: [Unicode.Scalar] = []
  /// Characters left in the frame's text budget after labels and
  /// annotation text: what view annotations may still lay out.
  public var textCharactersLeft = Int.max
  /// Full names of the faces glyphs were drawn from.
  public var fontsUsed: [String] = []
  /// How text was shaped (`FontLibrary.shaping`); nil when the scene has no
  /// text (no font library).
  public var shaping: String? = nil

  public init() {}
}
