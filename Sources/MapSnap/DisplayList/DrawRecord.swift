/// What reached the pixels, written once by the display-list stage and read
/// after: per layer and sublayer the features drawn, each annotation text's
/// final outcome, and the features the frame's drawing budgets left out or
/// drew solid. Nothing before it is rewritten: the frame record
/// (`FramePlan.layers`) joins it with the resolved map and the placement.
///
/// A feature is drawn when it puts at least one pixel into the frame: its
/// own geometry (fill, stroke, marker, icon), a placed label of its, or its
/// annotation text covers a pixel of the image with non-zero coverage and a
/// colour that is not fully transparent. Decided from the display list,
/// before any pixel is drawn; overdraw by later features does not matter. A
/// feature merely considered for placement is not drawn.
///
/// This is the seam a second front end shares: whatever resolves the map
/// and places its text, the display list draws it and writes this record.
public struct DrawRecord: Sendable {
  /// Per layer (index into `MapState.layers`): features drawn.
  public let features: [Int]
  /// Per layer, per sublayer (`LayerState.sublayers`): features whose
  /// annotation text is drawn.
  public let sublayerFeatures: [[Int]]
  /// Per layer, per annotation text (`LayerState.annotations`, same order):
  /// its outcome.
  public let annotationTexts: [[AnnotationTextOutcome]]
  /// Per layer index, per budget (`FrameBudget.Kind`, all but
  /// `textCharacters`, which placement spends): how many of its features did
  /// not fit it (drawn solid for dashes, left out for edges and images).
  public let overBudget: [Int: [FrameBudget.Kind: Int]]
  /// The budgets the list was built within.
  public let budget: FrameBudget

  /// The record of a list built from `state` and `text` that found
  /// `coverage`.
  package init(state: MapState, text: TextPlacement, coverage: Coverage) {
    let layers = state.layers
    var drawn = [Set<Int>](repeating: [], count: layers.count)
    for (li, flags) in coverage.drawables.enumerated() {
      let drawables = layers[li].drawables
      for (k, inked) in flags.enumerated() where inked { drawn[li].insert(drawables[k].feature.index) }
    }
    for (k, inked) in coverage.labels.enumerated() where inked {
      let o = text.outcomes[text.labels[k].outcome]
      drawn[o.layerIndex].insert(o.feature.index)
    }
    var sublayerFeatures: [[Int]] = []
    var annotationTexts: [[AnnotationTextOutcome]] = []
    sublayerFeatures.reserveCapacity(layers.count)
    annotationTexts.reserveCapacity(layers.count)
    for (li, layer) in layers.enumerated() {
      var perSublayer = [Set<Int>](repeating: [], count: layer.sublayers.count)
      var outcomes: [AnnotationTextOutcome] = []
      outcomes.reserveCapacity(layer.annotations.count)
      let inked = li < coverage.annotations.count ? coverage.annotations[li] : []
      let layouts = text.annotations[li]
      for (k, t) in layer.annotations.enumerated() {
        if let r = t.hidden {
          outcomes.append(.hidden(r))
        } else if k < inked.count, inked[k] {
          drawn[li].insert(t.feature.index)
          perSublayer[t.sublayer].insert(t.feature.index)
          outcomes.append(.drawn)
        } else if let layouts, case .notLaidOut(let r) = layouts[k] {
          outcomes.append(.hidden(r))
        } else {
          outcomes.append(.hidden(.outOfBounds))
        }
      }
      sublayerFeatures.append(perSublayer.map(\.count))
      annotationTexts.append(outcomes)
    }
    features = drawn.map(\.count)
    self.sublayerFeatures = sublayerFeatures
    self.annotationTexts = annotationTexts
    overBudget = coverage.overBudget
    budget = coverage.budget
  }
}
