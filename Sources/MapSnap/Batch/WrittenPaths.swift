#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files a manifest's lines write, as the duplicate check compares
/// them (`ManifestReader.validate`): two lines writing one file are caught
/// whatever the paths' spelling.
///
/// The rule: a written path (output or report) names the file it leads to
/// now: made absolute, with every symbolic link, `.` and `..` resolved as
/// far as the path exists (`realpath`), and the part that does not exist
/// yet (a folder to be created, the new file) appended and normalized
/// lexically. So `out/a.png`, `./out//a.png`, `link/a.png` (a link to
/// `out`) and `t.png` (a link to `out/a.png`) are one file. A path leading
/// to a character device (`/dev/null`) is not compared: a device is
/// written in place, as often as asked.
///
/// Resolved folders are kept (up to `keptFolders`), so a manifest of
/// millions of lines into a few folders costs one `lstat` per path.
struct WrittenPaths {
  /// One written path of a line.
  struct Written {
    /// `output` or `report`.
    var key: String
    /// The path as the line gives it, resolved against the manifest's folder.
    var path: String
    /// The file it leads to (see the rule above).
    var file: String
  }

  /// Resolved folders kept at most; the cache is emptied when full.
  static let keptFolders = 4096

  private var folders: [String: String] = [:]
  /// Relative paths are relative to the working folder, read once.
  private let workingDirectory = Self.workingDirectory()

  /// The output and report of `line` that are compared (not devices).
  mutating func of(_ line: ManifestLine) -> [Written] {
    var out: [Written] = []
    for (key, path) in [("output", line.output)] + (line.report.map { [("report", $0)] } ?? []) {
      if let file = file(path) { out.append(Written(key: key, path: path, file: file)) }
    }
    return out
  }

  /// The file `path` leads to, or nil for a character device.
  mutating func file(_ path: String) -> String? {
    let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
    var st = stat()
    if lstat(absolute, &st) == 0 {
      switch st.st_mode & S_IFMT {
      case S_IFCHR: return nil
      case S_IFLNK:
        guard let target = FileIO.canonicalPath(absolute) else { break }
        var resolved = stat()
        if stat(target, &resolved) == 0, (resolved.st_mode & S_IFMT) == S_IFCHR { return nil }
        return target
      default: break
      }
    }
    let name = absolute.split(separator: "/").last.map(String.init) ?? ""
    guard !name.isEmpty, name != ".", name != ".." else { return Self.resolve(absolute) }
    let folder = FileIO.directory(of: absolute)
    if let known = folders[folder] { return known + "/" + name }
    let resolved = Self.resolve(folder)
    if folders.count >= Self.keptFolders { folders.removeAll(keepingCapacity: true) }
    folders[folder] = resolved == "/" ? "" : resolved
    return (resolved == "/" ? "" : resolved) + "/" + name
  }

  /// `absolute` with its longest existing leading part resolved by
  /// `realpath` and the rest normalized lexically.
  static func resolve(_ absolute: String) -> String {
    let parts = absolute.split(separator: "/", omittingEmptySubsequences: true)
    var count = parts.count
    while count > 0 {
      if let real = FileIO.canonicalPath("/" + parts[0..<count].joined(separator: "/")) {
        return normalized(real + "/" + parts[count...].joined(separator: "/"))
      }
      count -= 1
    }
    return normalized(absolute)
  }

  /// `path` (absolute) with `.`, `..` and repeated slashes removed, lexically.
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for p in path.split(separator: "/") {
      if p == "." { continue }
      if p == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(p)
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The process's working folder ("" when it cannot be read).
  static func workingDirectory() -> String {
    var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buf, buf.count) != nil else { return "" }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
