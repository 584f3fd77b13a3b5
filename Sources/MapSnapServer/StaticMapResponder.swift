import HTTPTypes
import Hummingbird
import MapSnap
import NIOCore
import _MapSnapServe

/// Answers every request of `mapsnap serve`: the static map API
/// (`StaticURLParser`, `StaticBodyDecoder`) through the render queue, and
/// the server's own pages: `/` (the preview page), `/scenes` (what is
/// served, as JSON), `/health` and `/metrics`. Every error is JSON
/// (`ServeError.json`); a 5xx other than 503 would be a bug, so any error
/// that escapes the handlers is logged and answered as a 500 naming it.
struct StaticMapResponder: HTTPResponder {
  typealias Context = BasicRequestContext
  let renderer: StaticRenderer
  let queue: RenderQueue
  let metrics: ServerMetrics
  let settings: ServerSettings

  func respond(to request: Request, context: Context) async throws -> Response {
    let start = ContinuousClock.now
    var response: Response
    do {
      response = try await route(request, context: context)
    } catch let error as ServeError {
      response = Self.error(error)
    } catch let error as Hummingbird.HTTPError where error.status == .contentTooLarge {
      response = Self.error(.tooLarge("the request body", limit: "\(settings.limits.maxBodyBytes) bytes"))
    } catch is NIOTooManyBytesError {
      response = Self.error(.tooLarge("the request body", limit: "\(settings.limits.maxBodyBytes) bytes"))
    } catch {
      context.logger.error("mapsnap-server: unexpected error: \(error)")
      response = Self.error(ServeError(status: 500, message: "internal error: \(error)"))
    }
    if request.method == .head { response.body = ResponseBody() }
    let elapsed = ContinuousClock.now - start
    metrics.record(status: response.status.code, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    return response
  }

  func route(_ request: Request, context: Context) async throws -> Response {
    let path = request.uri.path
    switch (request.method, path) {
    case (.get, "/"), (.head, "/"):
      return Self.bytes(Array(PreviewPage.html.utf8), type: "text/html; charset=utf-8", cacheControl: "no-cache")
    case (.get, "/health"), (.head, "/health"):
      let (queued, running) = queue.depth
      let draining = queue.isDraining
      let body: JSONValue = [
        "status": .string(draining ? "draining" : "ok"), "queued": .number(Double(queued)), "running": .number(Double(running)),
        "workers": .number(Double(queue.workers)), "capacity": .number(Double(queue.capacity)),
      ]
      var r = Self.bytes(JSONWriter().writeBytes(body), type: "application/json", cacheControl: "no-store")
      if draining { r.status = .serviceUnavailable }
      return r
    case (.get, "/metrics"):
      let text = metrics.text(queue: queue.depth, cache: renderer.cache.usage)
      return Self.bytes(text, type: "text/plain; version=0.0.4; charset=utf-8", cacheControl: "no-store")
    case (.get, "/scenes"), (.head, "/scenes"):
      let list: [JSONValue] = renderer.catalog.entries.map { e in
        var o: JSONObject = ["name": .string(e.name), "kind": .string(e.isStyle ? "style" : "scene")]
        if let v = e.view {
          o["center"] = [.number(v.lon), .number(v.lat)]
          if let z = v.zoom { o["zoom"] = .number(z) }
          if let s = v.scale { o["scale"] = .number(s) }
        }
        return .object(o)
      }
      return Self.bytes(JSONWriter().writeBytes(["scenes": .array(list)]), type: "application/json", cacheControl: "no-cache")
    default:
      break
    }
    let staticRequest: StaticRequest
    switch request.method {
    case .get, .head:
      staticRequest = try settings.parser.parse(path: path, query: request.uri.query)
    case .post:
      let (name, product) = try settings.parser.postTarget(path: path)
      let buffer = try await request.body.collect(upTo: settings.limits.maxBodyBytes)
      staticRequest = try StaticBodyDecoder(limits: settings.limits).decode(Array(buffer.readableBytesView), scene: name, product: product)
    default:
      var r = Self.error(ServeError(status: 405, message: "\(request.method.rawValue) is not served", hint: "use GET, HEAD, or POST /{name}/static"))
      r.headers[.allow] = "GET, HEAD, POST"
      return r
    }
    let ifNoneMatch = request.headers[.ifNoneMatch]
    let renderer = self.renderer
    let result = await queue.run { () -> Result<StaticRenderer.Response, ServeError> in
      do throws(ServeError) { return .success(try renderer.respond(staticRequest, ifNoneMatch: ifNoneMatch)) } catch { return .failure(error) }
    }
    let answer = try result.get()
    if answer.status == 200 { answer.cached ? metrics.cacheHits.increment() : metrics.cacheMisses.increment() }
    var headers = HTTPFields()
    headers[.eTag] = answer.etag
    headers[.cacheControl] = settings.cacheControl
    if !answer.warnings.isEmpty { headers[HTTPField.Name("X-Mapsnap-Warnings")!] = String(answer.warnings.count) }
    if answer.status == 304 { return Response(status: .notModified, headers: headers) }
    headers[.contentType] = answer.contentType
    headers[.contentLength] = String(answer.body.count)
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
  }

  static func bytes(_ body: [UInt8], type: String, cacheControl: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = type
    headers[.cacheControl] = cacheControl
    headers[.contentLength] = String(body.count)
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }

  /// An error's response: its JSON, never cached, with `Retry-After` on a 503.
  static func error(_ e: ServeError) -> Response {
    var r = bytes(JSONWriter().writeBytes(e.json), type: "application/json", cacheControl: "no-store")
    r.status = HTTPResponse.Status(code: e.status, reasonPhrase: e.reason)
    if let after = e.retryAfter { r.headers[.retryAfter] = String(after) }
    return r
  }
}

/// What the server was told on its command line, shared by every request.
struct ServerSettings: Sendable {
  var limits: ServeLimits
  var cacheControl: String
  var parser: StaticURLParser { StaticURLParser(limits: limits) }
}
