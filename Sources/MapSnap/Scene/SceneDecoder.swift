/// Turns scene JSON into a `Scene`, checking every key and value against the
/// format (version 1). The first problem found stops decoding with a
/// `SceneError` naming its JSON path.
struct SceneDecoder {
  let file: String
  let baseDirectory: String
  /// Every `font` named in the scene with its JSON path, checked against the
  /// fonts once they are loaded (`Scene.fontReferences`).
  private let fontList = FontList()
  var fonts: FontList.Appender { FontList.Appender(list: fontList) }

  /// Symbol sizes and stroke widths are at most 1,000 logical pixels, and
  /// offsets at most 10,000 either way: far beyond any map symbol, and small
  /// enough that no coordinate the rasteriser computes from them overflows
  /// its fixed-point range (a 1e300-pixel marker would).
  static let maxSymbolPixels = 1000.0
  static let maxOffsetPixels = 10000.0
  /// A miter can reach `miterLimit` half widths past a joint; SVG's default
  /// is 4 and Mapnik's 4, so 100 leaves room for any deliberate spike.
  static let maxMiterLimit = 100.0
  /// The most dots per inch a map may declare (print at 10,000 dpi is far
  /// beyond any press); the scale's metres per pixel stay well inside Double.
  static let maxDPI = 10000.0

  func decode(_ root: JSONValue) throws(SceneError) -> Scene {
    let top = try ObjectReader(root, at: JSONPath(), file: file, what: "a scene", allowed: ["version", "map", "layers", "viewAnnotations"])
    if let v = try top.number("version", "the format version 1") {
      guard v == 1 else {
        throw top.error("version", expected: "the format version 1 (the one this mapsnap reads)", found: describe(.number(v)))
      }
    }
    let map = try decodeMap(try top.require("map", "the map block { \"center\", \"scale\", \"size\" }"), at: JSONPath().key("map"))
    var layers: [Layer] = []
    if let lv = top.object["layers"] {
      guard case .array(let list) = lv else { throw top.invalid("layers", expected: "an array of layers", found: lv) }
      var ids = UniqueIDs(file: file, list: JSONPath().key("layers"), expected: "a unique layer id")
      for (i, item) in list.enumerated() {
        let layer = try decodeLayer(item, at: JSONPath().key("layers").index(i))
        try ids.insert(layer.id, at: i)
        layers.append(layer)
      }
    }
    var annotations: [ViewAnnotation] = []
    if let va = top.object["viewAnnotations"] {
      guard case .array(let list) = va else {
        throw top.invalid("viewAnnotations", expected: "an array of view annotations", found: va)
      }
      var ids = UniqueIDs(file: file, list: JSONPath().key("viewAnnotations"), expected: "a unique view annotation id")
      for (i, a) in list.enumerated() {
        let annotation = try decodeViewAnnotation(a, at: JSONPath().key("viewAnnotations").index(i), index: i, layers: layers)
        try ids.insert(annotation.id, at: i)
        annotations.append(annotation)
      }
    }
    var scene = Scene(version: 1, map: map, layers: layers, viewAnnotations: annotations, file: file, baseDirectory: baseDirectory)
    scene.fontReferences = fontList.items.compactMap { name, path in name.map { ($0, path.description) } }
    return scene
  }

  // MARK: - layers

