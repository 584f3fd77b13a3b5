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

  /// Bytes gathered in order and not hashed yet, in chunks of
  /// `chunkBytes`, and the hash of those before them. A reader appends to
  /// it (`FeatureDigest`) and hands it over (`init(pending:)`); whoever
  /// owns it frees its chunks (`deallocate`).
  struct Pending: @unchecked Sendable {
    private var sha = SHA256()
    /// Every chunk is full but the last.
    private(set) var chunks: [UnsafeMutableRawBufferPointer] = []
    /// Bytes used in the last chunk.
    private var used = 0

    /// Large enough that hashing runs over whole runs of blocks, and a
    /// Helsinki layer's read fills a few dozen.
    static let chunkBytes = 64 * 1024
    /// The bytes kept unhashed at most (16 MiB, a read of some 100,000
    /// features of a city's data): past it, `append` hashes the gathered
    /// chunks and gathers on in the first.
    static let keptLimit = 16 << 20

    /// Copies `piece` after the bytes gathered, into new chunks as needed.
    mutating func append(_ piece: UnsafeRawBufferPointer) {
      guard var base = piece.baseAddress, !piece.isEmpty else { return }
      var left = piece.count
      while left > 0 {
        if chunks.isEmpty || used == Self.chunkBytes { nextChunk() }
        let n = min(left, Self.chunkBytes - used)
        (chunks[chunks.count - 1].baseAddress! + used).copyMemory(from: base, byteCount: n)
        used += n
        base += n
        left -= n
      }
    }

    /// A value's bytes as they lie in memory (callers pass little-endian).
    mutating func append<T: FixedWidthInteger>(_ value: T) {
      guard !chunks.isEmpty, MemoryLayout<T>.size <= Self.chunkBytes - used else {
        withUnsafeBytes(of: value) { append($0) }
        return
      }
      chunks[chunks.count - 1].storeBytes(of: value, toByteOffset: used, as: T.self)
      used += MemoryLayout<T>.size
    }

    /// A chunk to gather into after the full last one: a new one, or, with
    /// `keptLimit` bytes kept, the first after every kept one is hashed.
    private mutating func nextChunk() {
      if chunks.count * Self.chunkBytes >= Self.keptLimit {
        hashChunks(keepingFirst: true)
      } else {
        chunks.append(.allocate(byteCount: Self.chunkBytes, alignment: 8))
      }
      used = 0
    }

    /// Hashes the gathered bytes and frees their chunks (but the first,
    /// emptied, when it is to be gathered in again).
    private mutating func hashChunks(keepingFirst: Bool) {
      for (i, c) in chunks.enumerated() {
        let n = i == chunks.count - 1 ? used : c.count
        sha.update(UnsafeBufferPointer(start: c.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
        if i > 0 || !keepingFirst { c.deallocate() }
      }
      chunks.removeLast(keepingFirst && !chunks.isEmpty ? chunks.count - 1 : chunks.count)
      used = 0
    }

    /// The digest of everything appended; the chunks are freed.
    mutating func finish() -> String {
      hashChunks(keepingFirst: false)
      return "sha256:" + sha.hexDigest()
    }

    /// Frees the chunks unhashed, for an owner that goes.
    func deallocate() {
      for c in chunks { c.deallocate() }
    }
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
    var p = pending
    state = Mutex(p.chunks.isEmpty ? .known(p.finish()) : .pending(p))
  }

  deinit {
    state.withLock { s in
      if case .pending(let p) = s { p.deallocate() }
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
        let v = p.finish()
        s = .known(v)
        return v
      }
    }
  }

  /// Equal values: digests are compared by what they say, however kept.
  static func == (a: ContentDigest, b: ContentDigest) -> Bool { a === b || a.value == b.value }
}
