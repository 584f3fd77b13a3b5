/// A placed label: its glyphs and its entry in `TextPlacement.outcomes`.
package struct PlacedLabel: Sendable {
  package var run: GlyphRun
  package var outcome: Int
}
