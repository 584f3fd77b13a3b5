import Foundation
import Synchronization
import Testing
import _MapSnapTestSupport

@testable import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP cache's rules without a server: the entry file, the response
/// headers it reads, least-recently-used eviction, and several writers
/// (batch workers) on one folder.
@Suite struct HTTPCacheTests {
  static func entry(_ url: String, bytes: Int, range: ClosedRange<UInt64>? = nil) -> HTTPCacheEntry {
    HTTPCacheEntry(
      url: url, range: range, status: range == nil ? 200 : 206, storedAt: 1_700_000_000, freshSeconds: 3600,
      etag: "\"abc-1\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT", contentType: "application/x-protobuf",
      totalSize: 9999, body: (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
  }

  @Test func entriesRoundTripAndRefuseDamage() throws {
    let e = Self.entry("https://tiles.example/a/1/2/3.pbf?key=x", bytes: 1000, range: 5...1004)
    let bytes = try #require(e.encoded)
    #expect(HTTPCacheEntry(decoding: bytes) == e)
    #expect(HTTPCacheEntry(decoding: Array(bytes.dropLast())) == nil, "a short body")
    #expect(HTTPCacheEntry(decoding: Array("mapsnap-http-cache 2\nurl x\n\n".utf8)) == nil, "another version")
    var odd = e
    odd.etag = "a\nb"
    #expect(odd.encoded == nil, "a value that cannot be one line")
    #expect(e.isFresh(at: 1_700_000_000 + 3599) && !e.isFresh(at: 1_700_000_000 + 3600))
    #expect(e.validatingHeaders == ["If-None-Match: \"abc-1\"", "If-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT"])
  }

  @Test func headersAsTheCacheReadsThem() {
    let h = HTTPHeaders(
      block: "HTTP/1.1 206 Partial Content\r\nCache-Control: public, max-age=\"600\"\r\nAge: 100\r\nETag: \"x\"\r\n"
        + "Content-Range: bytes 10-19/300000\r\ncache-control: immutable\r\n\r\n")
    #expect(h.freshSeconds == 500)
    #expect(h.etag == "\"x\"" && h.cacheControl["immutable"] == "")
    #expect(h.contentRange! == (10, 19, 300_000))
    #expect(!h.forbidsStoring)
    #expect(HTTPHeaders(block: "HTTP/1.1 200 OK\r\nCache-Control: no-cache, max-age=60\r\n").freshSeconds == 0)
    #expect(HTTPHeaders(block: "HTTP/1.1 200 OK\r\nCache-Control: private, no-store\r\n").forbidsStoring)
    #expect(HTTPHeaders(block: "HTTP/1.1 200 OK\r\nExpires: 0\r\n").freshSeconds == nil)
    #expect(HTTPHeaders(block: "HTTP/1.1 206 x\r\nContent-Range: bytes 0-9/*\r\n").contentRange! == (0, 9, nil))
  }

  @Test func keysSeparateURLsAndRanges() {
    let a = HTTPCache.key(url: "http://h/a", range: nil)
    #expect(a.count == 64)
    #expect(a != HTTPCache.key(url: "http://h/a", range: 0...9))
    #expect(HTTPCache.key(url: "http://h/a", range: 0...9) != HTTPCache.key(url: "http://h/a", range: 0...10))
  }

  @Test func theDefaultFolderFollowsXDG() {
    let xdg = ["XDG_CACHE_HOME": "/var/cache/u", "HOME": "/home/u"]
    #expect(HTTPFetcher.Options.defaultCacheFolder { xdg[$0] } == "/var/cache/u/mapsnap/http")
    #expect(HTTPFetcher.Options.defaultCacheFolder { ["HOME": "/home/u"][$0] } == "/home/u/.cache/mapsnap/http")
    #expect(HTTPFetcher.Options.defaultCacheFolder { _ in nil } == nil)
  }

  /// Over the limit, the least recently used entries go first, down to 7/8 of it.
  @Test func leastRecentlyUsedIsEvicted() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-http-cache")
    defer { folder.cleanUp() }
    let cache = HTTPCache(folder: folder.path, limitBytes: 40_000)
    for i in 0..<4 { cache.store(Self.entry("http://h/\(i)", bytes: 9000)) }
    // Ages: 0 the oldest… 3 the newest; then 0 is used.
    for i in 0..<4 { setModified(cache.path(HTTPCache.key(url: "http://h/\(i)", range: nil)), secondsAgo: 100 - i * 10) }
    #expect(cache.load(url: "http://h/0", range: nil) != nil)
    cache.store(Self.entry("http://h/4", bytes: 9000))
    #expect(cache.load(url: "http://h/1", range: nil) == nil, "the least recently used")
    #expect(cache.load(url: "http://h/2", range: nil) == nil, "down to 7/8 of the limit")
    for i in [0, 3, 4] { #expect(cache.load(url: "http://h/\(i)", range: nil) != nil, "\(i)") }
    #expect(folderBytes(folder.path) <= 35_000)
    // An entry over a quarter of the limit is not stored.
    cache.store(Self.entry("http://h/huge", bytes: 10_001))
    #expect(cache.load(url: "http://h/huge", range: nil) == nil)
    // A cache of 0 bytes stores nothing.
    let none = HTTPCache(folder: folder.path, limitBytes: 0)
    none.store(Self.entry("http://h/5", bytes: 10))
    #expect(none.load(url: "http://h/5", range: nil) == nil)
  }

  /// Several caches on one folder (batch workers), writing and reading the
  /// same keys at once: every read is a whole entry of its URL, and the
  /// folder ends within the limit plus one scan interval per writer.
  @Test func severalWritersOnOneFolder() throws {
    let folder = try TemporaryFolder(prefix: "mapsnap-http-cache")
    defer { folder.cleanUp() }
    let limit = 200_000
    let writers = 4
    let bad = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: writers) { w in
      let cache = HTTPCache(folder: folder.path, limitBytes: limit)
      for i in 0..<200 {
        let url = "http://h/\(i % 100)"
        cache.store(Self.entry(url, bytes: 2000 + (i * 37 + w) % 3000))
        if let got = cache.load(url: "http://h/\((i + 7) % 100)", range: nil) {
          if got.url != "http://h/\((i + 7) % 100)" || got.body.count < 2000 { bad.withLock { $0 += 1 } }
        }
      }
    }
    #expect(bad.withLock { $0 } == 0)
    #expect(!Files.list(folder.path).contains { $0.hasSuffix(".tmp") })
    #expect(folderBytes(folder.path) <= limit + writers * limit / 16)
  }

  func setModified(_ path: String, secondsAgo: Int) {
    var times = [timespec(tv_sec: time(nil) - secondsAgo, tv_nsec: 0), timespec(tv_sec: time(nil) - secondsAgo, tv_nsec: 0)]
    _ = utimensat(AT_FDCWD, path, &times, 0)
  }

  func folderBytes(_ path: String) -> Int {
    Files.list(path).reduce(0) { total, name in
      var st = stat()
      return total + (stat(path + "/" + name, &st) == 0 ? Int(st.st_size) : 0)
    }
  }
}
