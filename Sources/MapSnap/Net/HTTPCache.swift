import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The on-disk HTTP cache: one file per URL (or per URL and byte range),
/// named by the SHA-256 of that key, shared by every process that uses the
/// same folder (batch workers).
///
/// - Each entry is written to a temporary file and renamed over its name:
///   a reader sees the old entry or the new one, never a mix.
/// - Least recently used first out: a hit sets the file's modification time
///   to now, and eviction deletes the oldest files until the folder holds at
///   most 7/8 of the limit (the slack spares a scan per write).
/// - A process scans the folder (sizes and times) on its first write and
///   again after writing a sixteenth of the limit, or when its own count
///   says the limit is passed. With P processes writing at once, the folder
///   can so pass the limit by at most P sixteenths of it between scans.
/// - A failure to write is not the fetch's failure: the body is served, and
///   the next run fetches it again.
final class HTTPCache: Sendable {
  let folder: String
  let limitBytes: Int

  private struct Usage {
    /// Bytes in the folder at the last scan plus this process's writes since.
    var estimate: Int?
    var writtenSinceScan = 0
    /// Makes temporary names unique within the process.
    var counter = 0
  }
  private let usage = Mutex(Usage())

  /// Leftover temporary files (a process killed while writing) older than
  /// this are deleted by a scan; a write takes far less.
  static let staleTemporarySeconds = 600
  /// An entry over this share of the limit is not stored: it would evict
  /// most of the rest.
  static let largestShare = 4

  init(folder: String, limitBytes: Int) {
    self.folder = folder
    self.limitBytes = limitBytes
  }

  /// The file name of a URL's entry, or of one of its ranges.
  static func key(url: String, range: ClosedRange<UInt64>?) -> String {
    var hash = SHA256()
    hash.update(url)
    if let range { hash.update("\nbytes=\(range.lowerBound)-\(range.upperBound)") }
    return hash.hexDigest()
  }

  func path(_ key: String) -> String { folder + "/" + key + ".entry" }

  /// The entry for `url` (and `range`), marked as used now; nil when there
  /// is none (or the file is not a readable entry of that URL).
  func load(url: String, range: ClosedRange<UInt64>?) -> HTTPCacheEntry? {
    guard limitBytes > 0 else { return nil }
    let file = path(Self.key(url: url, range: range))
    guard let bytes = try? FileIO.read(file, maximumBytes: limitBytes), let entry = HTTPCacheEntry(decoding: bytes),
      entry.url == url, entry.range == range
    else { return nil }
    // Used now: the last to be evicted.
    _ = utimensat(AT_FDCWD, file, nil, 0)
    return entry
  }

  /// Stores `entry` (replacing any other of its key), then evicts when the
  /// folder may have passed the limit.
  func store(_ entry: HTTPCacheEntry) {
    guard limitBytes > 0, let bytes = entry.encoded, bytes.count <= limitBytes / Self.largestShare else { return }
    let file = path(Self.key(url: entry.url, range: entry.range))
    let n = usage.withLock { u -> Int in
      u.counter += 1
      return u.counter
    }
    let temporary = "\(file).\(getpid()).\(n).tmp"
    guard (try? FileIO.createParentDirectories(of: file)) != nil else { return }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return }
    let written = (try? FileIO.writeAll(fd: fd, bytes, path: temporary)) != nil
    close(fd)
    guard written, rename(temporary, file) == 0 else {
      unlink(temporary)
      return
    }
    let scan = usage.withLock { u -> Bool in
      u.writtenSinceScan += bytes.count
      if let e = u.estimate { u.estimate = e + bytes.count }
      return u.estimate.map { $0 > limitBytes } ?? true || u.writtenSinceScan > limitBytes / 16
    }
    if scan { evict() }
  }

  /// Scans the folder: deletes stale temporary files and, over the limit,
  /// the least recently used entries down to 7/8 of it.
  func evict() {
    struct File {
      var name: String
      var size: Int
      var used: timespec
    }
    var files: [File] = []
    var total = 0
    let now = Int(time(nil))
    for name in FileIO.listDirectory(folder) {
      var st = stat()
      let full = folder + "/" + name
      guard stat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
      if name.hasSuffix(".tmp") {
        if now - Int(st.st_mtim.tv_sec) > Self.staleTemporarySeconds { unlink(full) }
        continue
      }
      guard name.hasSuffix(".entry") else { continue }
      files.append(File(name: full, size: Int(st.st_size), used: st.st_mtim))
      total += Int(st.st_size)
    }
    if total > limitBytes {
      files.sort { ($0.used.tv_sec, $0.used.tv_nsec, $0.name) < ($1.used.tv_sec, $1.used.tv_nsec, $1.name) }
      let target = limitBytes / 8 * 7
      for f in files where total > target {
        if unlink(f.name) == 0 || errno == ENOENT { total -= f.size }
      }
    }
    usage.withLock { u in
      u.estimate = total
      u.writtenSinceScan = 0
    }
  }
}
