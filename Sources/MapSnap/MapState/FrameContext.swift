/// What one frame is, worked out once before any stage runs and read by
/// every stage after: the viewport (size, scale, centre, extent, pixel
/// ratio, projection), the floor it shows, what it may cost (`FrameBudget`
/// of its device pixels) and the widest character of the fonts its text is
/// drawn with. `FramePlan.make` builds it; the resolver, placement, the
/// display list and the report read it and never work any of it out again.
public struct FrameContext: Sendable {
  public let viewport: Viewport
  /// The floor the frame shows (the override, else `map.floor`); nil: every
  /// floor.
  public let floor: FloorValue?
  /// What the frame may cost beyond its pixel buffer: `FrameBudget` of its
  /// device pixels.
  public let budget: FrameBudget
  /// The widest glyph advance of the fonts text is drawn with, in ems (1
  /// without fonts): how far one character of a label can reach.
  let maxAdvance: Double

  /// The frame of `viewport` on `floor`, its text drawn with `fonts`.
  init(viewport: Viewport, floor: FloorValue?, fonts: FontLibrary?) {
    self.viewport = viewport
    self.floor = floor
    self.budget = FrameBudget(viewport)
    self.maxAdvance = fonts?.maxAdvance ?? 1
  }
}
