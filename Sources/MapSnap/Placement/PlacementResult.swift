/// The outcome of ``place(_:in:mustFit:obstacles:)``, indexed like its input.
public struct PlacementResult: Sendable, Equatable {
  /// Per candidate, the index into its `boxes` of the box taken, or nil when the
  /// candidate was dropped.
  public var chosen: [Int?]
  /// Per candidate, the ids (candidate or obstacle ids as the caller gave them)
  /// of everything that kept it out: the union over **all** of its boxes that
  /// passed the frame test of the ids of earlier placed blocking boxes and
  /// obstacles overlapping them, ascending, each id once. Empty for a placed
  /// candidate, and for a dropped one whose boxes all failed the frame test.
  public var blockedBy: [[Int]]

  public init(chosen: [Int?], blockedBy: [[Int]]) {
    self.chosen = chosen
    self.blockedBy = blockedBy
  }
}

