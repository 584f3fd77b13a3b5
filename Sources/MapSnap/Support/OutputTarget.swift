#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where one output goes, and how it is written: the one rule for every file
/// mapsnap writes (`render`'s `-o` and `--report`, `batch`'s outputs, reports
/// and `--summary`, `diff -o`, `test`'s reports, artifacts and recorded
/// files).
///
/// - A regular file, or a path where nothing exists yet, is written to a
///   temporary file (`.mapsnap-XXXXXX`) in its folder and renamed over it, so
///   it is complete or untouched. Through a symbolic link, the link's
///   resolved target is written that way and the link is kept.
/// - Anything else that can be written (a character device such as
///   `/dev/null`, a FIFO, a link to one) is written in place, never
///   replaced. A FIFO no process is reading is an error, not a wait.
/// - `-`, `/dev/stdout` (`/dev/fd/1`, `/proc/self/fd/1`) are standard
///   output; `/dev/stderr` (…`/2`) standard error: written to the process's
///   own descriptor, wherever it leads.
/// - A folder, a socket, a block device or a link to nothing is refused.
///
/// Every write error (ENOSPC from `/dev/full`, EPIPE, a short write, an error
/// from `close`) is an error naming the path and the errno; a temporary file
/// is removed on every failure, and when the process is ended by SIGTERM or
/// SIGINT (`TemporaryFiles`). With a `Confinement`, the path (resolved,
/// links included) must be inside the root, and the folder written in is
/// opened and checked once, then used by descriptor (`openat`, `renameat`),
/// so it cannot be swapped for a link after the check.
public struct OutputTarget: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    case standardOutput
    case standardError
    /// A FIFO or character device (or a link to one), written in place.
    case stream(path: String)
    /// A regular file or a new path (a link's target, resolved), written to
    /// a temporary file beside it and renamed.
    case file(path: String)
  }

  /// The path as the user (or the manifest) gave it.
  public let path: String
  public let kind: Kind
  let confinement: Confinement?

  /// The target `path` names now.
  /// - Throws: `FileError` for a folder, socket, block device or dangling
  ///   link, and with `confinement` for a path that resolves outside its root.
  public init(_ path: String, confinement: Confinement? = nil) throws(FileError) {
    self.path = path
    let confinement = confinement.flatMap { $0.confines(path) ? $0 : nil }
    self.confinement = confinement
    let chain = Self.linkChain(path)
    if path == "-" || chain.contains(where: Self.standardOutputNames.contains) {
      if let confinement { throw confinement.outside(path, "standard output") }
      kind = .standardOutput
      return
    }
    if chain.contains(where: Self.standardErrorNames.contains) {
      if let confinement { throw confinement.outside(path, "standard error") }
      kind = .standardError
      return
    }
    // By identity too: any spelling (`/proc/self/./fd/1`, the file standard
    // output is redirected to) of the file behind descriptor 1 or 2 is that
    // descriptor, written in place and never renamed over.
    if let fd = Self.standardDescriptor(sameAs: path) {
      if let confinement { throw confinement.outside(path, fd == 1 ? "standard output" : "standard error") }
      kind = fd == 1 ? .standardOutput : .standardError
      return
    }
    var st = stat()
    // stat follows links: a link to a regular file is that file.
    guard stat(path, &st) == 0 else {
      let code = errno
      var lst = stat()
      if lstat(path, &lst) == 0 {
        throw .failed(path: path, reason: "a symbolic link to a file that does not exist (mapsnap writes through a link only to an existing file)")
      }
      guard code == ENOENT else {
        errno = code
        throw .fromErrno(path)
      }
      kind = .file(path: try confinement?.resolveForWriting(path) ?? path)
      return
    }
    switch st.st_mode & S_IFMT {
    case S_IFREG:
      let resolved = FileIO.canonicalPath(path) ?? path
      if let confinement, !confinement.contains(resolved) { throw confinement.outside(path, resolved) }
      kind = .file(path: resolved)
    case S_IFIFO, S_IFCHR:
      kind = .stream(path: try confinement?.resolve(path) ?? path)
    default:
      throw .failed(path: path, reason: "not a file that can be written (\(FileIO.kindName(st.st_mode)))")
    }
  }

  /// `path` and where each symbolic link on the way leads (absolute, up to
  /// 40 links): a link to `/dev/stdout` or `/proc/self/fd/1` is standard
  /// output, even when that is a regular file (it is written in place, not
  /// replaced).
  static func linkChain(_ path: String) -> [String] {
    var current = path.hasPrefix("/") ? path : (FileIO.canonicalPath(".") ?? ".") + "/" + path
    var chain = [current]
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    for _ in 0..<40 {
      let n = readlink(current, &buffer, buffer.count - 1)
      guard n > 0 else { break }
      let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = target.hasPrefix("/") ? target : FileIO.directory(of: current) + "/" + target
      chain.append(current)
    }
    return chain
  }

  /// 1 or 2 when `path` is the same file (device and inode) as standard
  /// output or standard error; nil otherwise.
  static func standardDescriptor(sameAs path: String) -> Int32? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    for fd: Int32 in [1, 2] {
      var open = stat()
      if fstat(fd, &open) == 0, open.st_dev == st.st_dev, open.st_ino == st.st_ino { return fd }
    }
    return nil
  }

  // Arrays, not Sets: three names each, and a Set's generic metadata costs a
  // render's start-up more than the look-ups it would save.
  static let standardOutputNames = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
  static let standardErrorNames = ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"]

  /// True for standard output (`-`, `/dev/stdout`…).
  public var isStandardOutput: Bool { kind == .standardOutput }

  /// True when the output is a file written by renaming (not in place).
  public var isFile: Bool { if case .file = kind { true } else { false } }

  /// `bytes` made ready to be put in place by `PendingOutput.commit()`: a
  /// file is staged beside its target now (creating missing folders when
  /// `createDirectories`); a stream or standard output is written at commit.
  public func prepare(_ bytes: [UInt8], createDirectories: Bool = false) throws(FileError) -> PendingOutput {
    switch kind {
    case .file(let resolved):
      if createDirectories { try FileIO.createParentDirectories(of: resolved) }
      return try Self.stage(bytes, at: resolved, shown: path, confinement: confinement)
    case .stream(let resolved):
      return PendingOutput(action: .stream(path: resolved, shown: path, bytes: bytes, confinement: confinement))
    case .standardOutput:
      return PendingOutput(action: .descriptor(1, shown: path, bytes: bytes))
    case .standardError:
      return PendingOutput(action: .descriptor(2, shown: path, bytes: bytes))
    }
  }

  /// Writes `bytes` now: `prepare` then `commit`.
  public func write(_ bytes: [UInt8], createDirectories: Bool = false) throws(FileError) {
    try prepare(bytes, createDirectories: createDirectories).commit()
  }

  /// An output written as it is produced (`StreamingOutput`), for what is
  /// too large to hold (a streamed PNG): a file is written to its temporary
  /// file now (creating missing folders when `createDirectories`) and
  /// renamed only by the `PendingOutput` that `StreamingOutput.finish()`
  /// returns, so it stays complete or untouched; a stream or standard
  /// output is collected in memory and written at commit, as `prepare`
  /// does.
  package func openStreaming(createDirectories: Bool = false) throws(FileError) -> StreamingOutput {
    switch kind {
    case .file(let resolved):
      if createDirectories { try FileIO.createParentDirectories(of: resolved) }
      return StreamingOutput(target: self, staging: try Self.openTemporary(at: resolved, shown: path, confinement: confinement))
    default:
      return StreamingOutput(target: self, staging: nil)
    }
  }

  /// `bytes` in a new temporary file in the folder of `resolved` (a regular
  /// file's path or a new one, links already resolved), opened by
  /// descriptor so that the rename lands in the folder that was checked.
  static func stage(_ bytes: [UInt8], at resolved: String, shown: String, confinement: Confinement?) throws(FileError) -> PendingOutput {
    let staging = try openTemporary(at: resolved, shown: shown, confinement: confinement)
    do throws(FileError) {
      try FileIO.writeAll(fd: staging.fd, bytes, path: shown)
    } catch {
      staging.abandon()
      throw error
    }
    return try staging.finish()
  }

  /// A new temporary file (`.mapsnap-XXXXXX`, mode 0600 until closed) in
  /// the folder of `resolved`, that folder opened (and checked against
  /// `confinement`) by descriptor.
  static func openTemporary(at resolved: String, shown: String, confinement: Confinement?) throws(FileError) -> Staging {
    let dir = FileIO.directory(of: resolved)
    let name = resolved.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? resolved
    let dirfd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dirfd < 0 { throw .fromErrno(shown) }
    if let confinement {
      do throws(FileError) {
        try confinement.verify(fd: dirfd, path: shown)
      } catch {
        close(dirfd)
        throw error
      }
    }
    // Created and recorded in one step (`TemporaryFiles`), so that a
    // process ended by SIGTERM or SIGINT removes it.
    let made = TemporaryFiles.create(in: dirfd) { () -> (fd: Int32, name: String) in
      var fd: Int32 = -1
      var temporary = ""
      for _ in 0..<100 {
        temporary = ".mapsnap-" + String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
        fd = openat(dirfd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 || errno != EEXIST { break }
      }
      return (fd, temporary)
    }
    guard let made, made.fd >= 0 else {
      let error = made == nil ? FileError.failed(path: shown, reason: "the process is ending (a signal)") : FileError.fromErrno(shown, naming: true)
      close(dirfd)
      throw error
    }
    return Staging(directory: dirfd, fd: made.fd, temporary: made.name, token: made.token, name: name, shown: shown)
  }

  /// A temporary file being written beside its target.
  struct Staging {
    let directory: Int32
    let fd: Int32
    let temporary: String
    /// Its record in `TemporaryFiles`.
    let token: Int
    let name: String
    let shown: String

    /// Gives the file the target's permissions (or the usual ones), closes
    /// it and returns it ready to be renamed; on failure it is removed.
    func finish() throws(FileError) -> PendingOutput {
      // A file replaced keeps its permission bits and, as far as this
      // process may set them, its owner and group; a new file gets the usual
      // permissions (umask applies).
      var old = stat()
      if fstatat(directory, name, &old, AT_SYMLINK_NOFOLLOW) == 0, (old.st_mode & S_IFMT) == S_IFREG {
        fchmod(fd, old.st_mode & 0o7777)
        _ = fchown(fd, old.st_uid, old.st_gid)
        fchmod(fd, old.st_mode & 0o7777)  // chown may clear set-id bits
      } else {
        fchmod(fd, 0o666 & ~FileIO.processUmask)
      }
      if close(fd) != 0 {
        let error = FileError.fromErrno(shown, naming: true)
        unlinkat(directory, temporary, 0)
        TemporaryFiles.forget(token)
        close(directory)
        throw error
      }
      return PendingOutput(action: .staged(directory: directory, temporary: temporary, token: token, name: name, shown: shown))
    }

    /// Closes and removes the temporary file.
    func abandon() {
      close(fd)
      unlinkat(directory, temporary, 0)
      TemporaryFiles.forget(token)
      close(directory)
    }
  }
}

