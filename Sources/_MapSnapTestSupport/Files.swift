import Foundation

/// File helpers for tests: whole files in and out, listings, permissions.
public enum Files {
  /// Writes `text` as UTF-8 at `path`, creating its folders.
  public static func write(_ text: String, to path: String) throws {
    let dir = (path as NSString).deletingLastPathComponent
    if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// Writes `bytes` at `path` (the folder must exist).
  public static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// The whole file at `path`.
  public static func read(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// True when `path` names an existing file or folder.
  public static func exists(_ path: String) -> Bool { Repository.exists(path) }

  /// The sorted names in `path`, hidden ones included.
  public static func list(_ path: String) -> [String] { Repository.listDirectory(path).sorted() }

  /// Every name under `path` (recursively, relative), hidden ones included.
  public static func listRecursively(_ path: String) -> [String] {
    var names: [String] = []
    for name in list(path) {
      names.append(name)
      var isDir: ObjCBool = false
      if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDir), isDir.boolValue {
        names += listRecursively(path + "/" + name).map { name + "/" + $0 }
      }
    }
    return names.sorted()
  }

  /// The permission bits of `path`.
  public static func permissions(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
  }

  /// This process's umask (which the child inherits), read without changing it.
  public static func currentUmask() -> Int? {
    #if os(Linux)
      guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
      for line in status.split(separator: "\n") where line.hasPrefix("Umask:") {
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
      }
      return nil
    #else
      return nil
    #endif
  }

  /// Leftover temporary files of atomic writes (`.mapsnap-XXXXXX`) under `path`.
  public static func leftovers(in path: String) -> [String] {
    listRecursively(path).filter { ($0.split(separator: "/").last ?? "").hasPrefix(".mapsnap-") }
  }
}
