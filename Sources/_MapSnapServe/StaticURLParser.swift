public import MapSnap

/// Reads a request URL of the static map API into a `StaticRequest`.
///
/// The path grammar is the Mapbox Static Images API's, with mapsnap's own
/// forms beside it (docs/serve.md):
///
///     /styles/v1/{user}/{name}/static/[{overlay}/]{view}/{w}x{h}[@2x][.png|.jpg|.webp]
///     /{name}/static/[{overlay}/]{view}/{size}
///     /{name}/scale/{lon},{lat},{scale}/{size}
///     /{name}/report/{tail}    /{name}/explain/{tail}
///
/// where `{view}` is `{lon},{lat},{zoom}[,{bearing}[,{pitch}]]`,
/// `[{w},{s},{e},{n}]` or `auto`, and a report's or explanation's `{tail}`
/// is what follows the name in an image URL (`static/…` or `scale/…`; a
/// bare static tail too). `{user}` is accepted and ignored. Each segment is
/// percent-decoded on its own, so an encoded `/` stays inside its segment.
public struct StaticURLParser: Sendable {
  public var limits: ServeLimits
  public init(limits: ServeLimits = ServeLimits()) { self.limits = limits }

  /// Query parameters read; any other is refused (400, with the nearest
  /// name) unless it starts with `_`, which the server leaves to caches and
  /// clients (cache busters).
  static let parameters = ["padding", "attribution", "logo", "access_token", "format"]
  /// Mapbox parameters that change the style, which scenes do not take.
  static let refusedParameters = ["before_layer", "addlayer", "setfilter", "layer_id"]

  /// The request for `path` (as sent: percent-encoded) and `query` (the text
  /// after `?`, nil when none).
  public func parse(path: String, query: String?) throws(ServeError) -> StaticRequest {
    if path.utf8.count + (query?.utf8.count ?? 0) > limits.maxURLBytes {
      throw ServeError(
        status: 414, message: "the URL is over the limit of \(limits.maxURLBytes) bytes",
        hint: "send long overlays as a JSON body: POST /{name}/static")
    }
    var raw = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    if raw.last == "" { raw = raw.dropLast() }
    var segments: [String] = []
    for s in raw {
      guard let decoded = Self.percentDecoded(s) else {
        throw .badRequest(String(s), expected: "a path segment in UTF-8 whose % escapes are two hexadecimal digits")
      }
      segments.append(decoded)
    }
    // /styles/v1/{user}/{name}/static/… is /{name}/static/…
    if segments.count >= 5, segments[0] == "styles", segments[1] == "v1", segments[4] == "static" {
      segments.removeFirst(3)
    }
    guard segments.count >= 2 else { throw Self.noEndpoint(path) }
    let name = segments[0]
    try SceneCatalog.checkName(name)
    var product = StaticRequest.Product.image
    var tail = Array(segments.dropFirst())
    if let p = StaticRequest.Product(rawValue: tail[0]), p != .image {
      product = p
      tail.removeFirst()
      if tail.first != "static" && tail.first != "scale" { tail.insert("static", at: 0) }
    }
    var request: StaticRequest
    switch tail.first {
    case "static" where tail.count == 3 || tail.count == 4:
      let (w, h, retina, suffix) = try size(tail[tail.count - 1])
      let view = try self.view(tail[tail.count - 2])
      var parsed: [StaticOverlayParser.Parsed] = []
      if tail.count == 4 { parsed = try StaticOverlayParser(limits: limits).parse(list: tail[1]) }
      request = StaticRequest(
        scene: name, product: product, view: view, width: w, height: h, retina: retina,
        overlays: parsed.map(\.json), overlayParts: parsed.map(\.part), format: suffix ?? .png)
    case "scale" where tail.count == 3:
      let (w, h, retina, suffix) = try size(tail[2])
      let n = try numbers(tail[1], count: 3...3, expected: "{lon},{lat},{scale}, such as 24.94,60.17,8000")
      try checkCenter(n[0], n[1], part: tail[1])
      guard n[2] >= 1, n[2] <= 1e12 else {
        throw .badRequest(tail[1], expected: "a scale denominator from 1 to 1e12 (8000 for 1:8000) after the centre")
      }
      request = StaticRequest(
        scene: name, product: product, view: .scale(lon: n[0], lat: n[1], scale: n[2]), width: w, height: h, retina: retina,
        format: suffix ?? .png)
    default:
      throw Self.noEndpoint(path)
    }
    try applyQuery(query, to: &request)
    return request
  }