  private func decodeLayer(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Layer {
    let common = ["id", "type", "visible", "opacity", "minScale", "maxScale", "floorField", "idField", "attribution"]
    // Read the type first so the allowed keys can depend on it.
    guard case .object(let obj) = value else {
      throw SceneError(file: file, at: path, kind: .invalidValue, expected: "a layer (a JSON object)", found: describe(value))
    }
    let kinds = Layer.Kind.allCases.map(\.rawValue)
    guard let tv = obj["type"] else {
      throw SceneError(file: file, at: path.key("type"), kind: .missingKey, expected: "one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    guard case .string(let ts) = tv, let kind = Layer.Kind(rawValue: ts) else {
      var hint: String? = nil
      if case .string(let ts) = tv {
        hint = closestMatch(to: ts, in: kinds).map { "did you mean \(Echo.quoted($0))?" }
      }
      throw SceneError(
        file: file, at: path.key("type"), kind: .invalidValue, expected: "one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))",
        found: describe(tv), hint: hint)
    }
    let specific: [String]
    switch kind {
    case .features: specific = ["source", "style", "rules"]
    case .graphics: specific = ["graphics"]
    case .annotation: specific = ["source", "textField", "text", "angleField", "referenceScale", "sublayers"]
    case .tiles: specific = ["source", "tileMatrixSet", "tileSize", "minZoom", "maxZoom", "attribution"]
    case .style: specific = ["style"]
    }
    let r = try ObjectReader(value, at: path, file: file, what: "\(kind == .annotation ? "an" : "a") \(kind.rawValue) layer", allowed: common + specific)
    guard let id = try r.string("id", nonEmpty: true) else {
      throw r.missing("id", "a unique layer id")
    }
    let content: Layer.Content
    switch kind {
    case .features:
      let source = try decodeSource(try r.require("source", "{ \"geojson\": \"file\" } or { \"data\": {…} }"), at: path.key("source"))
      content = .features(source: source, styling: try decodeStyling(r))
    case .graphics:
      let gv = try r.require("graphics", "an array of graphics")
      guard case .array(let list) = gv else { throw r.invalid("graphics", expected: "an array of graphics", found: gv) }
      var graphics: [Graphic] = []
      for (i, g) in list.enumerated() { graphics.append(try decodeGraphic(g, at: path.key("graphics").index(i))) }
      content = .graphics(graphics)
    case .annotation:
      content = .annotation(try decodeAnnotation(r))
    case .tiles:
      content = .tiles(try decodeTiles(r))
    case .style:
      guard let p = try r.string("style", nonEmpty: true) else {
        throw r.missing("style", "the style's path (relative to the scene) or URL")
      }
      content = .style(StyleLayerSource(path: p, resolved: StyleLayerSource.resolve(p, against: baseDirectory)))
    }
    var layer = Layer(id: id, kind: kind, content: content)
    layer.visible = try r.bool("visible") ?? true
    layer.opacity = try r.number("opacity", "an opacity from 0 to 1") { $0 >= 0 && $0 <= 1 } ?? 1
    layer.scaleRange = try r.scaleRange()
    layer.floorField = try r.string("floorField", nonEmpty: true)
    layer.idField = try r.string("idField", nonEmpty: true)
    layer.attribution = try r.string("attribution", nonEmpty: true)
    return layer
  }

  private func decodeSource(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Source {
    let r = try ObjectReader(value, at: path, file: file, what: "a source", allowed: ["geojson", "data", "crs", "ogr", "layer"])
    let crs = try r.string("crs", nonEmpty: true)
    if let crs {
      // AUTHORITY:CODE, as PROJ names references ("EPSG:3067"); PROJ itself
      // checks that it knows the code when the frame is planned.
      let parts = crs.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !crs.contains(" ") else {
        throw r.invalid("crs", expected: "a spatial reference as AUTHORITY:CODE, such as \"EPSG:3067\"", found: .string(crs))
      }
    }
    if r.has("ogr") {
      for other in ["geojson", "data"] where r.has(other) { throw r.conflict("ogr", other) }
      let name = try r.string("ogr", nonEmpty: true)!
      let layer = try r.string("layer", nonEmpty: true)
      // A database connection is passed to GDAL as written; a file or
      // folder resolves against the scene's folder.
      let resolved = name.hasPrefix("PG:") ? name : FileIO.resolve(name, against: baseDirectory)
      return .ogr(OGRSource(name: name, resolved: resolved, layer: layer, crs: crs))
    }
    if r.has("layer") {
      throw r.invalid("layer", expected: "no \"layer\" without \"ogr\" (a GeoJSON file is one layer)", found: r.object["layer"]!)
    }
    let base = try decodePlainSource(r, at: path)
    guard let crs else { return base }
    return .reprojected(base, crs: crs)
  }

  private func decodePlainSource(_ r: ObjectReader, at path: JSONPath) throws(SceneError) -> Source {
    switch (r.object["geojson"], r.object["data"]) {
    case (.some, .some):
      throw r.conflict("geojson", "data")
    case (.none, .none):
      throw SceneError(
        file: file, at: path, kind: .missingKey,
        expected: "\"geojson\" (a file path), \"data\" (an inline FeatureCollection) or \"ogr\" (a dataset GDAL reads)")
    case (.some, .none):
      let p = try r.string("geojson", nonEmpty: true)!
      return .file(path: p, resolved: FileIO.resolve(p, against: baseDirectory))
    case (.none, .some(let data)):
      do {
        return .inline(try GeoJSONDecoder.decodeDocument(data, path: path.key("data")))
      } catch {
        throw SceneError(file: file, issue: error)
      }
    }
  }

  private func decodeStyling(_ r: ObjectReader) throws(SceneError) -> Styling {
    switch (r.object["style"], r.object["rules"]) {
    case (.some, .some):
      throw r.conflict("style", "rules")
    case (.none, .none):
      throw SceneError(file: file, at: r.path, kind: .missingKey, expected: "\"style\" (one style for all) or \"rules\"")
    case (.some(let s), .none):
      return .single(try decodeStyle(s, at: r.path.key("style")))
    case (.none, .some(let rv)):
      guard case .array(let list) = rv else { throw r.invalid("rules", expected: "an array of rules", found: rv) }
      var rules: [Rule] = []
      for (i, item) in list.enumerated() {
        let rp = r.path.key("rules").index(i)
        let rr = try ObjectReader(item, at: rp, file: file, what: "a rule", allowed: ["where", "minScale", "maxScale", "style"])
        let filter = try rr.object["where"].map { (w) throws(SceneError) in try decodeFilter(w, at: rp.key("where")) } ?? Filter()
        let style = try decodeStyle(try rr.require("style", "a style"), at: rp.key("style"))
        rules.append(Rule(filter: filter, scaleRange: try rr.scaleRange(), style: style))
      }
      return .rules(rules)
    }
  }

  private func decodeFilter(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Filter {
    guard case .object(let obj) = value else {
      throw SceneError(file: file, at: path, kind: .invalidValue, expected: "an object of property: value", found: describe(value))
    }
    var clauses: [(String, [JSONValue])] = []
    for (key, v) in obj.pairs {
      let kp = path.key(key)
      switch v {
      case .string, .number, .bool, .null:
        clauses.append((key, [v]))
      case .array(let values):
        guard !values.isEmpty else {
          throw SceneError(file: file, at: kp, kind: .invalidValue, expected: "a non-empty array of values to match", found: describe(v))
        }
        for (i, e) in values.enumerated() {
          switch e {
          case .string, .number, .bool, .null: break
          default:
            throw SceneError(file: file, at: kp.index(i), kind: .invalidValue, expected: "a string, number, boolean or null", found: describe(e))
          }
        }
        clauses.append((key, values))
      case .object:
        throw SceneError(file: file, at: kp, kind: .invalidValue, expected: "a value or an array of values to match", found: describe(v))
      }
    }
    return Filter(clauses: clauses)
  }

  // MARK: - style

  func decodeStyle(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Style {
    let r = try ObjectReader(
      value, at: path, file: file, what: "a style",
      allowed: ["fill", "fillRule", "stroke", "strokeWidth", "strokeDash", "lineJoin", "miterLimit", "lineCap", "marker", "label"])
    var s = Style()
    s.fill = try r.color("fill")
    if let rule = try r.choice("fillRule", ["nonzero", "evenodd"]) { s.fillRule = FillRule(rawValue: rule)! }
    s.stroke = try r.color("stroke")
    s.strokeWidth = try r.number("strokeWidth", "a width from 0 to \(format(Self.maxSymbolPixels)) logical pixels") { $0 >= 0 && $0 <= Self.maxSymbolPixels } ?? 1
    if let dv = r.object["strokeDash"] {
      guard case .array(let a) = dv, !a.isEmpty else {
        throw r.invalid("strokeDash", expected: "a non-empty array of lengths [on, off, …]", found: dv)
      }
      var dash: [Double] = []
      for (i, e) in a.enumerated() {
        guard case .number(let n) = e, n >= 0, n.isFinite else {
          throw SceneError(file: file, at: path.key("strokeDash").index(i), kind: .invalidValue, expected: "a dash length >= 0", found: describe(e))
        }
        dash.append(n)
      }
      guard dash.contains(where: { $0 > 0 }) else {
        throw r.error("strokeDash", expected: "a dash pattern with at least one length > 0", found: "only zero lengths")
      }
      s.strokeDash = dash
    }
    if let j = try r.choice("lineJoin", ["miter", "round", "bevel"]) {
      s.lineJoin = j == "miter" ? .miter : j == "round" ? .round : .bevel
    }
    s.miterLimit = try r.number("miterLimit", "a miter limit from 1 to \(format(Self.maxMiterLimit))") { $0 >= 1 && $0 <= Self.maxMiterLimit } ?? 4
    if let c = try r.choice("lineCap", ["butt", "round", "square"]) {
      s.lineCap = c == "butt" ? .butt : c == "round" ? .round : .square
    }
    if let m = r.object["marker"] { s.marker = try decodeMarker(m, at: path.key("marker")) }
    if let l = r.object["label"] { s.label = try decodeLabel(l, at: path.key("label")) }
    return s
  }

  /// The text of a label (`field` or `text`) or of an annotation layer
  /// (`textField` or `text`): exactly one of the two.
  func textTemplate(_ r: ObjectReader, field key: String, what: String) throws(SceneError) -> TextTemplate {
    if r.has(key) && r.has("text") { throw r.conflict(key, "text") }
    if let field = try r.string(key, nonEmpty: true) { return TextTemplate(field: field) }
    guard let template = try r.string("text", nonEmpty: true) else {
      throw r.error(
        key, .missingKey, expected: "\"\(key)\": the property holding \(what), or \"text\": a template such as \"{id} {status}\"")
    }
    do {
      return try TextTemplate(parsing: template)
    } catch {
      let (found, hint) = error.explanation
      throw r.error("text", expected: "a text template: {property} for a property's value, {{ and }} for braces", found: found, hint: hint)
    }
  }

  /// `maxWidth`: the width lines wrap at, in ems (Mapbox's text-max-width).
  func maxWidth(_ r: ObjectReader) throws(SceneError) -> Double? {
    try r.number("maxWidth", "a width > 0 in ems (lines wrap at spaces to fit it)") { $0 > 0 && $0 <= Self.maxTextEms }
  }

  /// `letterSpacing`: ems added between characters (Mapbox's
  /// text-letter-spacing); from -1 to the largest text width.
  func letterSpacing(_ r: ObjectReader) throws(SceneError) -> Double {
    try r.number("letterSpacing", "a spacing in ems from -1 to \(format(Self.maxTextEms))") { $0 >= -1 && $0 <= Self.maxTextEms } ?? 0
  }

  /// The largest `maxWidth` and `letterSpacing`, in ems: far beyond any
  /// useful one, small enough that no sum of them overflows a frame's size.
  static let maxTextEms = 1000.0

  func decodeHalo(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Halo {
    let r = try ObjectReader(value, at: path, file: file, what: "a halo", allowed: ["color", "width"])
    let color = try r.color("color") ?? .white
    let width = try r.number("width", "a halo width >= 0 in logical pixels") { $0 >= 0 && $0 <= 100 } ?? 1
    return Halo(color: color, width: width)
  }

  // MARK: - annotation

  private func decodeAnnotation(_ r: ObjectReader) throws(SceneError) -> AnnotationLayer {
    let source = try decodeSource(try r.require("source", "{ \"geojson\": \"file\" } or { \"data\": {…} }"), at: r.path.key("source"))
    let text = try textTemplate(r, field: "textField", what: "each annotation's text")
    let angleField = try r.string("angleField", nonEmpty: true)
    guard let reference = try r.number("referenceScale", "a reference scale > 0 (the scale at which sizes hold)", where: { $0 > 0 && $0.isFinite }) else {
      throw r.missing("referenceScale", "the scale at which text sizes hold")
    }
    let sv = try r.require("sublayers", "an array of sublayers (annotation classes)")
    guard case .array(let list) = sv, !list.isEmpty else {
      throw r.invalid("sublayers", expected: "a non-empty array of sublayers", found: sv)
    }
    var sublayers: [AnnotationSublayer] = []
    var ids = UniqueIDs(file: file, list: r.path.key("sublayers"), expected: "a sublayer id unique in its layer")
    for (i, item) in list.enumerated() {
      let p = r.path.key("sublayers").index(i)
      let sr = try ObjectReader(item, at: p, file: file, what: "an annotation sublayer", allowed: ["id", "where", "visible", "minScale", "maxScale", "style"])
      guard let id = try sr.string("id", nonEmpty: true) else {
        throw sr.missing("id", "the sublayer's (class's) name")
      }
      try ids.insert(id, at: i)
      var sub = AnnotationSublayer(id: id)
      if let w = sr.object["where"] { sub.filter = try decodeFilter(w, at: p.key("where")) }
      sub.visible = try sr.bool("visible") ?? true
      sub.scaleRange = try sr.scaleRange()
      if let st = sr.object["style"] { sub.style = try decodeAnnotationStyle(st, at: p.key("style")) }
      sublayers.append(sub)
    }
    return AnnotationLayer(source: source, text: text, angleField: angleField, referenceScale: reference, sublayers: sublayers)
  }

  private func decodeAnnotationStyle(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> AnnotationStyle {
    let r = try ObjectReader(
      value, at: path, file: file, what: "an annotation style",
      allowed: ["size", "color", "font", "halo", "align", "baseline", "offset", "maxWidth", "letterSpacing"])
    var s = AnnotationStyle()
    s.size = try r.number("size", "a text size > 0 in logical pixels at the reference scale") { $0 > 0 && $0 <= 10000 } ?? 10
    s.color = try r.color("color") ?? .black
    s.font = try r.string("font", nonEmpty: true)
    fonts.append((s.font, path.key("font")))
    if let h = r.object["halo"] { s.halo = try decodeHalo(h, at: path.key("halo")) }
    if let a = try r.choice("align", TextAlign.allCases.map(\.rawValue)) { s.align = TextAlign(rawValue: a)! }
    if let b = try r.choice("baseline", TextBaseline.allCases.map(\.rawValue)) { s.baseline = TextBaseline(rawValue: b)! }
    if let o = try r.numbers(
      "offset", count: 2, "[dx, dy] in logical pixels at the reference scale, each within ±\(format(Self.maxOffsetPixels))",
      where: { abs($0) <= Self.maxOffsetPixels })
    {
      s.offset = (o[0], o[1])
    }
    s.maxWidth = try maxWidth(r)
    s.letterSpacing = try letterSpacing(r)
    return s
  }

  func decodeMarker(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> MarkerStyle {
    let r = try ObjectReader(
      value, at: path, file: file, what: "a marker",
      allowed: ["shape", "icon", "size", "fill", "stroke", "strokeWidth", "opacity", "offset", "collides"])
    var m = MarkerStyle()
    if r.has("shape") && r.has("icon") {
      throw r.conflict("shape", "icon")
    }
    if let shape = try r.choice("shape", MarkerShape.allCases.map(\.rawValue)) { m.shape = MarkerShape(rawValue: shape)! }
    m.icon = try r.string("icon", nonEmpty: true).map { FileIO.resolve($0, against: baseDirectory) }
    m.iconName = try r.string("icon", nonEmpty: true)
    // An icon without a size is drawn at its own height (size 0).
    m.size = try r.number("size", "a size > 0 and at most \(format(Self.maxSymbolPixels)) logical pixels") { $0 > 0 && $0 <= Self.maxSymbolPixels } ?? (m.icon == nil ? 8 : 0)
    if r.has("fill") { m.fill = try r.color("fill") }
    m.stroke = try r.color("stroke")
    m.strokeWidth = try r.number("strokeWidth", "a width from 0 to \(format(Self.maxSymbolPixels)) logical pixels") { $0 >= 0 && $0 <= Self.maxSymbolPixels } ?? 1
    m.opacity = try r.number("opacity", "an opacity from 0 to 1") { $0 >= 0 && $0 <= 1 } ?? 1
    if let o = try r.numbers("offset", count: 2, "[dx, dy] in logical pixels, each within ±\(format(Self.maxOffsetPixels))", where: { abs($0) <= Self.maxOffsetPixels }) { m.offset = (o[0], o[1]) }
    m.collides = try r.bool("collides") ?? false
    return m
  }

  // MARK: - graphics

  private func decodeGraphic(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Graphic {
    let r = try ObjectReader(value, at: path, file: file, what: "a graphic", allowed: ["id", "geometry", "style", "floor"])
    var id: String? = nil
    if let v = r.object["id"] {
      switch v {
      case .string(let s): id = s
      case .number(let n): id = format(n)
      default: throw r.invalid("id", expected: "a string or number", found: v)
      }
    }
    let gv = try r.require("geometry", "a GeoJSON geometry")
    let geometry: Geometry
    do {
      geometry = try GeoJSONDecoder.decodeGeometry(gv, path: path.key("geometry"))
    } catch {
      throw SceneError(file: file, issue: error)
    }
    let style = try decodeStyle(try r.require("style", "a style"), at: path.key("style"))
    let floor = try ViewDecoder.floor(r, "floor")
    return Graphic(id: id, geometry: geometry, style: style, floor: floor)
  }
}

/// Collects font names while decoding (the decoder is a value type).
final class FontList {
  var items: [(String?, JSONPath)] = []

  struct Appender {
    let list: FontList
    func append(_ item: (String?, JSONPath)) { list.items.append(item) }
  }
}

/// Checks that ids in a list are unique; a repeated id is a
/// `SceneError.Kind.duplicateID` at the later item's `id`.
private struct UniqueIDs {
  let file: String
  /// The list's JSON path, such as `layers`.
  let list: JSONPath
  /// What must be unique, as the error's `expected`.
  let expected: String
  private var seen: [String: Int] = [:]

  init(file: String, list: JSONPath, expected: String) {
    self.file = file
    self.list = list
    self.expected = expected
  }

  /// Records `id` of the item at `index`.
  mutating func insert(_ id: String, at index: Int) throws(SceneError) {
    if let first = seen[id] {
      throw SceneError(
        file: file, at: list.index(index).key("id"), kind: .duplicateID(firstPath: list.index(first).description),
        expected: expected, found: "\(Echo.quoted(id))")
    }
    seen[id] = index
  }
}
