/// What placement did with one annotation text (`TextPlacement.annotations`):
/// laid it out, left it because resolution hides it, or did not lay it out
/// for a reason of its own. The display-list stage turns this into the
/// text's final outcome (`AnnotationTextOutcome`).
package enum AnnotationLayout: Sendable {
  /// Laid out: its glyphs, ready to draw.
  case laidOut(GlyphRun)
  /// Not for placement: resolution hid it (`AnnotationText.hidden`).
  case hiddenByResolution
  /// Resolution let it through but placement did not lay it out:
  /// `noGlyphs` or `overBudget`.
  case notLaidOut(AnnotationHiddenReason)

  /// The glyphs, when laid out.
  package var run: GlyphRun? {
    if case .laidOut(let r) = self { r } else { nil }
  }
}
