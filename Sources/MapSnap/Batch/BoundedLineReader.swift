#if canImport(Glibc)
  import Glibc
#endif

/// Reads a file's lines through one fixed buffer, holding at most
/// `maximumLineBytes` of a line: a longer line is passed over to its end
/// without being kept, and reported with its length, so a manifest of a
/// gigabyte without a line break costs the buffer and the limit, never the
/// gigabyte. A read error is an error, never the end of the file.
struct BoundedLineReader {
  /// One line: its bytes without the line break (`\n`, `\r\n`), or how many
  /// bytes it had when that is more than the limit.
  enum Line {
    case bytes([UInt8])
    case tooLong(byteCount: Int)
  }

  private let fd: Int32
  private let maximumLineBytes: Int
  private var buffer = [UInt8](repeating: 0, count: BoundedLineReader.chunkBytes)
  private var start = 0
  private var end = 0
  private var atEnd = false

  /// Bytes read at a time.
  static let chunkBytes = 64 << 10

  /// Reads `fd` (blocking) from where it stands; it is not closed.
  init(fd: Int32, maximumLineBytes: Int) {
    self.fd = fd
    self.maximumLineBytes = maximumLineBytes
  }

  /// The next line, nil at the end of the file.
  /// - Throws: the system's reason when a read fails.
  mutating func next() throws(LineReadError) -> Line? {
    var line: [UInt8] = []
    var count = 0
    var sawAny = false
    while true {
      if start == end {
        if atEnd { break }
        try fill()
        if start == end { break }
      }
      sawAny = true
      let newline: Int? = buffer.withUnsafeBytes { b in
        memchr(b.baseAddress! + start, 10, end - start).map { $0 - UnsafeMutableRawPointer(mutating: b.baseAddress!) }
      }
      let stop = newline ?? end
      let piece = stop - start
      if count + piece <= maximumLineBytes {
        line.append(contentsOf: buffer[start..<stop])
      } else if count <= maximumLineBytes {
        line = []  // past the limit: no longer kept
      }
      count += piece
      start = newline.map { $0 + 1 } ?? end
      if newline != nil { break }
    }
    guard sawAny else { return nil }
    if count > maximumLineBytes { return .tooLong(byteCount: count) }
    while line.last == 13 { line.removeLast() }
    return .bytes(line)
  }

  private mutating func fill() throws(LineReadError) {
    start = 0
    end = 0
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        end = n
        return
      }
      if n == 0 {
        atEnd = true
        return
      }
      if errno == EINTR { continue }
      throw LineReadError(reason: String(cString: strerror(errno)))
    }
  }
}

/// A read of a line-by-line file failed: the system's reason.
struct LineReadError: Error {
  var reason: String
}
