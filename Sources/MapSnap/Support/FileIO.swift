#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small POSIX file helpers, so the library needs no Foundation at start-up.
///
/// The rules for files mapsnap reads (scenes, GeoJSON sources, icons, tiles,
/// `tiles.json`, MBTiles, manifests, case files, fonts): each is opened
/// non-blocking and must be a regular file (a FIFO, a device, a socket or a
/// folder is refused at once, naming what it is), and its size is checked
/// with `fstat` against a limit before anything is read. Files are read into
/// one buffer of the size `fstat` gives (not memory-mapped: a file that
/// shrinks while mapped would end the process with SIGBUS). With a
/// `Confinement` (`--root`) a path must also resolve inside the root: see
/// `Confinement`. Outputs follow `OutputTarget`.
package enum FileIO {
  /// The limit of a read that names none: 1 GiB.
  public static let defaultMaximumBytes = 1 << 30

  /// The whole file as bytes: the one file reader of the library (scenes,
  /// GeoJSON sources, PNG icons, tiles).
  /// Only regular files are read: a folder, a FIFO, a device or a socket is
  /// refused without blocking (the file is opened non-blocking and checked
  /// before any read). A file larger than `maximumBytes` is refused before
  /// it is read; `limitName` names the limit in the message (an option such
  /// as `--max-source-bytes`). With `confinement`, a path resolving outside
  /// its root is refused.
  public static func read(
    _ path: String, maximumBytes: Int = defaultMaximumBytes, limitName: String? = nil, confinement: Confinement? = nil
  ) throws(FileError) -> [UInt8] {
    let opened = try openForReading(path, confinement: confinement)
    defer { close(opened.fd) }
    return try read(opened, path: path, maximumBytes: maximumBytes, limitName: limitName)
  }

  /// `read`, and the file's identity (`DigestStore.Identity`) when it was
  /// the same before and after the read (nil when the file changed while
  /// it was read): what names the bytes read for a `DigestStore`.
  static func readIdentified(
    _ path: String, maximumBytes: Int, limitName: String?, confinement: Confinement?
  ) throws(FileError) -> (bytes: [UInt8], identity: DigestStore.Identity?) {
    let opened = try openForReading(path, confinement: confinement)
    defer { close(opened.fd) }
    var before = stat()
    let known = fstat(opened.fd, &before) == 0
    let bytes = try read(opened, path: path, maximumBytes: maximumBytes, limitName: limitName)
    var after = stat()
    guard known, fstat(opened.fd, &after) == 0 else { return (bytes, nil) }
    let identity = DigestStore.Identity(before)
    return (bytes, identity == DigestStore.Identity(after) && identity.size == bytes.count ? identity : nil)
  }

  /// The bytes of the file `opened` (see `read`).
  private static func read(
    _ opened: (fd: Int32, size: Int), path: String, maximumBytes: Int, limitName: String?
  ) throws(FileError) -> [UInt8] {
    let size = opened.size
    if size > maximumBytes { throw tooLarge(path, size: size, maximumBytes: maximumBytes, limitName: limitName) }
    // One buffer of the size fstat gave, filled in place: no copy, no
    // zero-filling pass, peak memory the file's size.
    var failure: FileError? = nil
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      var filled = 0
      while filled < size {
        let n = readFD(opened.fd, buffer.baseAddress! + filled, size - filled)
        if n < 0 {
          if errno == EINTR { continue }
          failure = .fromErrno(path)
          break
        }
        if n == 0 { break }  // the file shrank since fstat: what is there
        filled += n
      }
      count = filled
    }
    if let failure { throw failure }
    guard bytes.count == size else { return bytes }
    // The file may have grown since fstat: read the rest, within the limit
    // and within `growthBytes` of the size fstat gave. A file that goes on
    // past that is not a file being written but one whose size says
    // nothing (`/proc/self/pagemap` reads as 0 bytes and never ends).
    let bound = min(maximumBytes, size + growthBytes)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = chunk.withUnsafeMutableBytes { readFD(opened.fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .fromErrno(path)
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > maximumBytes { throw tooLarge(path, size: bytes.count, maximumBytes: maximumBytes, limitName: limitName) }
      if bytes.count > bound {
        throw .failed(
          path: path,
          reason: "it goes on past the \(size) bytes its size gave, by more than \(growthBytes) bytes (a file whose size says nothing, such as one in /proc)")
      }
    }
    return bytes
  }

  /// How far past the size `fstat` gave a file is read (1 MiB): a file
  /// appended to while it is read, not one that never ends.
  static let growthBytes = 1 << 20

  private static func tooLarge(_ path: String, size: Int, maximumBytes: Int, limitName: String?) -> FileError {
    .failed(path: path, reason: "\(size) bytes, more than \(limitName.map { "\($0) (\(maximumBytes))" } ?? "the limit of \(maximumBytes) bytes")")
  }

  /// `path` opened read-only, non-blocking and close-on-exec, checked to be
  /// a regular file (and, with `confinement`, to lie inside its root), with
  /// its size from `fstat`. The caller closes `fd`.
  public static func openForReading(_ path: String, confinement: Confinement? = nil) throws(FileError) -> (fd: Int32, size: Int) {
    var target = path
    var flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK
    let confined = confinement.flatMap { $0.confines(path) ? $0 : nil }
    if let confined {
      // The path with every link resolved, checked, then opened without
      // following a link in its last part; the descriptor's own path is
      // checked again after opening (a folder swapped for a link between
      // the check and the open cannot lead outside).
      target = try confined.resolve(path)
      flags |= O_NOFOLLOW
    }
    let fd = open(target, flags)
    if fd < 0 {
      if errno == ELOOP && confined != nil { throw .failed(path: path, reason: "became a symbolic link while being opened") }
      throw .fromErrno(path)
    }
    do throws(FileError) {
      if let confined { try confined.verify(fd: fd, path: path) }
      var st = stat()
      if fstat(fd, &st) != 0 { throw .fromErrno(path) }
      try requireRegularFile(st, path: path)
      return (fd, Int(st.st_size))
    } catch {
      close(fd)
      throw error
    }
  }

  /// Throws unless `st` is a regular file's, naming what it is instead.
  static func requireRegularFile(_ st: stat, path: String) throws(FileError) {
    switch st.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFDIR: throw .isDirectory(path: path)
    default: throw .failed(path: path, reason: "not a regular file (\(kindName(st.st_mode)))")
    }
  }

  /// What a file of mode `mode` is, for messages: `a FIFO`, `a character device`…
  static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "not a file"
    }
  }

  /// True when `path` (through any links) is a regular file.
  public static func isRegularFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }

  /// True when `path` (through any links) is a folder.
  public static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// True when something exists at `path` (through any links).
  public static func exists(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0
  }

  /// The first `count` bytes of a regular file (fewer when it is shorter).
  public static func readPrefix(_ path: String, count: Int, confinement: Confinement? = nil) throws(FileError) -> [UInt8] {
    let opened = try openForReading(path, confinement: confinement)
    defer { close(opened.fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { readFD(opened.fd, $0.baseAddress! + filled, count - filled) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .fromErrno(path)
      }
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

  /// Writes `bytes` to a temporary file in the folder of `path` (a regular
  /// file or a new path, not a link: see `OutputTarget`, which resolves
  /// links first). Nothing visible changes until the result is committed.
  public static func stage(_ bytes: [UInt8], for path: String) throws(FileError) -> PendingOutput {
    try OutputTarget.stage(bytes, at: path, shown: path, confinement: nil)
  }

  /// Standard input, read to its end (at most `maximumBytes`).
  public static func readStandardInput(maximumBytes: Int = defaultMaximumBytes) throws(FileError) -> [UInt8] {
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

  /// Writes `bytes` to standard output; a failure (a closed pipe, a full
  /// disk) is an error naming it.
  public static func writeToStandardOutput(_ bytes: [UInt8]) throws(FileError) {
    try writeAll(fd: 1, bytes, path: "<stdout>")
  }

  /// Writes `text` to standard error, ignoring failures (there is nowhere to report them).
  public static func writeToStandardError(_ text: String) {
    try? writeAll(fd: 2, Array(text.utf8), path: "<stderr>")
  }

  /// Writes all of `bytes` to `fd`, retrying short writes; a failure (or a
  /// write that makes no progress) is an error naming `path` and the errno.
  static func writeAll(fd: Int32, _ bytes: [UInt8], path: String) throws(FileError) {
    let failure: FileError? = bytes.withUnsafeBytes { raw in
      do throws(FileError) { try writeAll(fd: fd, raw, path: path) } catch { return error }
      return nil
    }
    if let failure { throw failure }
  }

  static func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileError) {
    var offset = 0
    while offset < bytes.count {
      let n = writeFD(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        throw .fromErrno(path, naming: true)
      }
      if n == 0 { throw .failed(path: path, reason: "nothing was written (a short write)") }
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
func readFD(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ n: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.read(fd, buf, n)
  #else
    return Darwin.read(fd, buf, n)
  #endif
}

@inline(__always)
func writeFD(_ fd: Int32, _ buf: UnsafeRawPointer?, _ n: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(fd, buf, n)
  #else
    return Darwin.write(fd, buf, n)
  #endif
}
