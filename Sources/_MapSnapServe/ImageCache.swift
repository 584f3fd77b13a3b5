import Synchronization

/// Encoded responses kept by their ETag, the least recently used dropped
/// first once their bytes pass `capacity`. A response is a pure function of
/// its ETag (the frame's input digest with the format), so a hit is the
/// same bytes as a render. A capacity of 0 keeps nothing.
public final class ImageCache: Sendable {
  public let capacity: Int
  private struct Entry {
    var bytes: [UInt8]
    var contentType: String
    var stamp: UInt64
  }
  private struct State {
    var entries: [String: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }
  private let state = Mutex(State())

  public init(capacity: Int) { self.capacity = max(0, capacity) }

  /// The bytes and content type kept for `key`, marked as used.
  public func get(_ key: String) -> (bytes: [UInt8], contentType: String)? {
    state.withLock { s in
      guard var e = s.entries[key] else { return nil }
      s.clock += 1
      e.stamp = s.clock
      s.entries[key] = e
      return (e.bytes, e.contentType)
    }
  }

  /// Keeps `bytes` for `key`, dropping the least recently used entries over
  /// `capacity`. A response larger than an eighth of the capacity is not
  /// kept: it would push out many others.
  public func put(_ key: String, bytes: [UInt8], contentType: String) {
    guard bytes.count <= capacity / 8 else { return }
    state.withLock { s in
      s.clock += 1
      if let old = s.entries.updateValue(Entry(bytes: bytes, contentType: contentType, stamp: s.clock), forKey: key) {
        s.bytes -= old.bytes.count
      }
      s.bytes += bytes.count
      while s.bytes > capacity, let oldest = s.entries.min(by: { $0.value.stamp < $1.value.stamp }) {
        s.bytes -= oldest.value.bytes.count
        s.entries[oldest.key] = nil
      }
    }
  }

  /// The bytes and entries kept now.
  public var usage: (bytes: Int, entries: Int) { state.withLock { ($0.bytes, $0.entries.count) } }
}
