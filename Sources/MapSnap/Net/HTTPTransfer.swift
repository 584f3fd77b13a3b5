import Synchronization
internal import _NetShims

#if canImport(Glibc)
  import Glibc
#endif

/// One HTTP exchange through libcurl (`_NetShims`), without following a
/// redirect: the fetcher follows them itself, to detect loops.
struct HTTPTransfer {
  struct Request {
    var url: String
    /// Extra header lines ("Range: bytes=0-99", "If-None-Match: \"x\"").
    var headers: [String] = []
    /// Offer gzip/deflate and deliver the decoded body; false for ranges.
    var decodeContent = true
    var connectTimeout: Double
    var timeout: Double
    var maxBodyBytes: Int
    var userAgent: String
  }

  /// What came back; `failure` is a MAPSNAP_HTTP_* code.
  struct Result {
    var failure: Int32
    var status: Int
    var connected: Bool
    var body: [UInt8]
    var headers: HTTPHeaders
    /// The absolute Location of a 3xx.
    var redirectURL: String?
    var message: String
  }

  /// Performs `request` on a connection cache from `pool`.
  static func perform(_ request: Request, pool: HTTPHandlePool) -> Result {
    let handle = pool.take()
    defer { pool.give(handle) }
    var response = mapsnap_http_response()
    defer { mapsnap_http_response_free(&response) }
    let lines = request.headers.map { strdup($0) }
    defer { lines.forEach { free($0) } }
    let failure: Int32 = request.url.withCString { url in
      request.userAgent.withCString { agent in
        lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
          var r = mapsnap_http_request()
          r.url = url
          r.user_agent = agent
          r.headers = headers.baseAddress
          r.header_count = Int32(headers.count)
          r.decode_content = request.decodeContent ? 1 : 0
          r.connect_timeout_ms = Self.milliseconds(request.connectTimeout)
          r.timeout_ms = Self.milliseconds(request.timeout)
          r.max_body_bytes = Int64(request.maxBodyBytes)
          return mapsnap_http_perform(handle?.pointer, &r, &response)
        }
      }
    }
    let body = response.body_length > 0 ? Array(UnsafeBufferPointer(start: response.body, count: response.body_length)) : []
    let headerText = response.headers.map { String(cString: $0) } ?? ""
    let location = Self.string(&response.redirect_url)
    return Result(
      failure: failure, status: Int(response.status), connected: response.connected != 0, body: body,
      headers: HTTPHeaders(block: headerText), redirectURL: location.isEmpty ? nil : location,
      message: Self.string(&response.message))
  }

  /// libcurl's limits are whole milliseconds, at least 1 (0 would mean none).
  static func milliseconds(_ seconds: Double) -> Int {
    max(1, Int((seconds * 1000).rounded(.up).clamped(to: 1...Double(Int32.max))))
  }

  private static func string<T>(_ field: inout T) -> String {
    withUnsafeBytes(of: &field) { raw in
      let chars = raw.bindMemory(to: UInt8.self)
      let end = chars.firstIndex(of: 0) ?? chars.count
      return String(decoding: chars[..<end], as: UTF8.self)
    }
  }
}

extension Double {
  fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}

/// libcurl easy handles kept between requests (each holds keep-alive
/// connections and a DNS cache), at most `idleLimit` idle; one request uses
/// one handle, so several threads fetch at once.
final class HTTPHandlePool: Sendable {
  /// A handle: used by one thread at a time (taken from the pool).
  struct Handle: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }

  /// Idle handles kept: one per drawing thread of a busy frame is plenty.
  static let idleLimit = 8
  private let idle = Mutex<[Handle]>([])

  init() {}

  deinit {
    idle.withLock { handles in
      for h in handles { mapsnap_http_handle_free(h.pointer) }
      handles.removeAll()
    }
  }

  /// An idle handle, or a new one; nil when libcurl cannot be loaded.
  func take() -> Handle? {
    if let h = idle.withLock({ $0.popLast() }) { return h }
    return mapsnap_http_handle_new().map { Handle(pointer: $0) }
  }

  /// Returns a handle to the pool (freed when the pool is full).
  func give(_ handle: Handle?) {
    guard let handle else { return }
    let kept = idle.withLock { handles -> Bool in
      guard handles.count < Self.idleLimit else { return false }
      handles.append(handle)
      return true
    }
    if !kept { mapsnap_http_handle_free(handle.pointer) }
  }
}
