import Synchronization
internal import _NetShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The HTTP(S) client of style resources (styles, TileJSON, tiles, GeoJSON,
/// sprites, remote PMTiles by range): libcurl opened on the first request,
/// an on-disk cache shared between processes (`HTTPCache`), and a log of
/// every URL asked for. Safe to share across threads.
///
/// The rules, in order, for each URL (and each range of one):
/// 1. Only http and https (redirects included); anything else is refused.
/// 2. A cached copy that is fresh (`Cache-Control: max-age` not passed) is
///    served without a request. Under `offline`, any cached copy is served,
///    fresh or not, and a URL without one is refused before any connection.
/// 3. A stale copy with a validator is revalidated (`If-None-Match` with
///    its ETag, `If-Modified-Since` with its Last-Modified); a 304 serves it
///    and renews its freshness.
/// 4. Otherwise the URL is fetched: redirects followed up to
///    `maxRedirects` (a URL met twice on the way is a loop), the connection
///    and the whole exchange bounded in time, the body in size, gzip and
///    deflate offered and decoded (not for ranges).
/// 5. A 200 (206 for a range), and a 404 or 410, are stored unless the
///    response says `no-store`; a cached 404 is the same error as a fetched one.
package final class HTTPFetcher: Sendable {
  package let options: Options
  let cache: HTTPCache?
  let handles = HTTPHandlePool()
  private let log = Mutex<[FetchRecord]>([])

  /// A whole body taken in place of a range (a server that ignores Range
  /// and answers 200) when it is at most this large: a small archive is
  /// then read whole once, and its ranges come from the copy.
  package static let wholeBodyForRangeBytes = 1 << 20

  package init(options: Options = Options()) {
    self.options = options
    let folder = options.cacheFolder ?? Options.defaultCacheFolder()
    cache = folder.flatMap { options.cacheLimitBytes > 0 ? HTTPCache(folder: $0, limitBytes: options.cacheLimitBytes) : nil }
  }

  /// A fetcher with the default options (online, the default cache folder).
  package static let shared = HTTPFetcher()

  /// Every request so far, in the order they ended.
  package var records: [FetchRecord] { log.withLock { $0 } }

  /// The requests so far, and an empty log after them (a frame's share).
  package func drainRecords() -> [FetchRecord] {
    log.withLock { records in
      defer { records.removeAll() }
      return records
    }
  }

  /// The body of `url`, from the cache or the network (the rules above).
  /// Any status but 200 is an error (`.status`), a redirect's target's
  /// included.
  package func get(_ url: String) throws(HTTPError) -> HTTPResponse {
    try logged(url, range: nil) { () throws(HTTPError) in try self.fetch(url, range: nil) }
  }

  /// Runs `body`, adding its record to the log.
  func logged(_ url: String, range: ClosedRange<UInt64>?, _ body: () throws(HTTPError) -> HTTPResponse) throws(HTTPError)
    -> HTTPResponse
  {
    let start = ContinuousClock.now
    var record = FetchRecord(url: url, range: range, origin: nil, status: 0, bytes: 0, milliseconds: 0, error: nil)
    defer {
      let elapsed = ContinuousClock.now - start
      record.milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
      let done = record
      log.withLock { $0.append(done) }
    }
    do {
      let response = try body()
      record.origin = response.origin
      record.status = response.status
      record.bytes = response.body.count
      return response
    } catch {
      record.error = error.description
      if case .status(_, let code) = error { record.status = code }
      throw error
    }
  }

  /// The rules above for `url`, or one range of it (a 206 required).
  func fetch(_ url: String, range: ClosedRange<UInt64>?) throws(HTTPError) -> HTTPResponse {
    guard Self.isHTTP(url) else { throw .unsupportedScheme(url: url) }
    let now = Int64(time(nil))
    let cached = cache?.load(url: url, range: range)
    if let cached {
      if options.offline { return try served(cached, origin: .offlineCache) }
      if cached.isFresh(at: now) { return try served(cached, origin: .cache) }
    } else if options.offline {
      throw .offline(url: url)
    }
    var headers: [String] = []
    if let range { headers.append("Range: bytes=\(range.lowerBound)-\(range.upperBound)") }
    if let cached, cached.canRevalidate { headers += cached.validatingHeaders }
    // A range's body is at most its length, and no range is longer than
    // `maxBodyBytes`; up to `wholeBodyForRangeBytes` is taken in place of it.
    let limit =
      range.map { max(min(Int(clamping: $0.upperBound - $0.lowerBound + 1), options.maxBodyBytes), Self.wholeBodyForRangeBytes) }
      ?? options.maxBodyBytes
    let result = try exchange(url, headers: headers, decodeContent: range == nil, maxBodyBytes: limit) { status throws(HTTPError) in
      if range != nil && status == 200 { throw .rangeIgnored(url: url, limit: Self.wholeBodyForRangeBytes) }
      throw .tooLarge(url: url, limit: limit)
    }
    let fresh = result.headers.freshSeconds
    if result.status == 304 {
      guard var renewed = cached else { throw .badResponse(url: url, reason: "304 Not Modified to a request that asked for no revalidation") }
      renewed.storedAt = now
      renewed.freshSeconds = fresh ?? renewed.freshSeconds
      renewed.etag = result.headers.etag ?? renewed.etag
      renewed.lastModified = result.headers.lastModified ?? renewed.lastModified
      if !result.headers.forbidsStoring { cache?.store(renewed) }
      return try served(renewed, origin: .revalidated)
    }
    var entry = HTTPCacheEntry(
      url: url, range: nil, status: result.status, storedAt: now, freshSeconds: fresh, etag: result.headers.etag,
      lastModified: result.headers.lastModified, contentType: result.headers["content-type"], totalSize: nil,
      body: result.body)
    switch result.status {
    case 200:
      entry.totalSize = UInt64(result.body.count)
    case 206 where range != nil:
      entry.range = try Self.checkedRange(result, asked: range!, url: url)
      entry.totalSize = result.headers.contentRange?.total
    case 404, 410:
      entry.body = []
    default:
      throw .status(url: url, code: result.status)
    }
    if !result.headers.forbidsStoring { cache?.store(entry) }
    return try served(entry, origin: .network)
  }

  /// An entry as a response; a stored 404 or 410 as its error.
  func served(_ entry: HTTPCacheEntry, origin: FetchRecord.Origin) throws(HTTPError) -> HTTPResponse {
    guard entry.status == 200 || entry.status == 206 else { throw .status(url: entry.url, code: entry.status) }
    return HTTPResponse(
      url: entry.url, status: entry.status, body: entry.body, contentType: entry.contentType, etag: entry.etag,
      totalSize: entry.totalSize, origin: origin)
  }

  /// The range a 206 holds: it must start where asked and end within the
  /// asked range, its body as long as it says.
  static func checkedRange(_ result: HTTPTransfer.Result, asked: ClosedRange<UInt64>, url: String) throws(HTTPError)
    -> ClosedRange<UInt64>
  {
    guard let got = result.headers.contentRange else {
      throw .badResponse(url: url, reason: "206 Partial Content without a single byte range (Content-Range)")
    }
    guard got.first == asked.lowerBound, got.last <= asked.upperBound, UInt64(result.body.count) == got.last - got.first + 1
    else {
      throw .badResponse(
        url: url,
        reason: "asked for bytes \(asked.lowerBound)-\(asked.upperBound), got \(got.first)-\(got.last) in \(result.body.count) bytes")
    }
    return asked
  }

  /// One request with its redirects followed, within one time bound; 3xx
  /// other than 304 never returns. `tooLarge` builds the error of a body
  /// past the limit from the status it came with.
  func exchange(
    _ url: String, headers: [String], decodeContent: Bool, maxBodyBytes: Int,
    tooLarge: (Int) throws(HTTPError) -> Never
  ) throws(HTTPError) -> HTTPTransfer.Result {
    let start = ContinuousClock.now
    var visited = [url]
    while true {
      let spent = ContinuousClock.now - start
      let remaining = options.timeout - (Double(spent.components.seconds) + Double(spent.components.attoseconds) / 1e18)
      guard remaining > 0 else { throw .timeout(url: url, seconds: options.timeout, connecting: false) }
      let request = HTTPTransfer.Request(
        url: visited.last!, headers: headers, decodeContent: decodeContent,
        connectTimeout: min(options.connectTimeout, remaining), timeout: remaining, maxBodyBytes: maxBodyBytes,
        userAgent: options.userAgent)
      let result = HTTPTransfer.perform(request, pool: handles)
      let via = visited.count > 1 ? " (redirected to \(visited.last!))" : ""
      switch result.failure {
      case Int32(MAPSNAP_HTTP_OK): break
      case Int32(MAPSNAP_HTTP_TIMEOUT):
        throw .timeout(url: url, seconds: result.connected ? options.timeout : options.connectTimeout, connecting: !result.connected)
      case Int32(MAPSNAP_HTTP_TOO_LARGE): try tooLarge(result.status)
      case Int32(MAPSNAP_HTTP_UNSUPPORTED): throw .unsupportedScheme(url: visited.last!)
      case Int32(MAPSNAP_HTTP_UNAVAILABLE): throw .unavailable(reason: result.message)
      default: throw .connection(url: url, reason: result.message + via)
      }
      guard (300...399).contains(result.status), result.status != 304 else { return result }
      guard let next = result.redirectURL else { throw .status(url: url, code: result.status) }
      guard Self.isHTTP(next) else { throw .unsupportedScheme(url: next) }
      if visited.contains(next) { throw .redirectLoop(url: url, chain: visited + [next]) }
      guard visited.count <= options.maxRedirects else { throw .tooManyRedirects(url: url, count: options.maxRedirects) }
      visited.append(next)
    }
  }

  /// Whether `url` is http:// or https:// (any case).
  static func isHTTP(_ url: String) -> Bool {
    let lower = url.prefix(8).lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
  }
}
