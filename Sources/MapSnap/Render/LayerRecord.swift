/// One layer of the frame record (`FramePlan.layers`): its resolved state
/// (`resolved`, read through: `id`, `drawables`, `tiles`, …) joined with what
/// the later stages recorded about it. Each field keeps its one author:
///
/// - `status`, `problems`: resolution's, then one `budget` problem per
///   frame budget the layer's features did not fit, in `FrameBudget.Kind`
///   order: the text budget's from placement (`TextBudget.refused`), the
///   others from the display list (`DrawRecord.overBudget`); such a
///   problem adds the `warning` flag.
/// - `features`: resolution's counts; `drawnFeatures`: the display list's.
/// - `annotations`: each text as resolved, with its final outcome from the
///   display list (`DrawRecord.annotationTexts`).
///
/// The report and `mapsnap explain` read these and decide nothing.
@dynamicMemberLookup
public struct LayerRecord: Sendable {
  /// The layer as resolution left it.
  public let resolved: LayerState
  public let status: LayerStatus
  /// What is wrong with it (`error` or `warning`), in the order found.
  public let problems: [LayerProblem]
  /// Features that put at least one pixel into the frame (`DrawRecord`).
  public let drawnFeatures: Int
  /// For annotation layers: each sublayer with its drawn count.
  public let sublayers: [SublayerRecord]
  /// Per annotation text of `resolved.annotations`: its outcome.
  public let annotationOutcomes: [AnnotationTextOutcome]

  public subscript<T>(dynamicMember path: KeyPath<LayerState, T>) -> T { resolved[keyPath: path] }

  /// For annotation layers: every text whose anchor can reach the frame, in
  /// feature order, each with its outcome.
  public var annotations: [AnnotationTextRecord] {
    zip(resolved.annotations, annotationOutcomes).map { AnnotationTextRecord(resolved: $0, outcome: $1) }
  }

  /// The problems as one message (`; ` between them), or nil when there are none.
  public var message: String? {
    problems.isEmpty ? nil : problems.map(\.message).joined(separator: "; ")
  }

  /// The frame's layers: `state`'s joined with `text`'s budget refusals and
  /// `drawn`.
  static func join(state: MapState, text: TextPlacement, drawn: DrawRecord) -> [LayerRecord] {
    let refused = text.textBudget.refused
    let overspent = !drawn.overBudget.isEmpty || !refused.isEmpty
    return state.layers.enumerated().map { li, l in
      var status = l.status
      var problems = l.problems
      if overspent {
        for kind in FrameBudget.Kind.allCases {
          let n = kind == .textCharacters ? refused[li] : drawn.overBudget[li]?[kind]
          guard let n, n > 0 else { continue }
          let limit = kind == .textCharacters ? text.textBudget.limit : drawn.budget.limit(kind)
          problems.append(.budget(kind, limit: limit, affected: n))
          status.insert(.warning)
        }
      }
      let sublayers = l.sublayers.enumerated().map { s, sub in SublayerRecord(resolved: sub, drawnFeatures: drawn.sublayerFeatures[li][s]) }
      return LayerRecord(
        resolved: l, status: status, problems: problems, drawnFeatures: drawn.features[li], sublayers: sublayers,
        annotationOutcomes: drawn.annotationTexts[li])
    }
  }
}

/// One annotation sublayer of the frame record: its resolved state (read
/// through) with the features whose text the display list drew.
@dynamicMemberLookup
public struct SublayerRecord: Sendable {
  public let resolved: SublayerState
  /// Features whose annotation text is drawn (`DrawRecord.sublayerFeatures`).
  public let drawnFeatures: Int

  public subscript<T>(dynamicMember path: KeyPath<SublayerState, T>) -> T { resolved[keyPath: path] }
}

/// One annotation text of the frame record: as resolved (read through:
/// `feature`, `text`, `sublayer`, …) with its final outcome.
@dynamicMemberLookup
public struct AnnotationTextRecord: Sendable {
  public let resolved: AnnotationText
  /// Drawn, or hidden and why (`AnnotationTextOutcome`).
  public let outcome: AnnotationTextOutcome

  public subscript<T>(dynamicMember path: KeyPath<AnnotationText, T>) -> T { resolved[keyPath: path] }

  /// True when drawn.
  public var isDrawn: Bool { outcome == .drawn }
}
