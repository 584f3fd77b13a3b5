/// Label counts of one layer: `placed`, `dropped` (hidden by a collision: the
/// count this report has always given), and every hidden label by reason.
public struct LabelCounts: Sendable, Hashable {
  public var placed = 0
  public var dropped = 0
  /// Hidden labels by reason (`collision` equals `dropped`).
  public var hidden: [LabelHiddenReason: Int] = [:]

  public init() {}
}
