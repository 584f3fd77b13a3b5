/// One libFuzzer target: a name (`mapsnap-fuzz NAME`), the longest input
/// worth trying, and the function that feeds an input to the library.
public struct FuzzTarget: Sendable {
  /// The name on the command line, and the folder of its seed corpus
  /// (`Fuzz/corpus/NAME`) and of its reproducers (`Tests/Fixtures/fuzz/NAME`).
  public let name: String
  /// What it reaches, for `mapsnap-fuzz --list`.
  public let summary: String
  /// libFuzzer's `-max_len` for `make fuzz`: inputs longer than this find
  /// nothing new and only slow the target down.
  public let maxLength: Int
  /// Feeds one input to the library. Never throws: an error the library
  /// reports is the outcome `.rejected`.
  public let run: @Sendable (UnsafeRawBufferPointer) -> FuzzOutcome

  public init(name: String, summary: String, maxLength: Int, run: @escaping @Sendable (UnsafeRawBufferPointer) -> FuzzOutcome) {
    self.name = name
    self.summary = summary
    self.maxLength = maxLength
    self.run = run
  }

  /// Runs the target over `bytes` (the regression tests and the replay driver).
  public func run(_ bytes: [UInt8]) -> FuzzOutcome {
    bytes.withUnsafeBytes { run($0) }
  }
}
