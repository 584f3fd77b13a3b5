#if canImport(Glibc)
  import Glibc
#endif

/// How expected images and reports are written instead of compared, by
/// `mapsnap test` and by the project's own golden tests (which run through
/// it): `missing` writes only those that do not exist, `failed` also those
/// that differ or cannot be read, `all` every one. Recording is a
/// developer's act: under CI (`inCI`) it is refused or ignored, never done.
public enum RecordMode: String, Sendable, CaseIterable {
  case missing, failed, all

  /// True when the process runs under CI: `CI` set to anything but empty,
  /// `false` or `0`.
  public static var inCI: Bool {
    guard let v = getenv("CI").map({ String(cString: $0) }) else { return false }
    return !v.isEmpty && v != "false" && v != "0"
  }

  /// What the environment's `MAPSNAP_RECORD` asks for.
  public enum Request: Sendable, Equatable {
    /// Unset, or one of "", `never`, `false`, `0`, `no`: compare.
    case none
    /// Record this way.
    case record(RecordMode)
    /// A mode asked for under CI, where nothing is recorded.
    case ignoredInCI(String)
    /// A value that is no mode.
    case invalid(String)
  }

  /// `MAPSNAP_RECORD`, read by the rules of `Request`.
  public static var requested: Request {
    guard let env = getenv("MAPSNAP_RECORD").map({ String(cString: $0) }), !["", "never", "false", "0", "no"].contains(env) else {
      return .none
    }
    guard let mode = RecordMode(rawValue: env) else { return .invalid(env) }
    return inCI ? .ignoredInCI(env) : .record(mode)
  }

  /// The mode `MAPSNAP_RECORD` asks for and CI allows; nil to compare.
  public static var current: RecordMode? {
    if case .record(let mode) = requested { return mode }
    return nil
  }
}
