/// A placed label: its glyphs and its entry in `TextPlacement.outcomes`.
public struct PlacedLabel: Sendable {
  public var run: GlyphRun
  public var outcome: Int
}
