internal import _MapSnapStyle
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The SDF glyph ranges a style's frames have read through its `glyphs` URL
/// (`{fontstack}/{range}.pbf`), kept for the frames after, for a process's
/// life, shared by a batch's threads behind a lock. A range that could not
/// be read is kept as its problem too: every frame says the same thing and
/// none asks again.
///
/// Bounded: a range file larger than `maximumRangeBytes` is refused (a real
/// one holds 256 glyphs in some 100 KB), at most `maximumFontstacks`
/// fontstacks are read (the rest have no glyphs, with a warning), and at
/// most `maximumRanges` ranges kept. The font files of `font-faces` are
/// opened here too, once each: at most `maximumFontFiles`, each at most
/// `maximumFontFileBytes`.
final class StyleGlyphCache: Sendable {
  static let maximumRangeBytes = 4 << 20
  static let maximumFontstacks = 64
  static let maximumRanges = 4096
  /// Font files of `font-faces` opened per style, and the largest read
  /// (a CJK font reaches some 20 MB).
  static let maximumFontFiles = 16
  static let maximumFontFileBytes = 64 << 20

  /// A font file as opened, or why it could not be.
  enum FontFileEntry: Sendable {
    case file(StyleFontFile)
    case problem(String)
  }

  /// A range as read: its glyphs, or why it has none.
  enum Entry: Sendable {
    case glyphs(GlyphRange)
    case problem(String)
  }

  private struct State {
    var ranges: [String: Entry] = [:]
    var fontstacks: Set<String> = []
    var fontFiles: [String: FontFileEntry] = [:]
  }
  private let state = Mutex(State())

  /// Range `start` (a multiple of 256) of `fontstack` (its font names
  /// joined by commas, as MapLibre asks a glyph server) through the URL
  /// template `template`.
  func range(_ template: String, fontstack: String, start: Int, styleFolder: String, localRoot: String?, offline: Bool) -> Entry {
    let url = Self.url(template, fontstack: fontstack, start: start)
    let key = "\(styleFolder)\u{1}\(localRoot ?? "")\u{1}\(url)"
    let admitted: Bool = state.withLock { s in
      if s.fontstacks.contains(fontstack) { return true }
      guard s.fontstacks.count < Self.maximumFontstacks else { return false }
      s.fontstacks.insert(fontstack)
      return true
    }
    guard admitted else {
      return .problem("more than \(Self.maximumFontstacks) fontstacks are asked for; the others are not read")
    }
    if let hit = state.withLock({ $0.ranges[key] }) { return hit }
    let entry: Entry
    do throws(StyleSourceError) {
      let bytes = try StyleResource.bytes(url, maximum: Self.maximumRangeBytes, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
      do throws(VectorTileError) {
        entry = .glyphs(try GlyphRange(bytes))
      } catch {
        entry = .problem("\(url): not a glyph range (\(error.message.dropPrefix("vector tile: ") ?? error.message[...]))")
      }
    } catch {
      entry = .problem(error.description)
    }
    state.withLock { s in
      if s.ranges.count < Self.maximumRanges { s.ranges[key] = entry }
    }
    return entry
  }

  /// The font file at `url` (a `font-faces` entry), opened the first time
  /// a frame asks.
  func fontFile(_ url: String, styleFolder: String, localRoot: String?, offline: Bool) -> FontFileEntry {
    let key = "\(styleFolder)\u{1}\(localRoot ?? "")\u{1}\(url)"
    let known: FontFileEntry?? = state.withLock { s in
      if let hit = s.fontFiles[key] { return .some(hit) }
      return s.fontFiles.count < Self.maximumFontFiles ? .some(nil) : nil
    }
    guard let known else {
      return .problem("font-faces: more than \(Self.maximumFontFiles) font files are asked for; \(url) is not read")
    }
    if let known { return known }
    let entry = Self.open(url, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
    state.withLock { $0.fontFiles[key] = entry }
    return entry
  }

  /// Opens a font file: a local one where it lies, a fetched one from a
  /// private temporary file, removed once FreeType and HarfBuzz hold it.
  private static func open(_ url: String, styleFolder: String, localRoot: String?, offline: Bool) -> FontFileEntry {
    let notAFont = FontFileEntry.problem("font-faces: \(url): not a font file FreeType can read (TrueType or OpenType)")
    do throws(StyleSourceError) {
      if case .file(let path) = try StyleResource.resolve(url, styleFolder: styleFolder, localRoot: localRoot) {
        do {
          let opened = try FileIO.openForReading(path)
          close(opened.fd)
          guard opened.size <= maximumFontFileBytes else {
            return .problem("font-faces: \(url): \(opened.size) bytes, more than the \(maximumFontFileBytes) a font file may have")
          }
        } catch {
          return .problem("font-faces: \(url): \(error.reason)")
        }
        return StyleFontFile(path: path, url: url).map { .file($0) } ?? notAFont
      }
      let bytes = try StyleResource.bytes(url, maximum: maximumFontFileBytes, styleFolder: styleFolder, localRoot: localRoot, offline: offline)
      var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/mapsnap-font-XXXXXX").utf8CString)
      let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard fd >= 0 else { return .problem("font-faces: \(url): no temporary file to open it from") }
      let path = String(cString: template)
      defer { unlink(path) }
      do {
        try FileIO.writeAll(fd: fd, bytes, path: path)
        close(fd)
      } catch {
        close(fd)
        return .problem("font-faces: \(url): \(error.reason)")
      }
      guard let file = StyleFontFile(path: path, url: url) else { return notAFont }
      // HarfBuzz reads the file now, before it is removed.
      if case .success = TextShaper.status { _ = HarfBuzzFonts.font(path) }
      return .file(file)
    } catch {
      return .problem("font-faces: \(error.description)")
    }
  }

  /// The URL of a range: `{fontstack}` and `{range}` (`start-end`) filled
  /// in; percent-encoded for http(s), as written for files.
  static func url(_ template: String, fontstack: String, start: Int) -> String {
    let web = template.hasPrefix("http://") || template.hasPrefix("https://")
    let stack = web ? percentEncoded(fontstack) : fontstack
    return template.replacing("{fontstack}", with: stack).replacing("{range}", with: "\(start)-\(start + 255)")
  }

  /// `s` with every byte outside RFC 3986's unreserved set percent-encoded
  /// (as `encodeURIComponent` writes a fontstack).
  static func percentEncoded(_ s: String) -> String {
    var out = ""
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(b))
      default:
        let hex = Array("0123456789ABCDEF")
        out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
      }
    }
    return out
  }
}
