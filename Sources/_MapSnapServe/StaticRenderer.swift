public import MapSnap

/// Answers static map requests: the one sequence of a request (scene →
/// overlays → view → plan → digest → 304, cache or draw → encode), on the
/// calling thread. What requests share (parsed scenes, sources and their
/// indexes, tiles, icons, fonts) stays warm in the `RenderSession`; encoded
/// responses in the `ImageCache`. The HTTP server calls `respond` from its
/// render queue; tests call it directly.
public final class StaticRenderer: Sendable {
  public let catalog: SceneCatalog
  public let session: RenderSession
  public let cache: ImageCache
  public let limits: ServeLimits

  /// A request's answer.
  public struct Response: Sendable {
    /// 200, or 304 when `If-None-Match` held the ETag.
    public var status: Int
    public var contentType: String
    /// Empty for a 304.
    public var body: [UInt8]
    /// The quoted entity tag: the frame's input digest with the format and product.
    public var etag: String
    /// Whether the body came from the cache.
    public var cached: Bool
    /// The frame's warnings (layers not loaded, characters no font has).
    public var warnings: [String]
  }

  /// The logical pixels `auto` leaves around the overlays unless `padding`
  /// is given: room for a large pin (20 px) above its point.
  public static let autoPadding = 24.0
  /// The MapLibre zoom `auto` shows a single point at (a street and its
  /// neighbours), as a map app centres on one place.
  public static let autoPointZoom = 15.0

  /// A renderer of the scenes of `catalog`: everything is read through the
  /// session's confinement to the catalog's folder.
  public init(catalog: SceneCatalog, limits: ServeLimits = ServeLimits(), cacheBytes: Int, fontDirectories: [String] = []) throws {
    self.catalog = catalog
    self.limits = limits
    var options = RenderSession.Options()
    options.root = try Confinement(root: catalog.root)
    options.confinesScenes = true
    session = try RenderSession(options: options, fonts: .pooled(directories: fontDirectories))
    cache = ImageCache(capacity: cacheBytes)
  }

  /// The answer to `request`; `ifNoneMatch` is the request's `If-None-Match`.
  /// - Throws: `ServeError` for a request that gives no image (404, 413, 422).
  public func respond(_ request: StaticRequest, ifNoneMatch: String? = nil) throws(ServeError) -> Response {
    let entry = try catalog.entry(request.scene)
    let plan = try self.plan(request, entry: entry)
    let warnings = RenderSession.warnings(of: plan)
    let digest = session.digest(of: plan, encoding: ImageEncoder.pngOptions(request.format), report: request.product == .image ? nil : .full)
    let tag = "\"" + String(SHA256.hex(of: Array("\(digest) \(request.product.rawValue) \(request.format.rawValue)".utf8)).prefix(32)) + "\""
    if let ifNoneMatch, Self.matches(ifNoneMatch, tag) {
      return Response(status: 304, contentType: "", body: [], etag: tag, cached: false, warnings: warnings)
    }
    if let hit = cache.get(tag) {
      return Response(status: 200, contentType: hit.contentType, body: hit.bytes, etag: tag, cached: true, warnings: warnings)
    }
    let body: [UInt8]
    let type: String
    switch request.product {
    case .image:
      body = try ImageEncoder.encode(plan, format: request.format, inputDigest: digest)
      type = request.format.contentType
    case .report:
      body = JSONWriter().writeBytes(plan.report(detail: .full))
      type = "application/json"
    case .explain:
      let lines = Explanation(plan: plan).text.split(separator: "\n", omittingEmptySubsequences: false).map { JSONValue.string(String($0)) }
      body = JSONWriter().writeBytes(["scene": .string(request.scene), "explanation": .array(lines)])
      type = "application/json"
    }
    cache.put(tag, bytes: body, contentType: type)
    return Response(status: 200, contentType: type, body: body, etag: tag, cached: false, warnings: warnings)
  }

  /// Whether an `If-None-Match` value names `tag` (or is `*`); weak tags
  /// (`W/"…"`) compare by their value, as RFC 9110 says for this header.
  static func matches(_ header: String, _ tag: String) -> Bool {
    header.split(separator: ",").contains { t in
      var t = t.trimmingPrefix(" ")
      while t.last == " " { t = t.dropLast() }
      if t.hasPrefix("W/") { t = t.dropFirst(2) }
      return t == "*" || t == tag
    }
  }

