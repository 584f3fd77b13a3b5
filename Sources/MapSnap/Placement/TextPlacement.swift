/// Text for one frame, as placement leaves it (written by `TextPlacer`, read
/// after): every annotation text resolution lets through laid out at its
/// geographic size or left with its reason, and every label candidate placed
/// or hidden with its reason. Glyph runs only: the display-list stage
/// rasterises. A second front end (a style renderer) produces this same
/// record, so the display list, report and `explain` serve both.
public struct TextPlacement: Sendable {
  /// Per layer (index into `MapState.layers`), one entry per annotation text
  /// of that layer (`LayerState.annotations`, same order): its run, or why
  /// it was not laid out.
  package var annotations: [Int: [AnnotationLayout]] = [:]
  /// Placed labels in drawing order (lower priority first, so higher
  /// priority labels are drawn on top).
  package var labels: [PlacedLabel] = []
  /// Every label candidate: those that took part in placement in placement
  /// order, then those that could not (no text, too small, no glyphs, no
  /// position, out of bounds) in layer and feature order.
  public var outcomes: [LabelOutcome] = []
  /// Per layer index: labels placed, dropped and hidden.
  public var labelCounts: [Int: LabelCounts] = [:]
  /// Code points no font covers, in order of first appearance.
  public var missingCodePoints: [Unicode.Scalar] = []
  /// The frame's text budget as labels and annotation text left it: what
  /// view annotations may still lay out, and the texts it refused per layer.
  package var textBudget = TextBudget(limit: Int.max)
  /// Full names of the faces glyphs were drawn from.
  public var fontsUsed: [String] = []
  /// How text was shaped (`FontLibrary.shaping`); nil when the scene has no
  /// text (no font library).
  public var shaping: String? = nil

  public init() {}
}
