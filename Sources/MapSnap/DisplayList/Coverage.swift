/// What the display list found reaches the image: per drawable, annotation
/// text and placed label, whether it put at least one command into the list,
/// that is whether it covers at least one pixel of the frame with non-zero
/// coverage and a colour that is not fully transparent. Decided while the
/// list is built, before any pixel is drawn; `DrawRecord` turns it into the
/// stage's record.
package struct Coverage: Sendable {
  /// The budgets the list was built within.
  package let budget: FrameBudget
  /// Per layer of `MapState.layers`, per drawable.
  package var drawables: [[Bool]] = []
  /// Per layer, per annotation text (`LayerState.annotations`).
  package var annotations: [[Bool]] = []
  /// Per placed label (`TextPlacement.labels`, drawing order).
  package var labels: [Bool] = []
  /// Per layer, per budget of `FrameBudget`: how many of its features did
  /// not fit it (drawn solid for dashes, left out for edges and images).
  package var overBudget: [Int: [FrameBudget.Kind: Int]] = [:]

  package init(budget: FrameBudget) { self.budget = budget }
}
