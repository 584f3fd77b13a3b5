/// Everything decided about a frame before placement: the viewport and, per
/// layer, its status with the causes and problems behind it, and what it
/// draws. Placement (`TextPlacement`, `ViewAnnotationPlacement`) adds where
/// labels and boxes go; the display-list stage adds what reaches the pixels
/// (`recordCoverage`). The report and `mapsnap explain` print this record and
/// decide nothing again.
public struct MapState: Sendable {
  /// The frame resolved: viewport, floor, budget (`FramePlan.make` builds it once).
  public let frame: FrameContext
  public let background: Color
  public internal(set) var layers: [LayerState]
  /// The pixel size of each marker icon that loaded, by resolved path (its
  /// pixels are in `ResolvedInputs`); a failed one is a layer problem.
  let iconSizes: [String: IconSize]

  init(frame: FrameContext, background: Color, layers: [LayerState], iconSizes: [String: IconSize]) {
    self.frame = frame
    self.background = background
    self.layers = layers
    self.iconSizes = iconSizes
  }

  public var viewport: Viewport { frame.viewport }
  /// The floor the frame shows; nil: every floor.
  public var floor: FloorValue? { frame.floor }

  /// One line per layer problem, for standard error, in layer order:
  /// `layer "roads": data/roads.geojson: no such file; the layer is not drawn`.
  public var warnings: [String] {
    var out: [String] = []
    for l in layers {
      for p in l.problems {
        out.append("layer \(Echo.quoted(l.id)): \(p.message)\(p.isError ? "; the layer is not drawn" : "")")
      }
    }
    return out
  }

  /// The size of the icon a marker draws, when it names one that loaded.
  func icon(of m: MarkerStyle) -> IconSize? {
    m.icon.flatMap { iconSizes[$0] }
  }

  /// Records what the display list found (see `FeatureCounts.drawn`): the
  /// features of each layer and sublayer that put a pixel into the image, and
  /// `noGlyphs` or `outOfBounds` for annotation texts whose glyphs put none.
  mutating func recordCoverage(_ coverage: Coverage, text: TextPlacement) {
    let labels = text.outcomes
    var drawnFeatures = [Set<Int>](repeating: [], count: layers.count)
    for (li, flags) in coverage.drawables.enumerated() {
      for (k, inked) in flags.enumerated() where inked { drawnFeatures[li].insert(layers[li].drawables[k].feature.index) }
    }
    for (k, inked) in coverage.labels.enumerated() where inked {
      let o = labels[coverage.labelOutcomes[k]]
      drawnFeatures[o.layerIndex].insert(o.feature.index)
    }
    for (li, flags) in coverage.annotations.enumerated() {
      var perSublayer = [Set<Int>](repeating: [], count: layers[li].sublayers.count)
      for (k, inked) in flags.enumerated() {
        let t = layers[li].annotations[k]
        guard t.isDrawn else { continue }
        if inked {
          drawnFeatures[li].insert(t.feature.index)
          perSublayer[t.sublayer].insert(t.feature.index)
        } else if text.annotationsWithoutGlyphs[li]?.contains(k) == true {
          layers[li].annotations[k].hidden = .noGlyphs
        } else if text.annotationsOverBudget[li]?.contains(k) == true {
          layers[li].annotations[k].hidden = .overBudget
        } else {
          layers[li].annotations[k].hidden = .outOfBounds
        }
      }
      for s in perSublayer.indices { layers[li].sublayers[s].features.drawn = perSublayer[s].count }
    }
    for li in layers.indices { layers[li].features.drawn = drawnFeatures[li].count }
    // Nothing over budget, the usual case: nothing to copy or sort (each
    // first use of those generic types costs a small frame's process a
    // run-time metadata look-up).
    let textsOver = text.annotationsOverBudget.contains { !$0.value.isEmpty } || labels.contains { $0.reason == .overBudget }
    guard textsOver || !coverage.overBudget.isEmpty else { return }
    let budget = FrameBudget(viewport)
    var overBudget = coverage.overBudget
    for (li, texts) in text.annotationsOverBudget where !texts.isEmpty { overBudget[li, default: [:]][.textCharacters, default: 0] += texts.count }
    for o in labels where o.reason == .overBudget { overBudget[o.layerIndex, default: [:]][.textCharacters, default: 0] += 1 }
    for (li, spent) in overBudget.sorted(by: { $0.key < $1.key }) {
      for kind in FrameBudget.Kind.allCases {
        if let n = spent[kind] { layers[li].add(.budget(kind, limit: budget.limit(kind), affected: n)) }
      }
    }
  }
}
