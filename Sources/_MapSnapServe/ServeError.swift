public import MapSnap

/// Why a request gets no image: the HTTP status, the part of the request at
/// fault (a URL segment, an overlay, a query parameter or a JSON path), what
/// was expected there and what was found, and a hint. Errors are data; the
/// response body is built once, by `json`.
///
/// The statuses, as docs/serve.md lists them: 400 a request that does not
/// follow the grammar, 404 a scene that is not served, 405 a method the
/// path does not take, 413 a body, image or overlay list over its limit,
/// 414 a URL over its limit, 422 a well-formed request for a frame that
/// cannot be drawn (the scene's own error, a refused feature), 503 a full
/// queue, a request that waited past its time budget, or a server shutting
/// down. Bad input never gives a 5xx other than 503.
public struct ServeError: Error, Sendable, Equatable {
  /// The HTTP status code.
  public var status: Int
  /// The request part at fault, as the request wrote it (nil: the request as a whole).
  public var part: String?
  /// What went wrong.
  public var message: String
  /// What to do about it.
  public var hint: String?
  /// Seconds after which a client may try again (503), for `Retry-After`.
  public var retryAfter: Int?

  public init(status: Int, part: String? = nil, message: String, hint: String? = nil, retryAfter: Int? = nil) {
    (self.status, self.part, self.message, self.hint, self.retryAfter) = (status, part, message, hint, retryAfter)
  }

  /// 400: `part` does not follow the grammar: `expected` there.
  public static func badRequest(_ part: String, expected: String, hint: String? = nil) -> ServeError {
    ServeError(status: 400, part: part, message: "expected \(expected), found \(Echo.quoted(part))", hint: hint)
  }

  /// 422: the request is well formed but asks for something not drawn.
  public static func unprocessable(_ part: String?, _ message: String, hint: String? = nil) -> ServeError {
    ServeError(status: 422, part: part, message: message, hint: hint)
  }

  /// 413: `what` is over its limit.
  public static func tooLarge(_ what: String, limit: String, hint: String? = nil) -> ServeError {
    ServeError(status: 413, part: nil, message: "\(what) is over the limit of \(limit)", hint: hint)
  }

  /// 503: the render queue is full or the server is stopping.
  public static func unavailable(_ message: String, retryAfter: Int = 1) -> ServeError {
    ServeError(status: 503, message: message, hint: "try again later", retryAfter: retryAfter)
  }

  /// 422 (or 404, 413) for a frame the library refused: the scene's own
  /// message, with its file and JSON path.
  public static func scene(_ error: SceneError) -> ServeError {
    switch error.kind {
    case .imageTooLarge:
      return ServeError(status: 413, part: error.path.isEmpty ? nil : error.path, message: error.description, hint: error.hint)
    default:
      return ServeError(status: 422, part: error.path.isEmpty ? nil : error.path, message: error.description)
    }
  }

  /// The reason phrase of `status`.
  public var reason: String {
    switch status {
    case 400: return "Bad Request"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 413: return "Content Too Large"
    case 414: return "URI Too Long"
    case 422: return "Unprocessable Content"
    case 503: return "Service Unavailable"
    default: return "Error"
    }
  }

  /// The response body: `{"error": {"status", "reason", "message", "part", "hint"}}`
  /// (`part` and `hint` only when known).
  public var json: JSONValue {
    var e: JSONObject = ["status": .number(Double(status)), "reason": .string(reason), "message": .string(message)]
    if let part { e["part"] = .string(part) }
    if let hint { e["hint"] = .string(hint) }
    return .object(["error": .object(e)])
  }
}
