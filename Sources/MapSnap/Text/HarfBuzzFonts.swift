import Synchronization
internal import _TextShims

#if canImport(Glibc)
  import Glibc
#endif

/// HarfBuzz fonts, one per font file for the whole process: a HarfBuzz font
/// is immutable once made and may shape on many threads at once (each with
/// its own buffer), and the OpenType tables it builds on first use are then
/// built once, not once per frame or per batch worker. Never released.
enum HarfBuzzFonts {
  private static let made = Mutex<[String: OpaquePointer?]>([:])

  /// The font of the file at `path`, opened on first use (checked as a
  /// regular file first, as `FontFace` does); nil when it cannot be read.
  static func font(_ path: String) -> OpaquePointer? {
    made.withLock { made in
      if let hit = made[path] { return hit }
      var font: OpaquePointer? = nil
      if let opened = try? FileIO.openForReading(path) {
        #if os(Linux)
          let name = "/proc/self/fd/\(opened.fd)"
        #else
          let name = path
        #endif
        font = mapsnap_text_font_create(name, 0).map(OpaquePointer.init)
        close(opened.fd)
      }
      made[path] = font
      return font
    }
  }
}
