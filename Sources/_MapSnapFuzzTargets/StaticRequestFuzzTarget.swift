import MapSnap
import _MapSnapServe

#if canImport(Glibc)
  import Glibc
#endif

/// `staticrequest`: bytes read as a request of `mapsnap serve`: a request
/// target (`/{name}/static/…?…`, `StaticURLParser`), or, when the input
/// starts with `POST `, the path up to the first newline and a JSON body
/// after it (`StaticBodyDecoder`); a request taken is answered by a
/// `StaticRenderer` over a scratch folder holding one small scene (`m`),
/// frames at most 64 pixels a side.
///
/// A refusal must be a `ServeError` whose status is one the server
/// documents for bad input (400, 404, 405, 413, 414, 422); never a 5xx.
public enum StaticRequestFuzzTarget {
  static let documented: Set<Int> = [400, 404, 405, 413, 414, 422]

  /// The scene: a polygon, a line and labelled points around (10, 50).
  static let scene = #"""
    {"version": 1, "map": {"center": [10, 50], "scale": 100000, "size": [64, 64]},
     "layers": [{"id": "shapes", "type": "features",
       "source": {"data": {"type": "FeatureCollection", "features": [
         {"type": "Feature", "properties": {"name": "A"}, "geometry": {"type": "Polygon", "coordinates": [[[9.9, 49.9], [10.1, 49.9], [10.1, 50.1], [9.9, 49.9]]]}},
         {"type": "Feature", "properties": {"name": "B"}, "geometry": {"type": "LineString", "coordinates": [[9.8, 50], [10.2, 50.05]]}},
         {"type": "Feature", "properties": {"name": "C"}, "geometry": {"type": "Point", "coordinates": [10, 50]}}]}},
       "style": {"fill": "#8ac", "stroke": "#246", "strokeWidth": 1, "marker": {"shape": "circle", "size": 6, "fill": "#c33"}}}]}
    """#

  static let renderer: StaticRenderer = {
    let folder = ScratchFolder("staticrequest")
    let bytes = Array(scene.utf8)
    bytes.withUnsafeBytes { _ = folder.write($0, to: "m.json") }
    var limits = ServeLimits()
    limits.maxSide = 64
    limits.maxOverlays = 32
    limits.maxURLBytes = 16_384
    limits.maxBodyBytes = 16_384
    // The folder is kept for the process: the renderer reads it on each request.
    return try! StaticRenderer(catalog: try! SceneCatalog(root: folder.path), limits: limits, cacheBytes: 1 << 20)
  }()

  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let bytes = Array(data)
    let r = renderer
    do throws(ServeError) {
      let request: StaticRequest
      if bytes.starts(with: Array("POST ".utf8)) {
        let newline = bytes.firstIndex(of: 10) ?? bytes.count
        let path = String(decoding: bytes[5..<newline], as: UTF8.self)
        let (name, product) = try StaticURLParser(limits: r.limits).postTarget(path: path)
        request = try StaticBodyDecoder(limits: r.limits).decode(Array(bytes[min(newline + 1, bytes.count)...]), scene: name, product: product)
      } else {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        request = try StaticURLParser(limits: r.limits).parse(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil)
      }
      let response = try r.respond(request)
      precondition(response.status == 200 && !response.body.isEmpty, "an answer of \(response.status) with \(response.body.count) bytes")
      return .accepted
    } catch {
      precondition(documented.contains(error.status), "a refusal with status \(error.status): \(error.message)")
      _ = error.json
      return .rejected
    }
  }
}
