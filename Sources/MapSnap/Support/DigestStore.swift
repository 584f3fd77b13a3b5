#if canImport(Glibc)
  import Glibc
#endif

/// File digests kept on disk between processes, so that a process drawing
/// one labelled frame does not hash the same 5.5 MB of fonts that the
/// previous one hashed (`FileDigests`, the `mapsnap-inputs` chunk).
///
/// The rule, git's index rule: an entry is the digest of the file at one
/// path as it was when hashed, named by its identity (device, inode, size,
/// modification and change times, to the nanosecond); it is used only
/// while the file has that identity. Any write to a file changes its change
/// time (which no program can set), so a changed file is hashed again. A
/// file changed within `settleSeconds` of being hashed could still carry the
/// change time it had (file systems stamp times from a clock that ticks
/// every few milliseconds), so such an entry is not stored.
///
/// One small file per path under `directory/digests/` (named by the SHA-256
/// of the path), written to a temporary file and renamed into place, so
/// processes running at once never read a half-written entry; an entry that
/// cannot be read or parsed is no entry. Nothing here ever fails a frame:
/// a store that cannot be created or written is not used.
///
/// Bounded: a batch over a million scenes, each with a GeoJSON file of its
/// own, would otherwise leave a million entries behind. When the folder
/// holds more than `maximumEntries`, the oldest stored go first, down to
/// three quarters of it (`prune`); a file whose entry went is hashed again
/// the next time it is read, and stored again.
public struct DigestStore: Sendable {
  /// The folder holding `digests/`.
  public let directory: String
  /// Seconds a file must have been left unchanged (modification and change
  /// times) before its digest is stored: 2.
  public var settleSeconds = 2
  /// Entries kept at most: 4,096, every font and source the frames of a
  /// machine commonly read (16 MiB of disk at 4 KiB a file).
  public var maximumEntries = 4096

  /// A new entry looks at the folder's size when its name (the SHA-256 of
  /// its path, evenly spread) starts with one of 4 of the 256 two-digit
  /// prefixes: once in 64 new entries, with no count to keep between
  /// processes. Listing 4,096 entries takes a few milliseconds: about 0.05
  /// ms per new entry, beside the hashing of the file it stores.
  static let pruningPrefixes: Set<Substring> = ["00", "01", "02", "03"]

  /// Seconds after which a temporary file of `store` is left over from a
  /// process that ended between writing it and renaming it: 60.
  static let staleTemporarySeconds = 60

  /// A store in `directory` (created with the folders above it that are
  /// missing, mode 0700, on first write).
  public init(directory: String) {
    self.directory = directory
  }

  /// The store the `mapsnap` command uses: `$MAPSNAP_CACHE_DIR` (empty:
  /// none), else `$XDG_CACHE_HOME/mapsnap`, else `$HOME/.cache/mapsnap`;
  /// nil when none can be named.
  public static var standard: DigestStore? {
    standard { getenv($0).map { String(cString: $0) } }
  }

  /// `standard` with the environment variables `env` gives.
  static func standard(_ env: (String) -> String?) -> DigestStore? {
    if let dir = env("MAPSNAP_CACHE_DIR") { return dir.isEmpty ? nil : DigestStore(directory: dir) }
    if let xdg = env("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return DigestStore(directory: xdg + "/mapsnap") }
    if let home = env("HOME"), home.hasPrefix("/") { return DigestStore(directory: home + "/.cache/mapsnap") }
    return nil
  }

  /// What names a file's content for the store: `fstat`'s device, inode,
  /// size, and modification and change times in nanoseconds.
  public struct Identity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int
    var changed: Int

    /// The identity `fstat` or `stat` gave.
    public init(_ st: stat) {
      device = UInt64(st.st_dev)
      inode = UInt64(st.st_ino)
      size = Int(st.st_size)
      modified = Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)
      changed = Int(st.st_ctim.tv_sec) * 1_000_000_000 + Int(st.st_ctim.tv_nsec)
    }

