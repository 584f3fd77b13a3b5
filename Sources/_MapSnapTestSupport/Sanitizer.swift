#if canImport(Glibc)
  import Glibc
#endif

/// The sanitizer a test run is under (`MAPSNAP_TEST_SANITIZER`, set by
/// scripts/test-sanitizer.sh): tests that check the same code over many
/// inputs check fewer of them there, the plain run checking them all.
public enum Sanitizer {
  /// `thread`, `address`, or nil for the plain run.
  public static let current: String? = getenv("MAPSNAP_TEST_SANITIZER").map { String(cString: $0) }

  /// `plain` in the plain run, `sanitized` under a sanitizer.
  public static func count(plain: Int, sanitized: Int) -> Int { current == nil ? plain : sanitized }
}
