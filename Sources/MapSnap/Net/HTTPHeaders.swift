/// The header fields of one HTTP response, as the cache and the range
/// reader need them: names compared without case, a repeated field's
/// values joined by commas (RFC 9110 5.3).
struct HTTPHeaders: Sendable, Equatable {
  /// Lower-cased name → value, in the order first seen.
  private(set) var fields: [(name: String, value: String)] = []

  init() {}

  /// Parses libcurl's header lines of one response (status line first,
  /// "\r\n" line ends); obsolete line folding continues the previous value.
  init(block: String) {
    for raw in block.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
      if line.isEmpty || line.hasPrefix("HTTP/") { continue }
      if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
        fields[fields.count - 1].value += " " + Self.trimmed(line)
        continue
      }
      guard let colon = line.firstIndex(of: ":") else { continue }
      add(String(line[..<colon]), Self.trimmed(line[line.index(after: colon)...]))
    }
  }

  /// Adds a field (joined to an earlier one of the same name).
  mutating func add(_ name: String, _ value: String) {
    let key = name.lowercased()
    if let i = fields.firstIndex(where: { $0.name == key }) {
      fields[i].value += ", " + value
    } else {
      fields.append((key, value))
    }
  }

  /// The value of `name` (any case), or nil.
  subscript(_ name: String) -> String? {
    let key = name.lowercased()
    return fields.first { $0.name == key }?.value
  }

  static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
    a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
  }

  private static func trimmed(_ s: Substring) -> String {
    String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }

  // MARK: - Caching (RFC 9111)

  /// Cache-Control's directives, lower-cased, with their values (quotes removed).
  var cacheControl: [String: String] {
    guard let value = self["cache-control"] else { return [:] }
    var directives: [String: String] = [:]
    for part in value.split(separator: ",") {
      let item = Self.trimmed(part[...])
      if let eq = item.firstIndex(of: "=") {
        var v = Self.trimmed(item[item.index(after: eq)...][...])
        if v.hasPrefix("\"") && v.hasSuffix("\"") && v.count >= 2 { v = String(v.dropFirst().dropLast()) }
        directives[item[..<eq].lowercased()] = v
      } else if !item.isEmpty {
        directives[item.lowercased()] = ""
      }
    }
    return directives
  }

  /// `no-store`: the response must not be kept.
  var forbidsStoring: Bool { cacheControl["no-store"] != nil }

  /// How long the response is fresh from the moment it was received: its
  /// `max-age` less its `Age`; nil without `max-age` (then it is stale at
  /// once and used again only after revalidation, or by `--offline`);
  /// 0 with `no-cache`, which asks for a revalidation every time.
  /// `Expires` is not read (servers that send it send `max-age` too, and
  /// `max-age` wins where both are given), nor is a heuristic freshness
  /// guessed from `Last-Modified`: an entry without `max-age` is
  /// revalidated each time, so the bytes are always the server's.
  var freshSeconds: Int64? {
    let directives = cacheControl
    if directives["no-cache"] != nil { return 0 }
    guard let text = directives["max-age"], let maxAge = Int64(text), maxAge >= 0 else { return nil }
    let age = self["age"].flatMap { Int64($0) } ?? 0
    return max(0, maxAge - max(0, age))
  }

  /// The validators a revalidation sends back.
  var etag: String? { self["etag"] }
  var lastModified: String? { self["last-modified"] }

  // MARK: - Ranges (RFC 9110 14.4)

  /// Content-Range `bytes FIRST-LAST/TOTAL` (TOTAL may be `*`).
  var contentRange: (first: UInt64, last: UInt64, total: UInt64?)? {
    guard let value = self["content-range"], value.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = value.dropFirst(6)
    let halves = spec.split(separator: "/", maxSplits: 1)
    guard halves.count == 2 else { return nil }
    let ends = halves[0].split(separator: "-", maxSplits: 1)
    guard ends.count == 2, let first = UInt64(ends[0]), let last = UInt64(ends[1]), first <= last else { return nil }
    return (first, last, UInt64(halves[1]))
  }
}
