#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder for one input's files (a source, a manifest, a tile set),
/// on `/dev/shm` when there is one (no disk writes per input), removed with
/// everything written into it when `remove()` is called. Each folder is
/// unique, so targets can run in parallel (the regression tests).
final class ScratchFolder {
  let path: String
  /// Created files and folders, in creation order (removed in reverse).
  private var created: [String] = []

  init(_ label: String) {
    var template = Array("\(ScratchFolder.root)/mapsnap-fuzz-\(label)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    precondition(made, "mapsnap-fuzz: cannot create a scratch folder under \(ScratchFolder.root)")
    path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
  }

  /// `/dev/shm` when writable, else `$TMPDIR`, else `/tmp`.
  static let root: String = {
    if access("/dev/shm", W_OK) == 0 { return "/dev/shm" }
    if let t = getenv("TMPDIR"), !String(cString: t).isEmpty { return String(cString: t) }
    return "/tmp"
  }()

  /// Makes `relative` (and its missing parents) inside the folder.
  func makeFolder(_ relative: String) {
    var current = path
    for part in relative.split(separator: "/") {
      current += "/" + part
      if mkdir(current, 0o755) == 0 { created.append(current) }
    }
  }

  /// Writes `bytes` to `relative` (its folder made first); returns the full path.
  @discardableResult
  func write(_ bytes: UnsafeRawBufferPointer, to relative: String) -> String {
    if let slash = relative.lastIndex(of: "/") { makeFolder(String(relative[..<slash])) }
    let full = path + "/" + relative
    let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "mapsnap-fuzz: cannot write \(full)")
    var done = 0
    while done < bytes.count {
      let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
      precondition(n > 0, "mapsnap-fuzz: cannot write \(full)")
      done += n
    }
    close(fd)
    created.append(full)
    return full
  }

  @discardableResult
  func write(_ bytes: [UInt8], to relative: String) -> String {
    bytes.withUnsafeBytes { write($0, to: relative) }
  }

  /// Records a file that something else created inside the folder.
  func adopt(_ relative: String) { created.append(path + "/" + relative) }

  /// Removes everything written, then the folder.
  func remove() {
    for p in created.reversed() where unlink(p) != 0 { rmdir(p) }
    created = []
    rmdir(path)
  }
}
