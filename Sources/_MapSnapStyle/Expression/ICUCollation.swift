#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Locale-aware string comparison through ICU's collation service, opened
/// with dlopen the first time a `collator` compares two strings (so styles
/// without collators load nothing). ICU's C entry points carry the library's
/// major version as a suffix (`ucol_open_72`); the versions tried are listed
/// in `versions`. Without ICU, `compare` returns nil and the caller folds
/// case and Latin diacritics itself.
enum ICUCollation {
  private typealias Open = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>) -> OpaquePointer?
  private typealias SetAttribute = @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutablePointer<Int32>) -> Void
  private typealias StrColl = @convention(c) (OpaquePointer?, UnsafePointer<UInt16>?, Int32, UnsafePointer<UInt16>?, Int32) -> Int32

  private struct Library: @unchecked Sendable {
    let open: Open
    let setAttribute: SetAttribute
    let strcoll: StrColl
  }

  /// ICU major versions to look for, newest first (Debian 12 ships 72).
  private static let versions = Array((60...80).reversed())

  // ICU's constants (ucol.h): attribute UCOL_STRENGTH and UCOL_CASE_LEVEL, their values.
  private static let strengthAttribute: Int32 = 5, caseLevelAttribute: Int32 = 3
  private static let primary: Int32 = 0, secondary: Int32 = 1, tertiary: Int32 = 2, on: Int32 = 17

  private static let library: Library? = {
    for v in versions {
      guard let handle = dlopen("libicui18n.so.\(v)", RTLD_NOW | RTLD_LOCAL) else { continue }
      guard let o = dlsym(handle, "ucol_open_\(v)"), let s = dlsym(handle, "ucol_setAttribute_\(v)"),
        let c = dlsym(handle, "ucol_strcoll_\(v)")
      else { continue }
      return Library(
        open: unsafeBitCast(o, to: Open.self), setAttribute: unsafeBitCast(s, to: SetAttribute.self),
        strcoll: unsafeBitCast(c, to: StrColl.self))
    }
    return nil
  }()

  private struct Collator: @unchecked Sendable { let pointer: OpaquePointer }

  /// Open collators by locale and sensitivity; they live as long as the process.
  private static let cache = Mutex<[String: Collator]>([:])

  /// -1, 0 or 1 as ICU orders `a` and `b` under `collator` (search usage, as
  /// the specification's implementations ask for); nil without ICU.
  static func compare(_ a: String, _ b: String, _ collator: StyleCollator) -> Int? {
    guard let lib = library, let c = open(collator, lib) else { return nil }
    let x = Array(a.utf16), y = Array(b.utf16)
    let r = x.withUnsafeBufferPointer { xp in
      y.withUnsafeBufferPointer { yp in lib.strcoll(c.pointer, xp.baseAddress, Int32(xp.count), yp.baseAddress, Int32(yp.count)) }
    }
    return Int(r)
  }

  private static func open(_ collator: StyleCollator, _ lib: Library) -> Collator? {
    let locale = (collator.locale ?? "") + "@collation=search"
    let key = "\(locale)|\(collator.caseSensitive)|\(collator.diacriticSensitive)"
    return cache.withLock { cache -> Collator? in
      if let hit = cache[key] { return hit }
      var status: Int32 = 0
      guard let pointer = lib.open(locale, &status), status <= 0 else { return nil }
      // Intl's sensitivities: base = primary, accent = secondary,
      // case = primary with the case level, variant = tertiary.
      let strength = collator.diacriticSensitive ? (collator.caseSensitive ? tertiary : secondary) : primary
      lib.setAttribute(pointer, strengthAttribute, strength, &status)
      if collator.caseSensitive && !collator.diacriticSensitive { lib.setAttribute(pointer, caseLevelAttribute, on, &status) }
      let c = Collator(pointer: pointer)
      cache[key] = c
      return c
    }
  }
}