  /// The scene and product a POST body is for: `/{name}/static` (or
  /// `/styles/v1/{user}/{name}/static`), `/{name}/report` or `/{name}/explain`.
  public func postTarget(path: String) throws(ServeError) -> (String, StaticRequest.Product) {
    var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    if segments.last == "" { segments.removeLast() }
    if segments.count == 5, segments[0] == "styles", segments[1] == "v1" { segments.removeFirst(3) }
    guard segments.count == 2 else {
      throw ServeError(status: 404, part: path, message: "no endpoint takes a POST at \(Echo.quoted(path))", hint: "POST a JSON body to /{name}/static, /{name}/report or /{name}/explain")
    }
    try SceneCatalog.checkName(segments[0])
    let product: StaticRequest.Product
    switch segments[1] {
    case "static": product = .image
    case "report": product = .report
    case "explain": product = .explain
    default:
      throw ServeError(status: 404, part: path, message: "no endpoint takes a POST at \(Echo.quoted(path))", hint: "POST a JSON body to /{name}/static, /{name}/report or /{name}/explain")
    }
    return (segments[0], product)
  }

  /// 404 for a path that is none of the forms.
  static func noEndpoint(_ path: String) -> ServeError {
    ServeError(
      status: 404, part: path, message: "no endpoint at \(Echo.quoted(path))",
      hint: "use /{name}/static/{lon},{lat},{zoom}/{w}x{h}, /{name}/scale/{lon},{lat},{scale}/{w}x{h}, or /{name}/report/… (docs/serve.md)")
  }

  // MARK: - parts

  /// `{w}x{h}[@2x][.png|.jpg|.jpeg|.webp]`.
  func size(_ part: String) throws(ServeError) -> (Int, Int, Bool, ImageFormat?) {
    var text = Substring(part)
    var format: ImageFormat? = nil
    if let dot = text.lastIndex(of: ".") {
      guard let f = ImageFormat.named(text[text.index(after: dot)...]), f != .png8 else {
        throw .badRequest(part, expected: "an image size with an optional suffix .png, .jpg or .webp, such as 600x400@2x.png")
      }
      format = f
      text = text[..<dot]
    }
    var retina = false
    if text.hasSuffix("@2x") {
      retina = true
      text = text.dropLast(3)
    }
    let sides = text.split(separator: "x", omittingEmptySubsequences: false)
    guard sides.count == 2, let w = Self.integer(sides[0]), let h = Self.integer(sides[1]) else {
      throw .badRequest(part, expected: "{width}x{height}[@2x] in logical pixels, such as 600x400 or 600x400@2x")
    }
    try checkSize(w, h, part: part)
    return (w, h, retina, format)
  }

  /// Refuses a size under 1 (400) or over `limits.maxSide` (413) logical pixels a side.
  func checkSize(_ w: Int, _ h: Int, part: String) throws(ServeError) {
    guard w >= 1, h >= 1 else {
      throw .badRequest(part, expected: "{width}x{height}[@2x] in logical pixels, such as 600x400 or 600x400@2x")
    }
    guard w <= limits.maxSide, h <= limits.maxSide else {
      throw ServeError(
        status: 413, part: part, message: "the image \(w)x\(h) is over the limit of \(limits.maxSide) pixels a side",
        hint: "ask for at most \(limits.maxSide)x\(limits.maxSide), with @2x for more device pixels")
    }
  }

