public import MapSnap

/// Reads the overlay segment of a static map URL (or an overlay string of a
/// POST body) into overlays in mapsnap's JSON form (`OverlayDecoder`):
///
/// - `pin-s[-{label}][+{color}]({lon},{lat})` and `pin-l…`: a pin 14 or 20
///   logical pixels wide, with a label of one letter or a number from 0
///   to 99; a longer label is a Maki icon name, refused (422);
/// - `path[-{strokeWidth}][+{strokeColor}[-{strokeOpacity}]][+{fillColor}[-{fillOpacity}]]({polyline})`:
///   a Google encoded polyline (precision 5), a polygon when it has a fill;
/// - `geojson({GeoJSON})`: a geometry, Feature or FeatureCollection with
///   simplestyle properties (`SimpleStyle`), one overlay per feature;
/// - `url-…`: a marker image at a URL, refused (422): the server fetches
///   nothing a request names.
///
/// Overlays are separated by commas outside their parentheses (and outside
/// a GeoJSON overlay's strings). Colours are 3 or 6 hexadecimal digits.
public struct StaticOverlayParser: Sendable {
  public var limits: ServeLimits
  public init(limits: ServeLimits = ServeLimits()) { self.limits = limits }

  /// An overlay in JSON with the text it was read from.
  public struct Parsed: Sendable {
    public var json: JSONValue
    public var part: String
  }

  /// The pin widths of `pin-s` and `pin-l` in logical pixels.
  static let pinSizes: [Character: Double] = ["s": 14, "l": 20]
  /// A path's defaults when the URL gives none, as the Mapbox API's: a
  /// 5-pixel stroke in #555 at full opacity, no fill.
  static let pathWidth = 5.0
  static let pathColor = "555555"

  /// Every overlay of `list`, at most `limits.maxOverlays`.
  public func parse(list: String) throws(ServeError) -> [Parsed] {
    var out: [Parsed] = []
    for item in try Self.split(list) {
      out += try parse(item)
      if out.count > limits.maxOverlays {
        throw .tooLarge("the overlay list", limit: "\(limits.maxOverlays) overlays", hint: "draw fewer overlays, or merge them into one GeoJSON layer of a scene")
      }
    }
    return out
  }

  /// The overlays `item` gives (several for a GeoJSON collection).
  public func parse(_ item: String) throws(ServeError) -> [Parsed] {
    guard let open = item.firstIndex(of: "("), item.hasSuffix(")") else {
      if item.hasPrefix("url-") { throw Self.urlMarker(item) }
      throw .badRequest(item, expected: "an overlay: pin-s(lon,lat), pin-l-a+f00(lon,lat), path-5+f00(polyline) or geojson({…})")
    }
    let head = String(item[..<open])
    let body = String(item[item.index(after: open)..<item.index(before: item.endIndex)])
    if head.hasPrefix("url-") { throw Self.urlMarker(item) }
    if head == "geojson" {
      let value: JSONValue
      do { value = try JSONParser.parse(body) } catch {
        throw ServeError(status: 400, part: Echo.escaped(item), message: "the GeoJSON overlay is not JSON: \(error)")
      }
      return try SimpleStyle.overlays(value, part: item).map { Parsed(json: $0, part: item) }
    }
    if head == "path" || head.hasPrefix("path-") || head.hasPrefix("path+") {
      return [Parsed(json: try path(head: String(head.dropFirst(4)), polyline: body, item: item), part: item)]
    }
    if head.hasPrefix("pin-"), head.count >= 5 {
      return [Parsed(json: try pin(head: head, at: body, item: item), part: item)]
    }
    throw .badRequest(item, expected: "an overlay: pin-s(lon,lat), pin-l-a+f00(lon,lat), path-5+f00(polyline) or geojson({…})")
  }

  static func urlMarker(_ item: String) -> ServeError {
    .unprocessable(item, "url- markers are not drawn: the server fetches no URL a request names", hint: "use pin-s or pin-l, or a marker icon in a scene")
  }

  // MARK: - pins

  func pin(head: String, at body: String, item: String) throws(ServeError) -> JSONValue {
    let chars = Array(head)
    guard let size = Self.pinSizes[chars[4]] else {
      throw .badRequest(item, expected: "pin-s or pin-l (a small or large pin)")
    }
    var rest = Substring(head).dropFirst(5)
    var color: String? = nil
    if let plus = rest.firstIndex(of: "+") {
      color = try Self.hexColor(rest[rest.index(after: plus)...], item: item)
      rest = rest[..<plus]
    }
    var label: String? = nil
    if !rest.isEmpty {
      guard rest.first == "-", rest.count >= 2 else { throw .badRequest(item, expected: "pin-s-{label}: a letter or a number from 0 to 99 after a -") }
      let l = rest.dropFirst()
      label = try Self.pinLabel(l, item: item)
    }
    let n = body.split(separator: ",", omittingEmptySubsequences: false).compactMap { StaticURLParser.number($0) }
    guard n.count == 2, body.split(separator: ",", omittingEmptySubsequences: false).count == 2, abs(n[0]) <= 180, abs(n[1]) <= 90 else {
      throw .badRequest(item, expected: "a pin's position ({lon},{lat}) in degrees, such as pin-s(24.94,60.17)")
    }
    var m: JSONObject = ["marker": [.number(n[0]), .number(n[1])], "size": .number(size)]
    if let label { m["label"] = .string(label) }
    if let color { m["color"] = .string(color) }
    return .object(m)
  }

