/// A resource as `HTTPFetcher` delivers it: the body of a successful
/// response (after content decoding), from the network or the cache.
package struct HTTPResponse: Sendable, Equatable {
  /// The URL asked for (the cache's key), not the one redirects ended at.
  package var url: String
  /// The status of the response the body is from (200, or 206 for a range).
  package var status: Int
  package var body: [UInt8]
  /// The response's `Content-Type`, when it gave one.
  package var contentType: String?
  /// The validator the server gave (an archive read by ranges checks that it
  /// does not change between reads).
  package var etag: String?
  /// The whole resource's size: the body's for a 200, Content-Range's
  /// total for a 206 (nil when the server gave `*`).
  package var totalSize: UInt64?
  /// Where the body came from.
  package var origin: FetchRecord.Origin
}
