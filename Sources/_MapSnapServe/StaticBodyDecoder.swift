public import MapSnap

/// Reads the JSON body of `POST /{name}/static` (and `/report`, `/explain`),
/// the form for overlays too long for a URL:
///
///     {"center": [lon, lat], "zoom": 12, "bearing": 0,   // or "bounds": [w, s, e, n],
///      "size": [600, 400], "retina": true,              // or "auto": true, or "scale": 8000
///      "overlays": ["pin-s+f00(24.94,60.17)", {"marker": [24.95, 60.16]}],
///      "padding": [10, 20], "format": "webp"}
///
/// `overlays` holds URL overlay strings (`StaticOverlayParser`) and overlays
/// in mapsnap's JSON form (`OverlayDecoder`) alike. Errors name the JSON path.
public struct StaticBodyDecoder: Sendable {
  public var limits: ServeLimits
  public init(limits: ServeLimits = ServeLimits()) { self.limits = limits }

  static let keys = ["center", "zoom", "bearing", "pitch", "scale", "bounds", "auto", "size", "retina", "overlays", "padding", "format"]

  public func decode(_ bytes: [UInt8], scene: String, product: StaticRequest.Product) throws(ServeError) -> StaticRequest {
    guard bytes.count <= limits.maxBodyBytes else {
      throw .tooLarge("the request body", limit: "\(limits.maxBodyBytes) bytes")
    }
    let value: JSONValue
    do { value = try JSONParser.parse(bytes) } catch {
      throw ServeError(status: 400, part: "body", message: "the body is not JSON: \(error)", hint: "send a JSON object (Content-Type: application/json)")
    }
    guard case .object(let o) = value else { throw .badRequest("$", expected: "a JSON object") }
    for k in o.keys where !Self.keys.contains(k) {
      throw ServeError(
        status: 400, part: "$.\(k)", message: "unknown key \(Echo.quoted(k))",
        hint: closestMatch(to: k, in: Self.keys).map { "did you mean \(Echo.quoted($0))?" } ?? "the keys are \(Self.keys.joined(separator: ", "))")
    }
    func numbers(_ k: String, _ count: Int, expected: String) throws(ServeError) -> [Double]? {
      guard let v = o[k] else { return nil }
      guard case .array(let a) = v, a.count == count else { throw .badRequest("$.\(k)", expected: expected) }
      var out: [Double] = []
      for x in a {
        guard case .number(let n) = x else { throw .badRequest("$.\(k)", expected: expected) }
        out.append(n)
      }
      return out
    }
    func number(_ k: String, _ range: ClosedRange<Double>, expected: String) throws(ServeError) -> Double? {
      guard let v = o[k] else { return nil }
      guard case .number(let n) = v, range.contains(n) else { throw .badRequest("$.\(k)", expected: expected) }
      return n
    }
    // The size: [w, h] or "WxH[@2x]".
    let url = StaticURLParser(limits: limits)
    var width = 0, height = 0, retina = false
    switch o["size"] {
    case .string(let s)?:
      let (w, h, r, f) = try url.size(s)
      guard f == nil else { throw .badRequest("$.size", expected: "a size without a suffix; the format is \"format\"") }
      (width, height, retina) = (w, h, r)
    case .array?:
      let n = try numbers("size", 2, expected: "[width, height] in logical pixels")!
      guard let w = Int(exactly: n[0]), let h = Int(exactly: n[1]) else {
        throw .badRequest("$.size", expected: "[width, height] in whole logical pixels")
      }
      try url.checkSize(w, h, part: "$.size")
      (width, height) = (w, h)
    case nil: throw .badRequest("$", expected: "a \"size\": [width, height] in logical pixels")
    default: throw .badRequest("$.size", expected: "[width, height] in logical pixels, or \"600x400@2x\"")
    }
    if let r = o["retina"] {
      guard case .bool(let b) = r else { throw .badRequest("$.retina", expected: "true or false") }
      retina = retina || b
    }
    // The view: one of center (+ zoom or scale), bounds, auto.
    let given = ["center", "bounds", "auto"].filter { o[$0] != nil && o[$0] != .bool(false) }
    guard given.count == 1 else {
      throw ServeError(status: 400, part: "$", message: given.isEmpty ? "no view: expected \"center\", \"bounds\" or \"auto\"" : "\(given.joined(separator: " and ")) are given together: expected one")
    }
    let view: StaticRequest.View
    switch given[0] {
    case "center":
      let c = try numbers("center", 2, expected: "[lon, lat] in degrees")!
      try url.checkCenter(c[0], c[1], part: "$.center")
      if let p = try number("pitch", 0...60, expected: "a pitch from 0 to 60"), p != 0 {
        throw .unprocessable("$.pitch", "a pitch of \(p) degrees is not drawn: mapsnap draws maps from straight above")
      }
      let bearing = try number("bearing", 0...360, expected: "a bearing from 0 to 360 degrees") ?? 0
      if let s = try number("scale", 1...1e12, expected: "a scale denominator from 1 to 1e12") {
        guard o["zoom"] == nil else { throw .badRequest("$.zoom", expected: "\"zoom\" or \"scale\", not both") }
        view = .scale(lon: c[0], lat: c[1], scale: s)
      } else {
        guard let z = try number("zoom", 0...24, expected: "a zoom from 0 to 24") else {
          throw .badRequest("$", expected: "a \"zoom\" (or \"scale\") with \"center\"")
        }
        view = .center(lon: c[0], lat: c[1], zoom: z, bearing: bearing == 360 ? 0 : bearing)
      }
    case "bounds":
      if case .string("auto")? = o["bounds"] {
        view = .auto
      } else {
        let b = try numbers("bounds", 4, expected: "[west, south, east, north] in degrees, or \"auto\"")!
        view = .bounds(try url.bounds(b, part: "$.bounds"))
      }
    default:
      guard o["auto"] == .bool(true) else { throw .badRequest("$.auto", expected: "true") }
      view = .auto
    }
    var request = StaticRequest(scene: scene, product: product, view: view, width: width, height: height, retina: retina)
    // Overlays.
    if let v = o["overlays"] {
      guard case .array(let items) = v else { throw .badRequest("$.overlays", expected: "an array of overlays") }
      let parser = StaticOverlayParser(limits: limits)
      for (i, item) in items.enumerated() {
        switch item {
        case .string(let s):
          for p in try parser.parse(list: s) {
            request.overlays.append(p.json)
            request.overlayParts.append("$.overlays[\(i)]")
          }
        case .object:
          request.overlays.append(item)
          request.overlayParts.append("$.overlays[\(i)]")
        default:
          throw .badRequest("$.overlays[\(i)]", expected: "an overlay string such as \"pin-s(24.94,60.17)\" or an overlay object such as {\"marker\": [24.94, 60.17]}")
        }
        if request.overlays.count > limits.maxOverlays {
          throw .tooLarge("the overlay list", limit: "\(limits.maxOverlays) overlays")
        }
      }
    }
    switch o["padding"] {
    case nil: break
    case .number(let n)?:
      guard n >= 0, n <= 1000 else { throw .badRequest("$.padding", expected: "logical pixels from 0 to 1000") }
      request.padding = Padding(n)
    case .array(let a)?:
      let n = a.compactMap { if case .number(let x) = $0, x >= 0, x <= 1000 { x } else { nil } }
      guard n.count == a.count, (1...4).contains(n.count) else {
        throw .badRequest("$.padding", expected: "1 to 4 numbers of logical pixels from 0 to 1000 in CSS order")
      }
      request.padding = StaticURLParser.cssPadding(n)
    default: throw .badRequest("$.padding", expected: "a number or 1 to 4 numbers in CSS order")
    }
    if let f = o["format"] {
      guard case .string(let s) = f, let format = ImageFormat.named(s) else { throw .badRequest("$.format", expected: "\"png\", \"png8\", \"jpg\" or \"webp\"") }
      request.format = format
    }
    return request
  }
}