  // MARK: - the frame

  /// The frame's plan: the scene with the request's view and overlays.
  func plan(_ request: StaticRequest, entry: SceneCatalog.Entry) throws(ServeError) -> FramePlan {
    switch (request.view, request.padding) {
    case (.center, .some), (.scale, .some):
      throw .unprocessable("padding", "padding applies to a frame fitted to bounds or auto", hint: "drop padding, or give [w,s,e,n] or auto")
    default: break
    }
    var overrides = ViewOverrides()
    overrides.size = (request.width, request.height)
    overrides.pixelRatio = request.retina ? 2 : nil
    switch request.view {
    case .center(let lon, let lat, let zoom, let bearing):
      if bearing != 0 {
        guard entry.isStyle else {
          throw .unprocessable(
            "bearing", "a bearing of \(bearing == bearing.rounded() ? String(Int(bearing)) : String(bearing)) degrees: \(Echo.quoted(request.scene)) is a scene, and scenes are drawn north up",
            hint: "give a bearing of 0 (or none), or ask a MapLibre style")
        }
        overrides.bearing = bearing
      }
      overrides.center = (lon, lat)
      // The URL's zoom is MapLibre's (512-px tiles); the scene format's is one more.
      overrides.zoom = entry.isStyle ? zoom : zoom + 1
    case .scale(let lon, let lat, let scale):
      overrides.center = (lon, lat)
      overrides.scale = scale
    case .bounds(let b):
      overrides.bounds = b
      overrides.padding = request.padding
    case .auto:
      guard let box = Self.extent(of: request.overlays) else {
        throw .unprocessable("auto", "auto fits the overlays, and this request has none with coordinates", hint: "add an overlay, or give {lon},{lat},{zoom}")
      }
      if box.west == box.east && box.south == box.north {
        overrides.center = (box.west, box.south)
        overrides.zoom = entry.isStyle ? Self.autoPointZoom : Self.autoPointZoom + 1
      } else {
        overrides.bounds = box
        overrides.padding = request.padding ?? Padding(Self.autoPadding)
      }
    }
    let decoder = OverlayDecoder(file: "request", baseDirectory: catalog.root)
    var overlays: [Overlay] = []
    for (i, json) in request.overlays.enumerated() {
      let part = i < request.overlayParts.count ? request.overlayParts[i] : "overlay \(i + 1)"
      do throws(SceneError) {
        overlays.append(try decoder.decode(json, at: "overlays[\(i)]"))
      } catch {
        throw ServeError(status: 400, part: part, message: error.message, hint: error.hint)
      }
    }
    do throws(SceneError) {
      return try session.plan(scene: entry.path, overrides: overrides, overlays: overlays, threads: 1)
    } catch {
      throw .scene(error)
    }
  }

  /// The box in degrees around every coordinate of the overlays (markers
  /// and inline GeoJSON), nil when they have none.
  static func extent(of overlays: [JSONValue]) -> MapBounds? {
    var box: MapBounds? = nil
    func add(_ lon: Double, _ lat: Double) {
      guard abs(lon) <= 180, abs(lat) <= 90 else { return }
      if var b = box {
        (b.west, b.east, b.south, b.north) = (min(b.west, lon), max(b.east, lon), min(b.south, lat), max(b.north, lat))
        box = b
      } else {
        box = MapBounds(west: lon, south: lat, east: lon, north: lat)
      }
    }
    func walk(_ v: JSONValue, depth: Int) {
      guard depth < 64, case .array(let a) = v else { return }
      if a.count >= 2, case .number(let x) = a[0], case .number(let y) = a[1] {
        add(x, y)
      } else {
        for x in a { walk(x, depth: depth + 1) }
      }
    }
    func geometry(_ v: JSONValue, depth: Int) {
      guard depth < 64, case .object(let o) = v else { return }
      if let c = o["coordinates"] { walk(c, depth: 0) }
      if case .array(let gs)? = o["geometries"] { for g in gs { geometry(g, depth: depth + 1) } }
      if let g = o["geometry"] { geometry(g, depth: depth + 1) }
      if case .array(let fs)? = o["features"] { for f in fs { geometry(f, depth: depth + 1) } }
    }
    for o in overlays {
      guard case .object(let obj) = o else { continue }
      if let m = obj["marker"] { walk(m, depth: 0) }
      if let g = obj["geojson"] { geometry(g, depth: 0) }
    }
    return box
  }
}