  /// `auto`, `[w,s,e,n]` or `lon,lat,zoom[,bearing[,pitch]]`.
  func view(_ part: String) throws(ServeError) -> StaticRequest.View {
    if part == "auto" { return .auto }
    if part.hasPrefix("[") {
      guard part.hasSuffix("]"), part.count >= 2 else {
        throw .badRequest(part, expected: "a bounding box [west,south,east,north] in degrees")
      }
      let n = try numbers(String(part.dropFirst().dropLast()), count: 4...4, expected: "a bounding box [west,south,east,north] in degrees", part: part)
      return .bounds(try bounds(n, part: part))
    }
    let expected = "{lon},{lat},{zoom}[,{bearing}[,{pitch}]], [west,south,east,north] or auto"
    let n = try numbers(part, count: 3...5, expected: expected)
    try checkCenter(n[0], n[1], part: part)
    guard n[2] >= 0, n[2] <= 24 else { throw .badRequest(part, expected: "a zoom from 0 to 24 after the centre (\(expected))") }
    let bearing = n.count > 3 ? n[3] : 0
    guard bearing >= 0, bearing <= 360 else { throw .badRequest(part, expected: "a bearing from 0 to 360 degrees after the zoom") }
    if n.count > 4 {
      guard n[4] >= 0, n[4] <= 60 else { throw .badRequest(part, expected: "a pitch from 0 to 60 degrees after the bearing") }
      if n[4] != 0 {
        throw .unprocessable(part, "a pitch of \(Int(n[4].rounded())) degrees is not drawn: mapsnap draws maps from straight above", hint: "give a pitch of 0, or none")
      }
    }
    return .center(lon: n[0], lat: n[1], zoom: n[2], bearing: bearing == 360 ? 0 : bearing)
  }

  /// `[west, south, east, north]` as a box: west < east within ±180, south < north within ±90.
  func bounds(_ n: [Double], part: String) throws(ServeError) -> MapBounds {
    guard n.count == 4, n[0] >= -180, n[2] <= 180, n[1] >= -90, n[3] <= 90, n[0] < n[2], n[1] < n[3] else {
      throw .badRequest(part, expected: "[west,south,east,north] with west < east within ±180 and south < north within ±90")
    }
    return MapBounds(west: n[0], south: n[1], east: n[2], north: n[3])
  }

  func checkCenter(_ lon: Double, _ lat: Double, part: String) throws(ServeError) {
    guard abs(lon) <= 180, abs(lat) <= 90 else {
      throw .badRequest(part, expected: "a longitude within ±180 and a latitude within ±90, in degrees, as {lon},{lat}")
    }
  }

