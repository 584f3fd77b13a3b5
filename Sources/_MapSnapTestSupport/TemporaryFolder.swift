import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder made by `mkdtemp` in the system's temporary folder, with
/// symbolic links resolved (`/tmp` on some systems) so paths compare as the
/// library and the `mapsnap` binary see them.
public struct TemporaryFolder: Sendable {
  public let path: String

  public init(prefix: String = "mapsnap") throws {
    var base = NSTemporaryDirectory()
    if !base.hasSuffix("/") { base += "/" }
    var template = Array((base + prefix + "-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { throw CocoaError(.fileWriteUnknown) }
    let raw = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    path = URL(fileURLWithPath: raw).resolvingSymlinksInPath().path
  }

  /// Writes `text` at `relative`, creating folders.
  public func write(_ relative: String, _ text: String) throws {
    try Files.write(text, to: path + "/" + relative)
  }

  /// Removes the file or folder at `relative`.
  public func remove(_ relative: String) throws {
    try FileManager.default.removeItem(atPath: path + "/" + relative)
  }

  /// Removes the folder and everything in it.
  public func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `body` with the path of a fresh temporary folder, removed afterwards.
public func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
  let folder = try TemporaryFolder(prefix: "mapsnap-cli")
  defer { folder.cleanUp() }
  return try body(folder.path)
}
