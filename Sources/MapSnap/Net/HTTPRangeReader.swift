import Synchronization
internal import _MapSnapStyle

/// A remote PMTiles archive read by HTTP range requests through an
/// `HTTPFetcher` (`pmtiles://https://…`). The archive must not change while
/// it is read: every range's ETag must be the first one's, or the read is
/// an error (a new version's tiles under an old version's directories would
/// be garbage).
package struct HTTPRangeReader: RangeReader {
  package let url: String
  let fetcher: HTTPFetcher
  /// The first response's ETag and the archive's size.
  private let seen: Seen

  private final class Seen: Sendable {
    let state = Mutex<(etag: String?, size: UInt64?, read: Bool)>((nil, nil, false))
  }

  package init(url: String, fetcher: HTTPFetcher) {
    self.url = url
    self.fetcher = fetcher
    seen = Seen()
  }

  /// The archive's size, once a read has said it.
  package var size: UInt64? { seen.state.withLock { $0.size } }

  package func read(offset: UInt64, length: Int) throws -> [UInt8] {
    let response = try fetcher.rangeResponse(url, offset: offset, length: length)
    let url = self.url
    try seen.state.withLock { (s: inout (etag: String?, size: UInt64?, read: Bool)) throws(HTTPError) in
      if s.read, let first = s.etag, let now = response.etag, first != now {
        throw .badResponse(url: url, reason: "the archive changed while it was read (ETag \(first), then \(now)); run again")
      }
      if !s.read {
        s = (response.etag, response.totalSize, true)
      } else if s.size == nil {
        s.size = response.totalSize
      }
    }
    return response.body
  }
}
