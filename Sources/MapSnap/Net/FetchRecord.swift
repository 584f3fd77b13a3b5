/// One resource asked of `HTTPFetcher`: what the report lists as "URLs
/// fetched or served from the cache".
package struct FetchRecord: Sendable, Equatable {
  /// Where a body came from.
  package enum Origin: String, Sendable, Equatable {
    /// Fetched: the cache held no usable copy.
    case network
    /// Served from the cache while fresh, without a request.
    case cache
    /// Served from the cache after the server confirmed it (304).
    case revalidated
    /// Served from the cache under `--offline`, fresh or not.
    case offlineCache = "offline-cache"
  }

  package var url: String
  /// The byte range asked for, for a range request.
  package var range: ClosedRange<UInt64>?
  /// nil when the request failed before a body was had.
  package var origin: Origin?
  /// The final status (0 when no answer came).
  package var status: Int
  /// Body bytes delivered.
  package var bytes: Int
  /// Wall time of the call, cache look-up included.
  package var milliseconds: Double
  /// The error's message, for a failed request.
  package var error: String?
}
