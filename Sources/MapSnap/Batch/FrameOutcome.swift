/// What became of one manifest line.
public struct FrameOutcome: Sendable {
  public enum Status: Sendable, Equatable {
    /// Drawn and written.
    case rendered
    /// `--resume`: the output exists and was made from the same inputs.
    case skipped
    /// Not written: the message says why (the scene could not be loaded or
    /// planned, `--strict` found a layer error, or writing failed).
    case failed(String)
  }

  /// 1-based line number in the manifest.
  public var line: Int
  public var output: String
  public var status: Status
  /// Wall time of the frame in seconds (planning, drawing, encoding, writing).
  public var seconds: Double
  /// The frame's warnings (layer problems), for standard error.
  public var warnings: [String] = []
}
