/// View annotations resolved for one frame (written by
/// `ViewAnnotationPlacer`): every outcome in scene order, and the placed
/// boxes in drawing order. A second front end produces this same record.
public struct ViewAnnotationPlacement: Sendable {
  public var outcomes: [ViewAnnotationOutcome] = []
  /// Bottom first: unselected below selected, lower priority below higher, and
  /// for equal priority later in the list on top.
  package var boxes: [PlacedBox] = []
  /// Code points of view annotation texts that no font covers.
  public var missingCodePoints: [Unicode.Scalar] = []
  /// Faces (library indices) the texts were drawn from.
  var faces: Set<Int> = []
  /// The frame's text budget after the view annotations spent theirs.
  package var textBudget = TextBudget(limit: 0)

  public init() {}

  /// The annotations' warnings, for standard error; one line for those the
  /// text budget left out.
  public var warnings: [String] {
    var out = outcomes.compactMap(\.warning)
    let n = outcomes.filter { $0.decision == .hidden(.overBudget) }.count
    if n > 0 {
      out.append("\(n) view annotation\(n == 1 ? "" : "s") not drawn: the frame's budget of \(textBudget.limit) characters of text was spent (see \"Limits\" in the README)")
    }
    return out
  }
}