/// An output made ready by `OutputTarget.prepare`: `commit()` puts it in
/// place (renames the staged file, or writes the stream), `discard()` leaves
/// the target untouched. Exactly one of the two must be called.
public struct PendingOutput: Sendable {
  enum Action: Sendable {
    /// A complete temporary file in the folder open as `directory`.
    case staged(directory: Int32, temporary: String, token: Int, name: String, shown: String)
    case stream(path: String, shown: String, bytes: [UInt8], confinement: Confinement?)
    case descriptor(Int32, shown: String, bytes: [UInt8])
  }

  let action: Action

  /// True for a staged file (renamed at commit); false for what is written
  /// in place at commit.
  public var isStaged: Bool { if case .staged = action { true } else { false } }

  /// Renames the staged file over its target, or writes in place.
  public func commit() throws(FileError) {
    switch action {
    case .staged(let dirfd, let temporary, let token, let name, let shown):
      defer {
        TemporaryFiles.forget(token)
        close(dirfd)
      }
      if renameat(dirfd, temporary, dirfd, name) != 0 {
        let error = FileError.fromErrno(shown, naming: true)
        unlinkat(dirfd, temporary, 0)
        throw error
      }
    case .stream(let path, let shown, let bytes, let confinement):
      try Self.writeInPlace(bytes, path: path, shown: shown, confinement: confinement)
    case .descriptor(let fd, let shown, let bytes):
      try FileIO.writeAll(fd: fd, bytes, path: shown)
    }
  }

