/// One cached response: what to serve, when it stops being fresh, and the
/// validators that revalidate it. Stored as one file (`encoded`): a text
/// header of `name value` lines, a blank line, then the body, so that a
/// rename replaces header and body at once.
struct HTTPCacheEntry: Sendable, Equatable {
  /// The first line of every entry file; another version is not read.
  static let magic = "mapsnap-http-cache 1"

  var url: String
  /// The byte range of a range request's entry.
  var range: ClosedRange<UInt64>?
  /// 200 (a whole resource), 206 (a range), or 404/410 (kept so that an
  /// `--offline` run says what the last online run said).
  var status: Int
  /// When it was received, in seconds since 1970.
  var storedAt: Int64
  /// Fresh for this many seconds after `storedAt`; nil: stale at once.
  var freshSeconds: Int64?
  var etag: String?
  var lastModified: String?
  var contentType: String?
  /// The whole resource's size, from a 206's Content-Range.
  var totalSize: UInt64?
  var body: [UInt8]

  /// Whether it may be served without asking the server, at `now`.
  func isFresh(at now: Int64) -> Bool {
    guard let freshSeconds else { return false }
    return now >= storedAt && now - storedAt < freshSeconds
  }

  /// Whether the server can confirm it with a 304.
  var canRevalidate: Bool { etag != nil || lastModified != nil }

  /// The request headers of a revalidation.
  var validatingHeaders: [String] {
    var lines: [String] = []
    if let etag { lines.append("If-None-Match: " + etag) }
    if let lastModified { lines.append("If-Modified-Since: " + lastModified) }
    return lines
  }

  /// The file's bytes; nil when a field cannot be written on one line (a
  /// value with a line break is not stored).
  var encoded: [UInt8]? {
    var lines = [Self.magic, "url " + url]
    if let range { lines.append("range \(range.lowerBound)-\(range.upperBound)") }
    lines.append("status \(status)")
    lines.append("stored \(storedAt)")
    if let freshSeconds { lines.append("fresh \(freshSeconds)") }
    if let etag { lines.append("etag " + etag) }
    if let lastModified { lines.append("last-modified " + lastModified) }
    if let contentType { lines.append("content-type " + contentType) }
    if let totalSize { lines.append("total \(totalSize)") }
    lines.append("body \(body.count)")
    guard !lines.contains(where: { $0.contains("\n") || $0.contains("\r") }) else { return nil }
    var bytes = Array((lines.joined(separator: "\n") + "\n\n").utf8)
    bytes.append(contentsOf: body)
    return bytes
  }

  /// Reads an entry file; nil when it is not one (another version, cut
  /// short, or a body of another length than its header says).
  init?(decoding bytes: [UInt8]) {
    // The header ends at the first blank line.
    var end = -1
    var i = 0
    while i + 1 < bytes.count {
      if bytes[i] == 0x0A && bytes[i + 1] == 0x0A {
        end = i
        break
      }
      i += 1
    }
    guard end > 0 else { return nil }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Self.magic[...] else { return nil }
    var fields: [Substring: Substring] = [:]
    for line in lines.dropFirst() {
      guard let space = line.firstIndex(of: " ") else { return nil }
      fields[line[..<space]] = line[line.index(after: space)...]
    }
    let bodyStart = end + 2
    guard let url = fields["url"], let status = fields["status"].flatMap({ Int($0) }),
      let stored = fields["stored"].flatMap({ Int64($0) }), let length = fields["body"].flatMap({ Int($0) }),
      length == bytes.count - bodyStart
    else { return nil }
    self.url = String(url)
    self.status = status
    self.storedAt = stored
    if let r = fields["range"] {
      let ends = r.split(separator: "-")
      guard ends.count == 2, let a = UInt64(ends[0]), let b = UInt64(ends[1]), a <= b else { return nil }
      range = a...b
    }
    freshSeconds = fields["fresh"].flatMap { Int64($0) }
    etag = fields["etag"].map(String.init)
    lastModified = fields["last-modified"].map(String.init)
    contentType = fields["content-type"].map(String.init)
    totalSize = fields["total"].flatMap { UInt64($0) }
    body = Array(bytes[bodyStart...])
  }

  init(
    url: String, range: ClosedRange<UInt64>?, status: Int, storedAt: Int64, freshSeconds: Int64?, etag: String?,
    lastModified: String?, contentType: String?, totalSize: UInt64?, body: [UInt8]
  ) {
    self.url = url
    self.range = range
    self.status = status
    self.storedAt = storedAt
    self.freshSeconds = freshSeconds
    self.etag = etag
    self.lastModified = lastModified
    self.contentType = contentType
    self.totalSize = totalSize
    self.body = body
  }
}
