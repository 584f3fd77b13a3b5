/// What became of one annotation text in the frame: drawn, or hidden with
/// the one reason why. Decided once, by the display-list stage
/// (`DrawRecord`), from the decisions before it: resolution's reason
/// (`AnnotationText.hidden`) when it hid the text, else placement's
/// (`noGlyphs`, `overBudget`) when it did not lay the text out, else
/// `drawn` when its glyphs put a pixel into the image and `outOfBounds`
/// when they put none.
public enum AnnotationTextOutcome: Sendable, Hashable {
  case drawn
  case hidden(AnnotationHiddenReason)

  /// `drawn`, or the reason's name: the report's `outcome`.
  public var name: String {
    switch self {
    case .drawn: "drawn"
    case .hidden(let r): r.rawValue
    }
  }
}