  /// Comma-separated finite numbers, `count` of them.
  func numbers(_ text: String, count: ClosedRange<Int>, expected: String, part: String? = nil) throws(ServeError) -> [Double] {
    var out: [Double] = []
    for t in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let v = Self.number(t) else { throw .badRequest(part ?? text, expected: expected) }
      out.append(v)
    }
    guard count.contains(out.count) else { throw .badRequest(part ?? text, expected: expected) }
    return out
  }

  // MARK: - query

  func applyQuery(_ query: String?, to request: inout StaticRequest) throws(ServeError) {
    guard let query, !query.isEmpty else { return }
    var seen = Set<String>()
    for pair in query.split(separator: "&") {
      let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let key = Self.percentDecoded(kv[0]), let value = Self.percentDecoded(kv.count > 1 ? kv[1] : "", plusIsSpace: true) else {
        throw .badRequest(String(pair), expected: "a query parameter name=value whose % escapes are two hexadecimal digits")
      }
      if key.hasPrefix("_") { continue }
      if Self.refusedParameters.contains(key) {
        throw .unprocessable(key, "the parameter \(Echo.quoted(key)) changes a style's layers, which mapsnap does not do from a URL",
          hint: "draw the map as a scene or style of its own")
      }
      guard Self.parameters.contains(key) else {
        let near = closestMatch(to: key, in: Self.parameters).map { "did you mean \(Echo.quoted($0))?" }
        throw ServeError(status: 400, part: key, message: "unknown query parameter \(Echo.quoted(key))",
          hint: near ?? "the parameters are \(Self.parameters.joined(separator: ", ")); names starting with _ are ignored")
      }
      guard seen.insert(key).inserted else { throw ServeError(status: 400, part: key, message: "the parameter \(Echo.quoted(key)) is given twice") }
      switch key {
      case "padding":
        request.padding = try padding(value, part: String(pair))
      case "attribution", "logo":
        guard value == "true" || value == "false" else { throw .badRequest(String(pair), expected: "\(key)=true or \(key)=false") }
      case "format":
        guard let f = ImageFormat.named(value) else { throw .badRequest(String(pair), expected: "format=png, png8, jpg or webp") }
        request.format = f
      default:
        break  // access_token: accepted and ignored
      }
    }
  }

  /// One to four numbers in CSS order (top, right, bottom, left), as CSS
  /// repeats them.
  func padding(_ value: String, part: String) throws(ServeError) -> Padding {
    let expected = "padding=1 to 4 numbers of logical pixels from 0 to 1000 in CSS order (top,right,bottom,left)"
    let n = try numbers(value, count: 1...4, expected: expected, part: part)
    guard n.allSatisfy({ $0 >= 0 && $0 <= 1000 }) else { throw .badRequest(part, expected: expected) }
    return Self.cssPadding(n)
  }

  /// CSS's shorthand: 1 value for all sides, 2 for vertical and horizontal,
  /// 3 for top, horizontal and bottom, 4 for each.
  static func cssPadding(_ n: [Double]) -> Padding {
    switch n.count {
    case 1: return Padding(n[0])
    case 2: return Padding(top: n[0], right: n[1], bottom: n[0], left: n[1])
    case 3: return Padding(top: n[0], right: n[1], bottom: n[2], left: n[1])
    default: return Padding(top: n[0], right: n[1], bottom: n[2], left: n[3])
    }
  }

  // MARK: - text

  /// A decimal number as a URL writes one (no `inf`, `nan` or hexadecimal).
  static func number(_ s: Substring) -> Double? {
    guard !s.isEmpty, s.utf8.count <= 32,
      s.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 }),
      let v = Double(s), v.isFinite
    else { return nil }
    return v
  }

  static func integer(_ s: Substring) -> Int? {
    guard !s.isEmpty, s.utf8.count <= 6, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(s)
  }

  /// `s` with `%XX` escapes decoded (and `+` as a space in a query), nil
  /// when an escape is malformed or the bytes are not UTF-8.
  static func percentDecoded(_ s: Substring, plusIsSpace: Bool = false) -> String? {
    if !s.utf8.contains(0x25) && !(plusIsSpace && s.utf8.contains(0x2B)) { return String(s) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(s.utf8.count)
    var it = s.utf8.makeIterator()
    func hex(_ c: UInt8?) -> UInt8? {
      switch c {
      case .some(let c) where c >= 0x30 && c <= 0x39: return c - 0x30
      case .some(let c) where c >= 0x41 && c <= 0x46: return c - 0x41 + 10
      case .some(let c) where c >= 0x61 && c <= 0x66: return c - 0x61 + 10
      default: return nil
      }
    }
    while let c = it.next() {
      if c == 0x25 {
        guard let hi = hex(it.next()), let lo = hex(it.next()) else { return nil }
        bytes.append(hi << 4 | lo)
      } else if c == 0x2B && plusIsSpace {
        bytes.append(0x20)
      } else {
        bytes.append(c)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }
}
