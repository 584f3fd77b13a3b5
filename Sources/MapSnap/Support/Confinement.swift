#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--root DIR`: the folder that every path taken from a scene or a manifest
/// line must resolve inside (GeoJSON sources, icons, tile sets and their
/// `tiles.json`, a manifest's scenes, outputs, reports and overlays), so that
/// scenes someone else wrote cannot read or write anything else.
///
/// A path is resolved as the kernel resolves it: `..` and every symbolic
/// link (`realpath`); a path that does not exist yet (an output) is resolved
/// through its nearest existing folder, the rest taken as written (`..` in
/// it is applied to the written names). Resolved outside the root, it is
/// refused with an error naming `--root`.
///
/// Checking a path and then opening it would leave a window in which a
/// folder of the path is swapped for a link leading out (TOCTOU). So the
/// resolved path is what is opened, with `O_NOFOLLOW` for its last part, and
/// the opened descriptor's own path (`/proc/self/fd/N`, what the kernel
/// actually opened) is checked again before anything is read or written;
/// outputs are created and renamed relative to a descriptor of their folder
/// checked the same way (`OutputTarget`), and MBTiles files are handed to
/// SQLite as the checked descriptor (`MBTilesReader`).
///
/// A refusal never says where a path leads or whether something exists
/// outside the root (the report may go back to the scene's author): a path
/// that is outside as written (made absolute, `.` and `..` applied) is
/// refused before anything is looked up, and every refusal has the same
/// message.
///
/// `exempt` lists paths the operator gave on the command line (`--geojson`
/// files, `--marker` icons), which are not confined even when a scene names
/// the same path.
public struct Confinement: Sendable, Equatable {
  /// The root, resolved (absolute, no links).
  public let root: String
  /// The root as given, made absolute (links not resolved).
  let givenRoot: String
  /// Paths (as the decoders resolve them) that are not confined.
  public var exempt: Set<String>

  /// The root `path`, which must be an existing folder.
  public init(root path: String, exempt: Set<String> = []) throws(FileError) {
    guard let resolved = FileIO.canonicalPath(path) else { throw .fromErrno(path) }
    var st = stat()
    guard stat(resolved, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
      throw .failed(path: path, reason: "not a folder (--root names the folder scenes may use)")
    }
    root = resolved
    givenRoot = Self.lexical(path)
    self.exempt = exempt
  }

  /// `path` made absolute against the working folder, with `.` and `..`
  /// applied to the names as written (no link is followed).
  static func lexical(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : (FileIO.canonicalPath(".") ?? "/") + "/" + path
    var parts: [Substring] = []
    for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." { _ = parts.popLast() } else { parts.append(part) }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// True when `path`, as written, is inside the root (given or resolved):
  /// what is checked before anything is looked up.
  func writtenInside(_ path: String) -> Bool {
    let p = Self.lexical(path)
    return contains(p) || givenRoot == "/" || p == givenRoot || p.hasPrefix(givenRoot + "/")
  }

  /// False for the paths the operator gave (`exempt`).
  public func confines(_ path: String) -> Bool { !exempt.contains(path) }

  /// True when the resolved `path` is the root or inside it.
  public func contains(_ resolved: String) -> Bool {
    root == "/" || resolved == root || resolved.hasPrefix(root + "/")
  }

  /// The error for `path`, which is (or leads) outside the root; the same
  /// for every such path, naming neither where it leads nor whether it exists.
  func outside(_ path: String, _ resolved: String) -> FileError {
    .failed(path: path, reason: "outside --root \(root) (paths a scene or manifest names must stay inside it, links and .. included)")
  }

  /// The resolved form of the existing `path`, checked to be inside.
  public func resolve(_ path: String) throws(FileError) -> String {
    guard writtenInside(path) else { throw outside(path, path) }
    guard let resolved = FileIO.canonicalPath(path) else { throw .fromErrno(path) }
    guard contains(resolved) else { throw outside(path, resolved) }
    return resolved
  }

  /// The resolved form of a path to write: the path itself when it exists,
  /// else its nearest existing folder resolved plus the rest as written;
  /// checked to be inside.
  public func resolveForWriting(_ path: String) throws(FileError) -> String {
    guard writtenInside(path) else { throw outside(path, path) }
    if let resolved = FileIO.canonicalPath(path) {
      guard contains(resolved) else { throw outside(path, resolved) }
      return resolved
    }
    var st = stat()
    if lstat(path, &st) == 0 {
      // A link to nothing: where it leads cannot be checked.
      throw .failed(path: path, reason: "a symbolic link to a file that does not exist")
    }
    // Walk up to the nearest folder that exists.
    var missing: [String] = []
    var head = path
    while true {
      let name = head.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
      let parent = FileIO.directory(of: head)
      missing.insert(name, at: 0)
      let existing = parent.isEmpty ? "." : parent
      if let resolved = FileIO.canonicalPath(existing) {
        var parts = resolved == "/" ? [] : resolved.split(separator: "/").map(String.init)
        for part in missing where !part.isEmpty && part != "." {
          if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        let full = "/" + parts.joined(separator: "/")
        guard contains(full) else { throw outside(path, full) }
        return full
      }
      guard !parent.isEmpty, parent != "/", parent != head else { throw .fromErrno(path) }
      head = parent
    }
  }

  /// Checks what `fd` actually opened (its `/proc/self/fd` link) is inside
  /// the root; `path` names it in the error. Fails closed when the link
  /// cannot be read.
  public func verify(fd: Int32, path: String) throws(FileError) {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
      guard n > 0 else { throw .failed(path: path, reason: "cannot check where it leads (/proc/self/fd): --root needs /proc") }
      let actual = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard contains(actual) else { throw outside(path, actual) }
    #endif
  }
}
