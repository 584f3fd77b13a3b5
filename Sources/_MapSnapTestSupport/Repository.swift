import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// Paths inside the repository, found from this source file's location.
public enum Repository {
  /// The package root (the folder holding Package.swift).
  public static let root: String = {
    var path = #filePath
    for _ in 0..<3 {  // …/Sources/_MapSnapTestSupport/Repository.swift
      path = FileIO.directory(of: path)
    }
    return path
  }()

  /// Names in a folder, without "." and "..".
  public static func listDirectory(_ path: String) -> [String] { FileIO.listDirectory(path) }

  /// True when `path` names an existing file or folder.
  public static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Creates `path` and its parents.
  public static func makeDirectories(_ path: String) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      current += "/" + part
      mkdir(current, 0o755)
    }
  }
}
