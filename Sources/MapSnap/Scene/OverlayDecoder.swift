/// Reads overlays (`Overlay`) in their one JSON form, and the command line's
/// `--marker`, `--highlight` and `--geojson` values by turning them into that
/// form first, so both read alike:
///
/// | JSON (a batch line's `overlays` entry)                   | command line                          |
/// |----------------------------------------------------------|---------------------------------------|
/// | `{"marker": [lon, lat], "label": "A", "color": "red", "shape": "pin", "size": 14, "icon": "p.png"}` | `--marker 'lon,lat\|label:A\|color:red\|shape:pin\|size:14\|icon:p.png'` |
/// | `{"highlight": {"layer": "pois", "id": 7}, "color": "#06f", "width": 3}` | `--highlight 'pois:7\|color:#06f\|width:3'` |
/// | `{"geojson": "route.geojson" or {…}, "color": "#06f", "width": 3}` | `--geojson 'route.geojson\|color:#06f\|width:3'` |
///
/// In JSON, `style` (a style object as in a layer) replaces the whole
/// default style and excludes the shortcuts. Paths resolve against the
/// manifest's folder (JSON) or the working directory (command line).
package struct OverlayDecoder {
  let decoder: SceneDecoder
  /// The reference markers are given in (a `viewCrs`); nil: degrees.
  let viewCrs: String?

  /// A decoder whose messages name `file`, whose paths resolve against
  /// `baseDirectory`, and whose markers are in `viewCrs`.
  public init(file: String, baseDirectory: String, viewCrs: String? = nil) {
    self.viewCrs = viewCrs
    decoder = SceneDecoder(file: file, baseDirectory: baseDirectory)
  }

  /// Marker pins are 14 logical pixels wide unless `size` says otherwise.
  static let defaultMarkerSize = 14.0
  /// Highlight and GeoJSON strokes are 3 logical pixels wide unless `width`
  /// says otherwise.
  static let defaultWidth = 3.0

  /// One overlay in its JSON form, at `path` (for messages).
  public func decode(_ value: JSONValue, at path: String) throws(SceneError) -> Overlay {
    let file = decoder.file
    let jsonPath = JSONPath().key(path)
    guard case .object(let object) = value else {
      throw SceneError(file: file, path: path, kind: .invalidValue, expected: "an overlay (a JSON object with \"marker\", \"highlight\" or \"geojson\")", found: describe(value))
    }
    let kinds = ["marker", "highlight", "geojson"].filter { object[$0] != nil }
    guard kinds.count == 1 else {
      if kinds.isEmpty {
        throw SceneError(file: file, path: path, kind: .missingKey, expected: "one of \"marker\", \"highlight\" or \"geojson\"")
      }
      throw SceneError(file: file, path: path, kind: .conflictingKeys, expected: "only one of \"\(kinds[0])\" and \"\(kinds[1])\"")
    }
    switch kinds[0] {
    case "marker":
      let r = try ObjectReader(
        value, at: jsonPath, file: file, what: "a marker overlay", allowed: ["marker", "label", "color", "shape", "size", "icon", "style"])
      let degrees = ViewParameter.isDegrees(viewCrs: viewCrs)
      let expected =
        degrees
        ? "[lon, lat] in degrees (longitude within ±180, latitude within ±90)" : ViewParameter.center.expectedInMapUnits(.json)
      guard let at = try r.numbers("marker", count: 2, expected),
        degrees ? abs(at[0]) <= 180 && abs(at[1]) <= 90 : ViewParameter.centerInMapUnits(at) != nil
      else {
        throw r.invalid("marker", expected: expected, found: object["marker"]!)
      }
      let label = try r.string("label", nonEmpty: true)
      var marker: MarkerStyle
      if let style = object["style"] {
        for k in ["color", "shape", "size", "icon"] where r.has(k) { throw r.conflict("style", k) }
        marker = try decoder.decodeMarker(style, at: jsonPath.key("style"))
      } else {
        var m = MarkerStyle()
        var json = JSONObject()
        if let icon = object["icon"] {
          // An icon: drawn at its own height unless `size` says otherwise;
          // `shape` beside it is the marker decoder's conflict to report.
          json["icon"] = icon
          if let shape = object["shape"] { json["shape"] = shape }
          if let size = object["size"] { json["size"] = size }
        } else {
          json["shape"] = object["shape"] ?? .string("pin")
          json["size"] = object["size"] ?? .number(Self.defaultMarkerSize)
        }
        json["fill"] = object["color"] ?? .string(Overlay.defaultColorName)
        json["stroke"] = .string("white")
        json["strokeWidth"] = .number(1.5)
        m = try decoder.decodeMarker(.object(json), at: jsonPath)
        marker = m
      }
      let key = "marker \(at[0]) \(at[1]) \(label.map { "\"\($0)\"" } ?? "-")" + (degrees ? "" : " in \(viewCrs!)")
      let style = Overlay.markerStyle(marker, label: label != nil)
      return Overlay(target: .marker(lon: at[0], lat: at[1], label: label, crs: degrees ? nil : viewCrs), style: style, digestKey: key + " " + Overlay.key(of: style))
    case "highlight":
      let r = try ObjectReader(value, at: jsonPath, file: file, what: "a highlight overlay", allowed: ["highlight", "color", "width", "style"])
      let (layer, id) = try decoder.decodeFeatureReference(object["highlight"]!, at: jsonPath.key("highlight"), what: "the feature to highlight")
      let style = try shapeStyle(r, object, at: jsonPath)
      return Overlay(
        target: .highlight(layer: layer, id: id), style: style,
        digestKey: "highlight \"\(layer)\" \"\(id.text)\" " + Overlay.key(of: style))
    default:
      let r = try ObjectReader(value, at: jsonPath, file: file, what: "a GeoJSON overlay", allowed: ["geojson", "color", "width", "style"])
      let source: Source
      let key: String
      switch object["geojson"]! {
      case .string(let p) where !p.isEmpty:
        source = .file(path: p, resolved: FileIO.resolve(p, against: decoder.baseDirectory))
        key = "geojson file"  // its bytes are in the digest as the layer's source, whatever the path's spelling
      case let data:
        do {
          source = .inline(try GeoJSONDecoder.decodeDocument(data, path: jsonPath.key("geojson")))
        } catch {
          throw SceneError(file: file, issue: error)
        }
        key = "geojson " + SHA256.hex(of: JSONWriter(compact: true).writeBytes(data))
      }
      let style = try shapeStyle(r, object, at: jsonPath)
      return Overlay(target: .geojson(source), style: style, digestKey: key + " " + Overlay.key(of: style))
    }
  }

  /// `style`, or the default shape style in `color` with strokes `width` wide.
  private func shapeStyle(_ r: ObjectReader, _ object: JSONObject, at path: JSONPath) throws(SceneError) -> Style {
    if let style = object["style"] {
      for k in ["color", "width"] where r.has(k) { throw r.conflict("style", k) }
      return try decoder.decodeStyle(style, at: path.key("style"))
    }
    let color = try r.color("color") ?? Overlay.defaultColor
    let width = try r.number("width", "a stroke width >= 0 in logical pixels") { $0 >= 0 && $0 <= 1000 } ?? Self.defaultWidth
    return Overlay.shapeStyle(color: color, width: width)
  }

  /// `LAYER:ID` as the command line writes one feature (`--fit`,
  /// `--highlight`): split at the first `:`, so ids may contain colons;
  /// nil when either side is empty.
  public static func featureReference(_ s: String) -> (layer: String, id: String)? {
    guard let colon = s.firstIndex(of: ":") else { return nil }
    let layer = String(s[..<colon])
    let id = String(s[s.index(after: colon)...])
    return layer.isEmpty || id.isEmpty ? nil : (layer, id)
  }

  /// A command-line overlay (`kind` is `marker`, `highlight` or `geojson`):
  /// the target, then `|key:value` options, read as the JSON form.
  /// - Throws: `SceneError` naming the option (`--marker` …) as its path.
  public func decode(commandLine text: String, kind: String) throws(SceneError) -> Overlay {
    let option = "--\(kind)"
    let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    func fail(_ expected: String) -> SceneError {
      SceneError(file: "command line", path: option, kind: .invalidValue, expected: expected, found: "\(Echo.quoted(text))")
    }
    var json = JSONObject()
    switch kind {
    case "marker":
      let c = parts[0].split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0).trimmedOfSpaces) }
      guard c.count == 2, let lon = c[0], let lat = c[1] else { throw fail("lon,lat[|label:TEXT|color:C|shape:S|size:N|icon:FILE]") }
      json["marker"] = .array([.number(lon), .number(lat)])
    case "highlight":
      guard let (layer, id) = Self.featureReference(parts[0]) else { throw fail("LAYER:ID[|color:C|width:N] (split at the first ':')") }
      json["highlight"] = .object(["layer": .string(layer), "id": .string(id)])
    default:
      guard !parts[0].isEmpty else { throw fail("FILE[|color:C|width:N]") }
      json["geojson"] = .string(parts[0])
    }
    for option in parts.dropFirst() {
      guard let colon = option.firstIndex(of: ":") else { throw fail("options as key:value after '|', got \(Echo.quoted(option))") }
      let key = String(option[..<colon])
      let value = String(option[option.index(after: colon)...])
      if json[key] != nil { throw fail("each option once, got \(Echo.quoted(key)) twice") }
      switch key {
      case "size", "width":
        guard let n = Double(value) else { throw fail("\(key) as a number, got \(Echo.quoted(value))") }
        json[key] = .number(n)
      default:
        json[key] = .string(value)
      }
    }
    // A highlighted id given on the command line matches a numeric id too:
    // `FeatureID` compares canonical text ("7" equals 7).
    return try decode(.object(json), at: option)
  }
}

extension SceneDecoder {
  /// `{"layer": ID, "id": FEATURE_ID}`: one feature of a layer, as `fit` (a
  /// batch line's) and highlight overlays name it.
  func decodeFeatureReference(_ value: JSONValue, at path: JSONPath, what: String) throws(SceneError) -> (layer: String, id: FeatureID) {
    let r = try ObjectReader(value, at: path, file: file, what: what, allowed: ["layer", "id"])
    guard let layer = try r.string("layer", nonEmpty: true) else { throw r.missing("layer", "a layer id") }
    guard let idValue = r.object["id"] else { throw r.missing("id", "a feature id (string or number)") }
    guard let id = FeatureID(json: idValue) else { throw r.invalid("id", expected: "a feature id (a string or a number)", found: idValue) }
    return (layer, id)
  }
}

extension String {
  /// The text without leading and trailing spaces.
  var trimmedOfSpaces: String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
