#if canImport(Glibc)
  import Glibc
#endif

/// How goldens may be (re)written, from `MAPSNAP_RECORD`: `missing` writes
/// absent goldens, `failed` those absent or whose pixels differ (as
/// `mapsnap test --record failed`), `all` rewrites every golden; unset or
/// anything else never writes. Under CI (`CI` set) nothing is ever recorded.
public enum RecordMode: String, Sendable {
  case never, missing, failed, all

  public static var current: RecordMode {
    if let ci = getenv("CI"), String(cString: ci) != "" && String(cString: ci) != "false" { return .never }
    guard let v = getenv("MAPSNAP_RECORD") else { return .never }
    return RecordMode(rawValue: String(cString: v)) ?? .never
  }
}
