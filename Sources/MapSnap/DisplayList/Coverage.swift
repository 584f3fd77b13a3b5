/// What the display list found reaches the image: per drawable, annotation
/// text and placed label, whether it put at least one command into the list,
/// that is whether it covers at least one pixel of the frame with non-zero
/// coverage and a colour that is not fully transparent. Decided while the
/// list is built, before any pixel is drawn; `MapState.recordCoverage` turns
/// it into the `drawn` counts.
struct Coverage: Sendable {
  /// Per layer of `MapState.layers`, per drawable.
  var drawables: [[Bool]] = []
  /// Per layer, per annotation text (`LayerState.annotations`).
  var annotations: [[Bool]] = []
  /// Per placed label (`TextPlacement.labels`, drawing order).
  var labels: [Bool] = []
  /// Per placed label, its index in `TextPlacement.outcomes`.
  var labelOutcomes: [Int] = []
  /// Per layer, per budget of `FrameBudget`: how many of its features did
  /// not fit it (drawn solid for dashes, left out for edges and images).
  var overBudget: [Int: [FrameBudget.Kind: Int]] = [:]
}
