/// The outcome of ``place(_:in:mustFit:obstacles:)``, indexed like its input.
package struct PlacementResult: Sendable, Equatable {
  /// Per candidate, the index into its `boxes` of the box taken, or nil when the
  /// candidate was dropped.
  package var chosen: [Int?]
  /// Per candidate, the ids (candidate or obstacle ids as the caller gave them)
  /// of what kept it out: of the union over **all** of its boxes that passed
  /// the frame test of the ids of earlier placed blocking boxes and
  /// obstacles overlapping them, the `namedBlockers` smallest, ascending,
  /// each once. Empty for a placed candidate, and for a dropped one whose
  /// boxes all failed the frame test.
  package var blockedBy: [[Int]]
  /// Per candidate, how many more ids kept it out than `blockedBy` names
  /// (counted over at most `countedBlockers` boxes in the way).
  package var blockedByMore: [Int]

  /// The blockers a dropped candidate names at most: a label under a pile
  /// of thousands is explained by its first few, and naming all of them
  /// made the report grow as the square of the pile.
  package static let namedBlockers = 8
  /// The boxes in the way a dropped candidate's blockers are gathered from
  /// at most: the collision work per candidate, so per frame, stays
  /// bounded by the number of candidates.
  package static let countedBlockers = 4096

  package init(chosen: [Int?], blockedBy: [[Int]], blockedByMore: [Int]? = nil) {
    self.chosen = chosen
    self.blockedBy = blockedBy
    self.blockedByMore = blockedByMore ?? Array(repeating: 0, count: blockedBy.count)
  }
}