  /// Removes a staged file; nothing to do for the others.
  public func discard() {
    if case .staged(let dirfd, let temporary, let token, _, _) = action {
      unlinkat(dirfd, temporary, 0)
      TemporaryFiles.forget(token)
      close(dirfd)
    }
  }

  /// Commits `outputs` together (one frame's PNG and report), so that no
  /// file is replaced unless every output was written. The rule, in order:
  /// 1. every staged file is already complete (written, closed);
  /// 2. what is written in place (a device, a FIFO, standard output) is
  ///    written, in the order given; a failure discards every staged file,
  ///    leaving the files' previous contents untouched;
  /// 3. the staged files are renamed over their targets, in the order
  ///    given; a rename failing discards the ones not yet renamed (those
  ///    before it stay: a rename cannot be undone).
  /// What was written in place before a failure cannot be taken back.
  public static func commitAll(_ outputs: [PendingOutput]) throws(FileError) {
    let staged = outputs.filter(\.isStaged)
    for output in outputs where !output.isStaged {
      do throws(FileError) {
        try output.commit()
      } catch {
        for file in staged { file.discard() }
        throw error
      }
    }
    for (i, output) in staged.enumerated() {
      do throws(FileError) {
        try output.commit()
      } catch {
        for rest in staged[(i + 1)...] { rest.discard() }
        throw error
      }
    }
  }

  /// Writes `bytes` to a FIFO or device as it is: opened non-blocking (a
  /// FIFO nobody reads is an error, not a hang), checked to still be one,
  /// then written with blocking writes and closed, every error reported.
  static func writeInPlace(_ bytes: [UInt8], path: String, shown: String, confinement: Confinement?) throws(FileError) {
    let fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    if fd < 0 {
      if errno == ENXIO { throw .failed(path: shown, reason: "a FIFO that no process is reading (ENXIO)") }
      throw .fromErrno(shown, naming: true)
    }
    var closed = false
    defer { if !closed { close(fd) } }
    if let confinement { try confinement.verify(fd: fd, path: shown) }
    var st = stat()
    if fstat(fd, &st) != 0 { throw .fromErrno(shown, naming: true) }
    let type = st.st_mode & S_IFMT
    guard type == S_IFIFO || type == S_IFCHR else {
      throw .failed(path: shown, reason: "changed while being written: now \(FileIO.kindName(st.st_mode))")
    }
    let flags = fcntl(fd, F_GETFL)
    if flags != -1 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
    try FileIO.writeAll(fd: fd, bytes, path: shown)
    closed = true
    if close(fd) != 0 { throw .fromErrno(shown, naming: true) }
  }
}
