/// What a fuzz target made of one input. Either is fine for the fuzzer
/// (only a crash, a hang or a huge allocation is a finding); the regression
/// tests check that a reproducer keeps the outcome it is expected to have.
public enum FuzzOutcome: String, Sendable, Equatable, CaseIterable {
  /// The input was refused with an error the library reports (an input
  /// error that stops the frame, a decoding failure).
  case rejected
  /// The input was taken: it decoded, or a frame was rendered (perhaps with
  /// layers in `warning` or `error`, as a tile set that is not one).
  case accepted
}
