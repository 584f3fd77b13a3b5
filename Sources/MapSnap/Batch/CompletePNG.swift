#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a file is a whole PNG, checked without reading it whole: what
/// `mapsnap batch --resume` requires of an output before it trusts the
/// inputs digest the output holds (a file cut short keeps its header and
/// its digest, and would otherwise be skipped for ever).
///
/// The rule: the 8-byte PNG signature, then chunks to the end of the file,
/// each one's length (at most 2^31 − 1, as PNG requires) keeping it inside
/// the file; `IHDR` first and `IEND` last, both with their CRC checked (and
/// the 13 and 0 bytes PNG gives them); at least one `IDAT` between them;
/// not a byte after `IEND`. Reading is bounded: only the 8-byte header of
/// each chunk is read, by offset (`pread`), and `IHDR` and `IEND` whole; the
/// image data is never read.
enum CompletePNG {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// True when the regular file open as `fd`, `size` bytes long, is a
  /// complete PNG (see the rule above).
  static func check(fd: Int32, size: Int) -> Bool {
    guard let head = read(fd, at: 0, count: 8), head == signature else { return false }
    var at = 8
    var sawData = false
    var first = true
    while at < size {
      guard size - at >= 12, let header = read(fd, at: at, count: 8) else { return false }
      let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
      guard length < 1 << 31, length <= size - at - 12 else { return false }
      let type = Array(header[4..<8])
      let isHeader = type == Array("IHDR".utf8)
      let isEnd = type == Array("IEND".utf8)
      guard first == isHeader else { return false }
      if isHeader || isEnd {
        guard length == (isHeader ? 13 : 0), let whole = read(fd, at: at + 4, count: length + 8) else { return false }
        let stored = whole.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == PNGTextChunk.crc32(Array(whole.dropLast(4))) else { return false }
        if isEnd { return sawData && at + 12 == size }
      }
      if type == Array("IDAT".utf8) { sawData = true }
      first = false
      at += 12 + length
    }
    return false
  }

  /// `count` bytes at `offset`, or nil when fewer could be read.
  private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return nil }
      filled += n
    }
    return bytes
  }
}
