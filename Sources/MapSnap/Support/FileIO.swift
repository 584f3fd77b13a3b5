#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small POSIX file helpers, so the library needs no Foundation at start-up.
public enum FileIO {
  /// The whole file as bytes: the one file reader of the library (scenes,
  /// GeoJSON sources, PNG icons).
  /// Only regular files are read: a folder, a FIFO, a device or a socket is
  /// refused without blocking (the file is opened non-blocking and checked
  /// before any read). A file larger than `maximumBytes` is refused.
  public static func read(_ path: String, maximumBytes: Int = Int.max) throws(FileError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 { throw .fromErrno(path) }
    defer { close(fd) }
    var st = stat()
    if fstat(fd, &st) != 0 { throw .fromErrno(path) }
    if (st.st_mode & S_IFMT) == S_IFDIR {
      throw .isDirectory(path: path)
    }
    if (st.st_mode & S_IFMT) != S_IFREG {
      throw .failed(path: path, reason: "not a regular file")
    }
    if Int(st.st_size) > maximumBytes {
      throw .failed(path: path, reason: "larger than \(maximumBytes) bytes")
    }
    // One spare byte so a file of the expected size is finished in one pass.
    var bytes = [UInt8](repeating: 0, count: max(Int(st.st_size), 0) + 1)
    var filled = 0
    while true {
      if filled == bytes.count {
        bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 64 * 1024)))
      }
      let n = bytes.withUnsafeMutableBytes { readFD(fd, $0.baseAddress! + filled, $0.count - filled) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .fromErrno(path)
      }
      if n == 0 { break }
      filled += n
      if filled > maximumBytes { throw .failed(path: path, reason: "larger than \(maximumBytes) bytes") }
    }
    bytes.removeSubrange(filled...)
    return bytes
  }

  /// A complete file written next to its target under a temporary name,
  /// waiting to be renamed into place (`commit`) or removed (`discard`).
  public struct StagedFile: Sendable {
    public let temporaryPath: String
    public let path: String

    /// Renames the staged file over `path`.
    public func commit() throws(FileError) {
      if rename(temporaryPath, path) != 0 {
        let error = FileError.fromErrno(path)
        unlink(temporaryPath)
        throw error
      }
    }

    /// Removes the staged file, leaving `path` untouched.
    public func discard() {
      unlink(temporaryPath)
    }
  }

  /// The first `count` bytes of a regular file (fewer when it is shorter).
  public static func readPrefix(_ path: String, count: Int) throws(FileError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 { throw .fromErrno(path) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw .failed(path: path, reason: "not a regular file") }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { readFD(fd, $0.baseAddress! + filled, count - filled) }
      if n < 0 { throw .fromErrno(path) }
      if n == 0 { break }
      filled += n
    }
    return Array(bytes.prefix(filled))
  }

  /// The process's umask, read once (reading it means setting it, which
  /// must not race with threads staging files).
  static let processUmask: mode_t = {
    let mask = umask(0)
    umask(mask)
    return mask
  }()

  /// Creates the folders leading to `path` that do not exist yet (as
  /// `mkdir -p` does for its folder).
  public static func createParentDirectories(of path: String) throws(FileError) {
    let dir = directory(of: path)
    guard !dir.isEmpty, dir != "/" else { return }
    var st = stat()
    if stat(dir, &st) == 0 { return }
    try createParentDirectories(of: dir)
    if mkdir(dir, 0o777) != 0 && errno != EEXIST { throw .fromErrno(dir) }
  }

  /// Writes `bytes` to a temporary file in the folder of `path`. Nothing
  /// visible changes until the result is committed.
  public static func stage(_ bytes: [UInt8], for path: String) throws(FileError) -> StagedFile {
    let dir = directory(of: path)
    var template = Array(((dir == "" ? "" : dir + "/") + ".mapsnap-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if fd < 0 { throw .fromErrno(path) }
    let tmp = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    do throws(FileError) {
      try writeAll(fd: fd, bytes, path: path)
    } catch {
      close(fd)
      unlink(tmp)
      throw error
    }
    // mkstemp creates 0600; give the file the usual permissions (umask applies).
    fchmod(fd, 0o666 & ~processUmask)
    if close(fd) != 0 {
      let error = FileError.fromErrno(path)
      unlink(tmp)
      throw error
    }
    return StagedFile(temporaryPath: tmp, path: path)
  }

  /// Writes `bytes` to standard output.
  /// Standard input, read to its end (at most `maximumBytes`).
  public static func readStandardInput(maximumBytes: Int = 1 << 30) throws(FileError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = chunk.withUnsafeMutableBytes { readFD(0, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .fromErrno("<stdin>")
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > maximumBytes { throw .failed(path: "<stdin>", reason: "larger than \(maximumBytes) bytes") }
    }
    return bytes
  }

  /// What a path to write names, for output rules: nothing yet, a regular
  /// file (through any symbolic links), a FIFO or character device (written
  /// as they are, never replaced), or something else (a folder, a socket).
  public enum WriteTarget: Sendable, Equatable {
    case new
    case regularFile(resolved: String)
    case stream
    case other
  }

  public static func writeTarget(_ path: String) -> WriteTarget {
    var st = stat()
    // stat follows symbolic links: a link to a regular file is that file.
    guard stat(path, &st) == 0 else { return .new }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return .regularFile(resolved: canonicalPath(path) ?? path)
    case S_IFIFO, S_IFCHR: return .stream
    default: return .other
    }
  }

  /// Writes `bytes` to a FIFO or device as it is (no temporary file: it
  /// cannot be renamed over).
  public static func writeStream(_ bytes: [UInt8], to path: String) throws(FileError) {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    if fd < 0 { throw .fromErrno(path) }
    defer { close(fd) }
    try writeAll(fd: fd, bytes, path: path)
  }

  public static func writeToStandardOutput(_ bytes: [UInt8]) throws(FileError) {
    try writeAll(fd: 1, bytes, path: "<stdout>")
  }

  /// Writes `text` to standard error, ignoring failures (there is nowhere to report them).
  public static func writeToStandardError(_ text: String) {
    try? writeAll(fd: 2, Array(text.utf8), path: "<stderr>")
  }

  private static func writeAll(fd: Int32, _ bytes: [UInt8], path: String) throws(FileError) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { writeFD(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .fromErrno(path)
      }
      offset += n
    }
  }

  /// The absolute path with symbolic links and `.`/`..` resolved, or nil when
  /// the file does not exist.
  public static func canonicalPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }

  /// Names in a folder, without "." and ".."; empty when it cannot be read.
  public static func listDirectory(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The folder part of `path` ("" for a bare file name, "/" for root files).
  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// `path` resolved against `base` unless it is absolute.
  public static func resolve(_ path: String, against base: String) -> String {
    if path.hasPrefix("/") || base.isEmpty { return path }
    return base.hasSuffix("/") ? base + path : base + "/" + path
  }
}

@inline(__always)
private func readFD(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ n: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.read(fd, buf, n)
  #else
    return Darwin.read(fd, buf, n)
  #endif
}

@inline(__always)
private func writeFD(_ fd: Int32, _ buf: UnsafeRawPointer?, _ n: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(fd, buf, n)
  #else
    return Darwin.write(fd, buf, n)
  #endif
}