    /// The identity as an entry writes it: five decimal numbers.
    public var line: String { "\(device) \(inode) \(size) \(modified) \(changed)" }
  }

  /// The first word of an entry: the format's version.
  static let version = "mapsnap-digest-1"

  /// The stored digest of the file at `path` when it still has `identity`.
  public func digest(of path: String, identity: Identity) -> String? {
    guard let bytes = try? FileIO.read(entryPath(path), maximumBytes: 4096) else { return nil }
    let words = String(decoding: bytes, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
    guard words.count == 7, words[0] == Self.version else { return nil }
    guard words[1..<6].joined(separator: " ") == identity.line else { return nil }
    let digest = words[6].hasSuffix("\n") ? words[6].dropLast() : words[6][...]
    guard digest.count == 64, digest.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
    return String(digest)
  }

  /// Stores `digest` for the file at `path` with `identity`, unless it was
  /// changed less than `settleSeconds` before `now` (seconds since the
  /// epoch). Failures are ignored.
  public func store(_ digest: String, of path: String, identity: Identity, now: Int = Int(time(nil))) {
    let settled = (now - settleSeconds) * 1_000_000_000
    guard identity.modified <= settled, identity.changed <= settled else { return }
    let folder = self.folder
    guard Self.makeFolders(folder) else { return }
    let temporary = folder + "/" + Self.temporaryPrefix + "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    let text = Array("\(Self.version) \(identity.line) \(digest)\n".utf8)
    let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    let name = entryName(path)
    if written != text.count || rename(temporary, folder + "/" + name) != 0 {
      unlink(temporary)
      return
    }
    if Self.pruningPrefixes.contains(name.prefix(2)) { prune(now: now) }
  }

  /// Removes the oldest entries (by the time they were stored, not last
  /// read: a read touches nothing on disk) when the folder holds more than
  /// `maximumEntries`, down to three quarters of it, and temporary files
  /// older than `staleTemporarySeconds`. A font stored early may so go
  /// before the sources of a long run of frames: it is hashed once more by
  /// the next process (a batch keeps its digests in memory) and stored anew.
  /// Processes that prune at once each remove the oldest they find: at
  /// worst an entry just stored again goes, and that file is hashed once
  /// more; a file already gone is no failure. `now`: seconds since the
  /// epoch.
  func prune(now: Int = Int(time(nil))) {
    let folder = self.folder
    var entries: [(stored: Int, path: String)] = []
    for name in FileIO.listDirectory(folder) {
      let path = folder + "/" + name
      var st = stat()
      guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
      if name.hasPrefix(Self.temporaryPrefix) {
        if now - Int(st.st_mtim.tv_sec) > Self.staleTemporarySeconds { unlink(path) }
      } else if name.utf8.count == 64 {
        entries.append((Identity(st).modified, path))
      }
    }
    guard entries.count > maximumEntries else { return }
    entries.sort { $0.stored != $1.stored ? $0.stored < $1.stored : $0.path < $1.path }
    for e in entries.prefix(entries.count - maximumEntries * 3 / 4) { unlink(e.path) }
  }

  /// Makes `path` and the folders above it that are missing (mode 0700, as
  /// `mkdir -p` would with that mode); true when it is there after.
  static func makeFolders(_ path: String) -> Bool {
    if mkdir(path, 0o700) == 0 || errno == EEXIST { return true }
    guard errno == ENOENT, let slash = path.lastIndex(of: "/"), slash > path.startIndex else { return false }
    return makeFolders(String(path[..<slash])) && (mkdir(path, 0o700) == 0 || errno == EEXIST)
  }

  /// The folder the entries live in.
  var folder: String { directory + "/digests" }

  /// Where the entry of `path` lives.
  public func entryPath(_ path: String) -> String {
    folder + "/" + entryName(path)
  }

  /// The entry's file name: the SHA-256 of `path`, in hexadecimal.
  func entryName(_ path: String) -> String { SHA256.hex(of: Array(path.utf8)) }

  /// How a temporary file of `store` is named, before its process id.
  static let temporaryPrefix = ".tmp-"

}
