import Foundation
import Testing
import _MapSnapStyle
import _MapSnapTestSupport

@testable import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP client against a real nginx on 127.0.0.1 (one server per test,
/// scripts/nginx-test-server.sh; Debian's nginx, installed by `make setup`),
/// the cache in the server's temporary folder. Whether a request reached
/// the server is read from nginx's access log.
@Suite final class HTTPFetcherTests {
  static let hello = Array("hello\n".utf8)
  /// 300,000 deterministic bytes: ranges, the size limit.
  static let archive: [UInt8] = {
    var rng = SplitMix64(seed: 39)
    return (0..<300_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
  }()
  /// 1 MB that gzip shrinks to about 1 KB.
  static let compressible = Array(String(repeating: "{\"type\":\"Feature\"}\n", count: 52_632).utf8)

  let server: HTTPTestServer

  init() throws {
    server = try HTTPTestServer(files: [
      "plain/hello.txt": Self.hello,
      "cached/tile.pbf": Array(Self.archive[0..<5000]),
      "cached/archive.pmtiles": Self.archive,
      "nostore/style.json": Array("{\"version\":8}".utf8),
      "data/archive.pmtiles": Self.archive,
      "norange/small.pmtiles": Array(Self.archive[0..<20_000]),
      "norange/big.pmtiles": Self.archive + Self.archive + Self.archive + Self.archive,
      "gzip/big.geojson": Self.compressible,
    ])
  }

  deinit { server.stop() }

  func fetcher(offline: Bool = false, maxBodyBytes: Int = HTTPFetcher.Options.defaultMaxBodyBytes) -> HTTPFetcher {
    HTTPFetcher(options: .init(offline: offline, cacheFolder: server.cache, maxBodyBytes: maxBodyBytes))
  }

  /// A GET: the body, from the network; the second is revalidated with the
  /// ETag nginx gave (no max-age) and served from the cache on its 304.
  @Test func getThenRevalidateWithTheETag() throws {
    let f = fetcher()
    let first = try f.get(server.url("/plain/hello.txt"))
    #expect(first.body == Self.hello)
    #expect(first.status == 200 && first.origin == .network && first.contentType == "text/plain")
    #expect(first.etag != nil)
    let second = try f.get(server.url("/plain/hello.txt"))
    #expect(second.body == Self.hello && second.origin == .revalidated)
    let log = server.requests("/plain/hello.txt")
    #expect(log.count == 2 && log[1].contains(" 304 "), "\(log)")
    #expect(f.records.map(\.origin) == [.network, .revalidated])
    #expect(f.records.allSatisfy { $0.status == 200 && $0.bytes == 6 && $0.error == nil })
  }

  /// `Cache-Control: max-age` (nginx `expires 1h`): the second GET makes no request.
  @Test func aFreshCopyIsServedWithoutARequest() throws {
    let f = fetcher()
    let url = server.url("/cached/tile.pbf")
    #expect(try f.get(url).origin == .network)
    let again = try f.get(url)
    #expect(again.origin == .cache && again.body == Array(Self.archive[0..<5000]))
    #expect(server.requests("/cached/tile.pbf").count == 1)
    // Another fetcher (another process) on the same folder too.
    #expect(try fetcher().get(url).origin == .cache)
    #expect(server.requests("/cached/tile.pbf").count == 1)
  }

  @Test func noStoreIsNotKept() throws {
    let url = server.url("/nostore/style.json")
    #expect(try fetcher().get(url).origin == .network)
    #expect(try fetcher().get(url).origin == .network)
    #expect(server.requests("/nostore/style.json").count == 2)
    #expect(throws: HTTPError.offline(url: url)) { try self.fetcher(offline: true).get(url) }
  }

  /// A 404 is an error naming the URL and the status; it is cached, so
  /// that --offline says the same.
  @Test func notFound() throws {
    let url = server.url("/plain/missing.pbf")
    let error = #expect(throws: HTTPError.self) { try self.fetcher().get(url) }
    #expect(error == .status(url: url, code: 404))
    #expect(error?.description == "\"\(url)\": HTTP 404 Not Found")
    #expect(throws: HTTPError.status(url: url, code: 404)) { try self.fetcher(offline: true).get(url) }
    #expect(server.requests("/plain/missing.pbf").count == 1)
  }

  @Test func redirectsAreFollowed() throws {
    let f = fetcher()
    let response = try f.get(server.url("/redirect"))
    #expect(response.body == Self.hello && response.url == server.url("/redirect"))
    #expect(server.requests("/redirect").count == 1 && server.requests("/plain/hello.txt").count == 1)
  }

  /// nginx `return 302 /loop`: a clear error after one request, not five.
  @Test func aRedirectLoopIsAnError() throws {
    let url = server.url("/loop")
    let error = #expect(throws: HTTPError.self) { try self.fetcher().get(url) }
    #expect(error == .redirectLoop(url: url, chain: [url, url]))
    #expect(error?.description == "\"\(url)\": redirect loop: \"\(url)\" → \"\(url)\"")
    #expect(server.requests("/loop").count == 1)
  }

  @Test func tooManyRedirects() throws {
    let url = server.url("/hop/a")
    let error = #expect(throws: HTTPError.self) { try self.fetcher().get(url) }
    #expect(error == .tooManyRedirects(url: url, count: 5))
    #expect(error?.description.contains("more than 5 redirects") == true)
    #expect(server.requests("/hop/aaaaaa").count == 1 && server.requests("/hop/aaaaaaa").isEmpty)
  }

  @Test func aRedirectToAnotherSchemeIsRefused() throws {
    #expect(throws: HTTPError.unsupportedScheme(url: "ftp://127.0.0.1/file")) { try self.fetcher().get(self.server.url("/to-ftp")) }
    #expect(throws: HTTPError.unsupportedScheme(url: "ftp://127.0.0.1/file")) { try self.fetcher().get("ftp://127.0.0.1/file") }
  }

  /// Ranges: 206 with the asked bytes, fewer at the end, cached per range
  /// (revalidated without max-age; served without a request with it).
  @Test func rangeRequests() throws {
    let f = fetcher()
    let url = server.url("/data/archive.pmtiles")
    #expect(try f.getRange(url, offset: 0, length: 16384) == Array(Self.archive[0..<16384]))
    #expect(try f.getRange(url, offset: 123_456, length: 1000) == Array(Self.archive[123_456..<124_456]))
    #expect(try f.getRange(url, offset: 299_000, length: 5000) == Array(Self.archive[299_000...]))
    #expect(try f.getRange(url, offset: 0, length: 16384) == Array(Self.archive[0..<16384]))
    let log = server.requests("/data/archive.pmtiles")
    #expect(log.count == 4 && log.prefix(3).allSatisfy { $0.contains(" 206 ") } && log[3].contains(" 304 "), "\(log)")
    #expect(f.records.last?.origin == .revalidated && f.records.last?.range == 0...16383)
    #expect(throws: HTTPError.status(url: url, code: 416)) { try f.getRange(url, offset: 400_000, length: 10) }

    let cached = server.url("/cached/archive.pmtiles")
    for _ in 0..<3 { #expect(try f.getRange(cached, offset: 1000, length: 100) == Array(Self.archive[1000..<1100])) }
    #expect(server.requests("/cached/archive.pmtiles").count == 1)
  }

  /// The PMTiles range reader: the same bytes as the archive in memory, its size from Content-Range.
  @Test func theRangeReaderOfRemoteArchives() throws {
    let reader = HTTPRangeReader(url: server.url("/data/archive.pmtiles"), fetcher: fetcher())
    let memory = MemoryRangeReader(bytes: Self.archive)
    #expect(reader.size == nil)
    for (offset, length) in [(0, 127), (16_384, 70_000), (299_990, 100)] as [(UInt64, Int)] {
      #expect(try reader.read(offset: offset, length: length) == memory.read(offset: offset, length: length))
    }
    #expect(reader.size == 300_000)
  }

  /// A server that ignores Range (nginx `max_ranges 0`): a small resource
  /// is taken whole once and its ranges come from that copy; a large one
  /// is an error saying so, the transfer stopped early.
  @Test func aServerIgnoringRanges() throws {
    let f = fetcher()
    let small = server.url("/norange/small.pmtiles")
    #expect(try f.getRange(small, offset: 100, length: 50) == Array(Self.archive[100..<150]))
    #expect(server.requests("/norange/small.pmtiles").count == 1)
    let big = server.url("/norange/big.pmtiles")
    let error = #expect(throws: HTTPError.self) { try f.getRange(big, offset: 0, length: 100) }
    #expect(error == .rangeIgnored(url: big, limit: HTTPFetcher.wholeBodyForRangeBytes))
    #expect(error?.description.contains("does not serve HTTP ranges") == true)
  }

  /// The limit refuses a body without reading it all: by its
  /// Content-Length, and (gzip, chunked, no length) as the decoded bytes pass it.
  @Test func theSizeLimit() throws {
    let f = fetcher(maxBodyBytes: 100_000)
    let url = server.url("/data/archive.pmtiles")
    #expect(throws: HTTPError.tooLarge(url: url, limit: 100_000)) { try f.get(url) }
    let gz = server.url("/gzip/big.geojson")
    #expect(throws: HTTPError.tooLarge(url: gz, limit: 100_000)) { try f.get(gz) }
    #expect(f.records.allSatisfy { $0.origin == nil && $0.error?.contains("limit") == true })
  }

  /// gzip Content-Encoding is offered, and the body delivered decoded.
  @Test func gzipIsDecoded() throws {
    let response = try fetcher().get(server.url("/gzip/big.geojson"))
    #expect(response.body == Self.compressible)
    let log = server.requests("/gzip/big.geojson")
    let sent = log.first.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
    #expect(sent > 0 && sent < 100_000, "\(log)")
  }

  /// --offline serves whatever the cache holds, fresh or stale, without a
  /// request, and refuses the rest before any connection.
  @Test func offlineServesTheCacheAndRefusesTheRest() throws {
    let online = fetcher()
    _ = try online.get(server.url("/plain/hello.txt"))
    _ = try online.getRange(server.url("/data/archive.pmtiles"), offset: 10, length: 10)
    let offline = fetcher(offline: true)
    #expect(try offline.get(server.url("/plain/hello.txt")).origin == .offlineCache)
    #expect(try offline.getRange(server.url("/data/archive.pmtiles"), offset: 10, length: 10) == Array(Self.archive[10..<20]))
    let other = server.url("/cached/tile.pbf")
    let error = #expect(throws: HTTPError.self) { try offline.get(other) }
    #expect(error == .offline(url: other))
    #expect(error?.description.contains("refused by --offline") == true)
    #expect(throws: HTTPError.offline(url: server.url("/data/archive.pmtiles"))) {
      try offline.getRange(self.server.url("/data/archive.pmtiles"), offset: 20, length: 10)
    }
    #expect(server.requests("/plain/hello.txt").count == 1 && server.requests("/cached/tile.pbf").isEmpty)
    #expect(server.requests("/data/archive.pmtiles").count == 1)
  }

  /// A listening socket that never answers: a timeout within the bound.
  @Test func aServerThatNeverAnswersTimesOut() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #expect(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
        bind(fd, p, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, p, &length) == 0
      }
    }
    #expect(bound)
    let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/never"
    let f = HTTPFetcher(options: .init(cacheFolder: server.cache, connectTimeout: 1, timeout: 1.5))
    let start = ContinuousClock.now
    let error = #expect(throws: HTTPError.self) { try f.get(url) }
    let elapsed = ContinuousClock.now - start
    #expect(error == .timeout(url: url, seconds: 1.5, connecting: false))
    #expect(error?.description == "\"\(url)\": no complete answer within 1.5 s (timed out; is the server up?)")
    #expect(elapsed < .seconds(3) && elapsed >= .seconds(1.4), "\(elapsed)")
  }

  /// A port nothing listens on: a connection error with libcurl's reason.
  @Test func aClosedPortIsAConnectionError() throws {
    server.stop()
    let url = server.url("/plain/hello.txt")
    let error = #expect(throws: HTTPError.self) { try self.fetcher().get(url) }
    guard case .connection(let u, let reason) = error else {
      Issue.record("not a connection error: \(String(describing: error))")
      return
    }
    #expect(u == url && reason.contains("onnect"), "\(reason)")
  }
}