  /// A pin's label: one letter, or a number from 0 to 99; a longer word is
  /// a Maki icon's name, which the server does not draw.
  static func pinLabel(_ l: Substring, item: String) throws(ServeError) -> String {
    if l.count == 1, let c = l.unicodeScalars.first, c.properties.isAlphabetic || (c.value >= 0x30 && c.value <= 0x39) {
      return String(l)
    }
    if let v = Int(l), v >= 0, v <= 99, l.utf8.count <= 2 { return String(v) }
    throw .unprocessable(
      String(l), "the Maki icon \(Echo.quoted(l)) is not drawn: mapsnap's pins carry a letter or a number from 0 to 99",
      hint: "give a label such as pin-s-a or pin-l-7, or put an icon marker in a scene")
  }

  /// `#rrggbb` from 3 or 6 hexadecimal digits.
  static func hexColor(_ s: Substring, item: String) throws(ServeError) -> String {
    guard s.count == 3 || s.count == 6, s.allSatisfy(\.isHexDigit) else {
      throw .badRequest(item, expected: "a colour of 3 or 6 hexadecimal digits after +, such as +f00 or +ff0000")
    }
    return "#" + (s.count == 3 ? s.map { "\($0)\($0)" }.joined() : String(s)).lowercased()
  }

  // MARK: - paths

  func path(head: String, polyline: String, item: String) throws(ServeError) -> JSONValue {
    // head: "", "-5", "-5+f00", "-5+f00-0.5+0f0-0.25", "+f00" …
    let parts = head.split(separator: "+", omittingEmptySubsequences: false)
    var width = Self.pathWidth
    if !parts[0].isEmpty {
      guard parts[0].first == "-", let w = StaticURLParser.number(parts[0].dropFirst()), w >= 0, w <= 100 else {
        throw .badRequest(item, expected: "path-{strokeWidth}: a stroke width from 0 to 100 logical pixels")
      }
      width = w
    }
    guard parts.count <= 3 else { throw .badRequest(item, expected: "path-{width}+{strokeColor}-{opacity}+{fillColor}-{opacity}(polyline)") }
    func colorAndOpacity(_ p: Substring) throws(ServeError) -> String {
      let split = p.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
      let hex = try Self.hexColor(split[0], item: item)
      var opacity = 1.0
      if split.count == 2 {
        guard let o = StaticURLParser.number(split[1]), o >= 0, o <= 1 else {
          throw .badRequest(item, expected: "an opacity from 0 to 1 after a colour's -, such as +f00-0.5")
        }
        opacity = o
      }
      return SimpleStyle.rgba(hex, opacity: opacity) ?? hex
    }
    let stroke = try parts.count > 1 ? colorAndOpacity(parts[1]) : "#" + Self.pathColor
    let fill = try parts.count > 2 ? colorAndOpacity(parts[2]) : nil
    guard let points = Polyline.decode(polyline) else {
      throw .badRequest(item, expected: "a Google encoded polyline (precision 5), URL-encoded, between the parentheses")
    }
    guard points.count >= (fill == nil ? 2 : 3) else {
      throw .badRequest(item, expected: fill == nil ? "a path of at least 2 points" : "a filled path of at least 3 points")
    }
    var coordinates: [JSONValue] = points.map { [.number($0.lon), .number($0.lat)] }
    let geometry: JSONValue
    if fill != nil {
      if points.first! != points.last! { coordinates.append(coordinates[0]) }
      geometry = ["type": "Polygon", "coordinates": .array([.array(coordinates)])]
    } else {
      geometry = ["type": "LineString", "coordinates": .array(coordinates)]
    }
    var style: JSONObject = ["stroke": .string(stroke), "strokeWidth": .number(width), "lineJoin": "round", "lineCap": "round"]
    if let fill { style["fill"] = .string(fill) }
    return ["geojson": ["type": "Feature", "geometry": geometry, "properties": [:]], "style": .object(style)]
  }

  // MARK: - the list

  /// `list` cut at the commas between overlays: those outside parentheses
  /// and outside JSON strings inside them.
  static func split(_ list: String) throws(ServeError) -> [String] {
    var items: [String] = []
    var current = ""
    var depth = 0
    var inString = false, escaped = false
    for c in list {
      if inString {
        if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
        current.append(c)
        continue
      }
      switch c {
      case "\"" where depth > 0: inString = true
      case "(": depth += 1
      case ")":
        depth -= 1
        if depth < 0 { throw .badRequest(list, expected: "overlays whose parentheses balance") }
      case "," where depth == 0:
        guard !current.isEmpty else { throw .badRequest(list, expected: "overlays separated by single commas") }
        items.append(current)
        current = ""
        continue
      default: break
      }
      current.append(c)
    }
    guard depth == 0, !inString else { throw .badRequest(list, expected: "overlays whose parentheses balance") }
    guard !current.isEmpty else { throw .badRequest(list, expected: "overlays separated by single commas") }
    items.append(current)
    return items
  }
}
