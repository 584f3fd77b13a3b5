#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A local file read by ranges with pread(2): no shared file position, so
/// threads read it at once through one descriptor. The descriptor is closed
/// when the reader goes.
package final class FileRangeReader: RangeReader {
  let descriptor: Int32
  package let path: String
  package let size: UInt64?

  /// Opens `path` read-only; an error names the path and the system's reason.
  package init(path: String) throws(RangeReadError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw RangeReadError("cannot open \(path): \(String(cString: strerror(errno)))") }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let why = String(cString: strerror(errno))
      close(fd)
      throw RangeReadError("cannot read \(path): \(why)")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw RangeReadError("\(path) is not a regular file")
    }
    self.descriptor = fd
    self.path = path
    self.size = UInt64(info.st_size)
  }

  deinit { close(descriptor) }

  package func read(offset: UInt64, length: Int) throws -> [UInt8] {
    guard length >= 0, offset <= UInt64(Int64.max) else { throw RangeReadError("\(path): invalid range at \(offset)") }
    var bytes = [UInt8](repeating: 0, count: length)
    var done = 0
    try bytes.withUnsafeMutableBytes { buffer in
      while done < length {
        let n = pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset) + off_t(done))
        if n < 0 {
          if errno == EINTR { continue }
          throw RangeReadError("cannot read \(path) at \(offset): \(String(cString: strerror(errno)))")
        }
        if n == 0 { break }
        done += n
      }
    }
    if done < length { bytes.removeSubrange(done...) }
    return bytes
  }
}
