import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// `digest`: an entry of the digest cache (`DigestStore`), read as the next
/// process reads it: the input is written as the entry of a file, and
/// `DigestStore.digest(of:identity:)` asked for that file's digest. Every
/// `@ID@` in the input is replaced by the file's real identity first, so
/// that mutations reach past the identity test. Accepted when a digest is
/// taken (it must be 64 lowercase hexadecimal digits), rejected otherwise.
public enum DigestFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("digest")
    defer { folder.remove() }
    let file = folder.write([UInt8](), to: "face.ttf")
    var st = stat()
    guard stat(file, &st) == 0 else { return .rejected }
    let identity = DigestStore.Identity(st)
    let store = DigestStore(directory: folder.path + "/cache")
    let entry = String(decoding: data, as: UTF8.self).replacingAll("@ID@", with: identity.line)
    let relative = String(store.entryPath(file).dropFirst(folder.path.count + 1))
    folder.write(Array(entry.utf8), to: relative)
    guard let digest = store.digest(of: file, identity: identity) else { return .rejected }
    precondition(digest.utf8.count == 64 && digest.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, "a digest taken that is not 64 hexadecimal digits: \(digest)")
    return .accepted
  }
}

extension String {
  /// Every `target` replaced by `replacement`, left to right.
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var out = ""
    var rest = self[...]
    while let r = rest.firstRange(of: target) {
      out += rest[..<r.lowerBound]
      out += replacement
      rest = rest[r.upperBound...]
    }
    return out + rest
  }
}
