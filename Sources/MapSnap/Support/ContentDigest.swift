import Synchronization

/// The digest of a source's content as a frame's `InputDigest` names it
/// (`sha256:` and 64 hexadecimal digits, or the text of its load error),
/// either known already or still to be hashed from bytes kept for it.
///
/// Why deferred: an `ogr` read's digest covers every feature it returned
/// (`FeatureDigest`), and hashing them while reading put about 0.5 ms of a
/// Helsinki GeoPackage frame on its critical path, both threads busy
/// reading. Kept instead, the bytes are hashed while the frame's text is
/// placed, when a worker is free (`FramePlan.make` hands them to the one
/// that builds the display list's geometry), or by the first to ask for the
/// value; a frame whose digest nobody asks for (a library user's snapshot)
/// never hashes them. The value is the same either way: the same bytes, in
/// the same order, through one `SHA256`.
final class ContentDigest: Sendable, Equatable {
  private let state: Mutex<State>

  /// Bytes not hashed yet, in the order gathered, and the hash of those
  /// before them.
  struct Pending: @unchecked Sendable {
    var sha: SHA256
    var chunks: [UnsafeMutableRawBufferPointer]
    /// Bytes used in the last chunk (the others are full).
    var lastUsed: Int
  }

  private enum State: @unchecked Sendable {
    case known(String)
    case pending(Pending)
  }

  /// A digest already known.
  init(_ value: String) { state = Mutex(.known(value)) }

  /// A digest of `pending`'s hash state extended by its chunks, which this
  /// object now owns (and frees once hashed).
  init(pending: Pending) {
    state = Mutex(pending.chunks.isEmpty ? .known("sha256:" + pending.sha.hexDigest()) : .pending(pending))
  }

  deinit {
    state.withLock { s in
      if case .pending(let p) = s { for c in p.chunks { c.deallocate() } }
    }
  }

  /// The empty digest of inline data, which the scene holds.
  static let none = ContentDigest("")

  /// True while bytes wait to be hashed.
  var isPending: Bool {
    state.withLock { s in
      if case .pending = s { return true }
      return false
    }
  }

  /// The digest, hashing the kept bytes first if no one has yet (a thread
  /// that asks meanwhile waits for that hash rather than doing it again).
  var value: String {
    state.withLock { s in
      switch s {
      case .known(let v): return v
      case .pending(var p):
        for (i, c) in p.chunks.enumerated() {
          let n = i == p.chunks.count - 1 ? p.lastUsed : c.count
          p.sha.update(UnsafeBufferPointer(start: c.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
          c.deallocate()
        }
        let v = "sha256:" + p.sha.hexDigest()
        s = .known(v)
        return v
      }
    }
  }

  /// Equal values: digests are compared by what they say, however kept.
  static func == (a: ContentDigest, b: ContentDigest) -> Bool { a === b || a.value == b.value }
}
