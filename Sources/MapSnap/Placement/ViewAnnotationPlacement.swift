/// View annotations resolved for one frame: every outcome in scene order, and
/// the placed boxes in drawing order.
public struct ViewAnnotationPlacement: Sendable {
  public var outcomes: [ViewAnnotationOutcome] = []
  /// Bottom first: unselected below selected, lower priority below higher, and
  /// for equal priority later in the list on top.
  public var boxes: [PlacedBox] = []
  /// Code points of view annotation texts that no font covers.
  public var missingCodePoints: [Unicode.Scalar] = []
  /// Faces (library indices) the texts were drawn from.
  var faces: Set<Int> = []

  public init() {}

  /// The annotations' warnings, for standard error.
  public var warnings: [String] { outcomes.compactMap(\.warning) }
}
