import _MapSnapJSON

/// Why an http(s) resource could not be had. Every message starts with the
/// URL, says what happened, and ends with what to do when there is a
/// remedy (one message builder: `description`).
package enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `--offline`, and the cache holds no copy of the URL (or of the range).
  case offline(url: String)
  /// No answer within the bound: the connection (`connecting` true) or the
  /// whole exchange, redirects included.
  case timeout(url: String, seconds: Double, connecting: Bool)
  /// More redirects than `Options.maxRedirects`.
  case tooManyRedirects(url: String, count: Int)
  /// A redirect back to a URL already visited on the way: `chain` is the
  /// way, from the first URL to the repeated one.
  case redirectLoop(url: String, chain: [String])
  /// The server answered with an error status (4xx, 5xx), or a 3xx without
  /// a Location.
  case status(url: String, code: Int)
  /// The body passed the limit; the transfer stopped there.
  case tooLarge(url: String, limit: Int)
  /// Name resolution, connection, TLS or the exchange failed (libcurl's
  /// reason).
  case connection(url: String, reason: String)
  /// Not http or https (a redirect to another scheme included).
  case unsupportedScheme(url: String)
  /// A range request answered with the whole resource (200, not 206), too
  /// large to take whole: the server does not serve ranges.
  case rangeIgnored(url: String, limit: Int)
  /// An answer that contradicts the request (a 206 for another range, a
  /// resource that changed between two ranges).
  case badResponse(url: String, reason: String)
  /// libcurl could not be loaded.
  case unavailable(reason: String)

  /// The URL concerned ("" for `unavailable`).
  package var url: String {
    switch self {
    case .offline(let u), .timeout(let u, _, _), .tooManyRedirects(let u, _), .redirectLoop(let u, _), .status(let u, _),
      .tooLarge(let u, _), .connection(let u, _), .unsupportedScheme(let u), .rangeIgnored(let u, _), .badResponse(let u, _):
      return u
    case .unavailable: return ""
    }
  }

  package var description: String {
    let at = Echo.quoted(url)
    switch self {
    case .offline:
      return "\(at): refused by --offline (not in the HTTP cache; run once without --offline to cache it)"
    case .timeout(_, let seconds, let connecting):
      let what = connecting ? "no connection" : "no complete answer"
      return "\(at): \(what) within \(number(seconds, digits: 2) + " s") (timed out; is the server up?)"
    case .tooManyRedirects(_, let count):
      return "\(at): more than \(count) redirects (give the final URL)"
    case .redirectLoop(_, let chain):
      return "\(at): redirect loop: \(chain.map { Echo.quoted($0) }.joined(separator: " → "))"
    case .status(_, let code):
      return "\(at): HTTP \(code) \(Self.reason(code))"
    case .tooLarge(_, let limit):
      return "\(at): larger than the \(Self.bytes(limit)) limit for one response (refused without reading the rest)"
    case .connection(_, let reason):
      return "\(at): \(Echo.escaped(reason, limit: 300))"
    case .unsupportedScheme:
      return "\(at): only http:// and https:// URLs are fetched"
    case .rangeIgnored(_, let limit):
      return "\(at): the server ignored the range request (200 with the whole resource, over \(Self.bytes(limit))): "
        + "it does not serve HTTP ranges, which a remote PMTiles archive needs; download the archive and give its path"
    case .badResponse(_, let reason):
      return "\(at): \(reason)"
    case .unavailable(let reason):
      return reason
    }
  }

  /// A byte count as the options give it: whole MiB or KiB when it is one.
  static func bytes(_ n: Int) -> String {
    if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
    if n >= 1 << 10 && n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
    return "\(n) B"
  }

  /// The standard reason phrase of the statuses a resource server sends.
  static func reason(_ code: Int) -> String {
    switch code {
    case 300...399: return "(a redirect without a Location)"
    case 400: return "Bad Request"
    case 401: return "Unauthorized (the server wants credentials)"
    case 403: return "Forbidden (a key or token missing from the URL?)"
    case 404: return "Not Found"
    case 410: return "Gone"
    case 416: return "Range Not Satisfiable (past the end of the resource)"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return code >= 500 ? "(server error)" : "(client error)"
    }
  }
}
