/// What a style case's outcome adds for the render suite's tables: the
/// case's group and kind, and whether it passed, came within 1 % or could
/// not be drawn.
public struct StyleVerdict: Sendable, Equatable {
  public var group: String
  public var kind: StyleCase.Kind
  /// The differing pixels are at most `allowed` of all (`StyleCriterion`).
  public var passed = false
  /// The differing pixels are at most 1 % of all.
  public var withinOnePercent = false
  /// Why the case was not drawn; nil when it was (or was tried).
  public var unsupported: String?
  /// Differing pixels as a fraction of all, when the images were compared.
  public var ratio: Double?
  public var allowed: Double
  /// `skipped` / `ignored` marks of `metadata.test`, recorded only.
  public var marks: [String]

  public init(group: String, kind: StyleCase.Kind, allowed: Double, marks: [String]) {
    self.group = group
    self.kind = kind
    self.allowed = allowed
    self.marks = marks
  }
}
