/// The parts of a report (schemaVersion 2) that `ReportDiff` compares, read
/// from its JSON with the path of anything missing or of the wrong type.
/// Only the keys the comparison reads are checked; keys it does not know are
/// ignored (later versions may add keys without changing schemaVersion).
struct ParsedReport {
  struct Layer {
    var id: String
    var status: [String]
    var message: String?
    var drawn: Int
    /// nil for a layer without `sublayers` (not an annotation layer).
    var sublayers: [Sublayer]?
    /// `labels.placed` and `labels.hidden` by reason; nil without `labels`.
    var labelCounts: [(name: String, count: Int)]?
    /// `labels.entries`; nil when the layer has `labels` without entries
    /// (`--report-detail counts`), empty when it has no `labels` at all.
    var labels: [Label]?
    /// `texts`; nil when the layer has `sublayers` but no texts
    /// (`--report-detail counts`), empty when it has no `sublayers`.
    var texts: [Text]?
    /// The symbols of the style's symbol layers (`style.layers[].symbols.entries`),
    /// style layer by style layer; nil when a symbol layer lists no entries
    /// (`--report-detail counts`).
    var styleSymbols: [StyleSymbol]? = []

    var isActive: Bool { status.contains("active") }
  }

  struct StyleSymbol {
    var styleLayer: String
    var key: String
    /// Its text, or for an icon alone the icon's name.
    var text: String
    var outcome: String
    var blockedBy: [String]
  }

  struct Sublayer {
    var id: String
    var status: [String]
    var drawn: Int
  }

  struct Label {
    var feature: FeatureKey
    var part: Int
    var text: String
    var outcome: String
    /// `layer/feature` of each entry of `blockedBy`.
    var blockedBy: [String]
  }

  struct Text {
    var sublayer: String
    var feature: FeatureKey
    var part: Int
    var text: String
    var outcome: String
  }

  struct ViewAnnotation {
    var id: String
    var visible: Bool
    var reason: String?
    var blockedBy: [String]
    var warning: String?
  }

  var scale: Double
  var floor: FloorValue?
  var layers: [Layer]
  var viewAnnotations: [ViewAnnotation]

  private let report: ReportDiffError.Report

  init(_ json: JSONValue, report: ReportDiffError.Report) throws(ReportDiffError) {
    self.report = report
    let root = JSONPath()
    let doc = try Self.object(json, root, expected: "a report object", report: report)
    guard let version = doc["schemaVersion"] else {
      throw ReportDiffError(
        report: report, path: root.key("schemaVersion").description, kind: .missingKey,
        expected: "schemaVersion \(ReportBuilder.schemaVersion)")
    }
    guard version == .number(Double(ReportBuilder.schemaVersion)) else {
      throw ReportDiffError(
        report: report, path: root.key("schemaVersion").description, kind: .unsupportedVersion,
        expected: "\(ReportBuilder.schemaVersion)", found: describe(version))
    }
    scale = 0
    floor = nil
    layers = []
    viewAnnotations = []
    let mapPath = root.key("map")
    let map = try object(required(doc, "map", root, expected: "an object"), mapPath, expected: "an object")
    scale = try number(required(map, "scale", mapPath, expected: "a number"), mapPath.key("scale"), expected: "a number")
    let floorPath = mapPath.key("floor")
    switch try required(map, "floor", mapPath, expected: "a string, number or null") {
    case .null: floor = nil
    case let f:
      guard let value = FloorValue(json: f) else { throw invalid(floorPath, "a string, number or null", f) }
      floor = value
    }
    let layersPath = root.key("layers")
    for (i, l) in try array(required(doc, "layers", root, expected: "an array"), layersPath).enumerated() {
      layers.append(try layer(l, layersPath.index(i)))
    }
    let vaPath = root.key("viewAnnotations")
    for (i, v) in try array(required(doc, "viewAnnotations", root, expected: "an array"), vaPath).enumerated() {
      viewAnnotations.append(try viewAnnotation(v, vaPath.index(i)))
    }
  }

  // MARK: - Parts

  private func layer(_ json: JSONValue, _ path: JSONPath) throws(ReportDiffError) -> Layer {
    let o = try object(json, path, expected: "a layer object")
    let id = try string(required(o, "id", path, expected: "a string"), path.key("id"))
    let status = try flags(required(o, "status", path, expected: "an array of status flags"), path.key("status"))
    let messagePath = path.key("message")
    let message: String?
    switch try required(o, "message", path, expected: "a string or null") {
    case .null: message = nil
    case .string(let s): message = s
    case let other: throw invalid(messagePath, "a string or null", other)
    }
    let drawn = try self.drawn(o, path)
    var layer = Layer(id: id, status: status, message: message, drawn: drawn, sublayers: nil, labelCounts: nil, labels: [], texts: [])
    if let subs = o["sublayers"] {
      let subsPath = path.key("sublayers")
      var list: [Sublayer] = []
      for (i, s) in try array(subs, subsPath).enumerated() {
        let sp = subsPath.index(i)
        let so = try object(s, sp, expected: "a sublayer object")
        list.append(
          Sublayer(
            id: try string(required(so, "id", sp, expected: "a string"), sp.key("id")),
            status: try flags(required(so, "status", sp, expected: "an array of status flags"), sp.key("status")),
            drawn: try self.drawn(so, sp)))
      }
      layer.sublayers = list
      layer.texts = nil
    }
    if let texts = o["texts"] {
      let tp = path.key("texts")
      layer.texts = try array(texts, tp).enumerated().map { (i, t) throws(ReportDiffError) in try text(t, tp.index(i)) }
    }
    if case .object(let style)? = o["style"], case .array(let styleLayers)? = style["layers"] {
      layer.styleSymbols = try styleSymbols(styleLayers, path.key("style").key("layers"))
    }
    if let labels = o["labels"] {
      let lp = path.key("labels")
      let lo = try object(labels, lp, expected: "an object")
      var counts = [(name: "labels.placed", count: try count(required(lo, "placed", lp, expected: "a count"), lp.key("placed")))]
      let hp = lp.key("hidden")
      let hidden = try object(required(lo, "hidden", lp, expected: "an object"), hp, expected: "an object")
      for (reason, n) in hidden.pairs { counts.append(("labels.hidden." + reason, try count(n, hp.key(reason)))) }
      layer.labelCounts = counts
      if let entries = lo["entries"] {
        let ep = lp.key("entries")
        layer.labels = try array(entries, ep).enumerated().map { (i, e) throws(ReportDiffError) in try label(e, ep.index(i)) }
      } else {
        layer.labels = nil
      }
    }
    return layer
  }

  /// The symbols of each symbol layer of a style block; nil when one of
  /// them has `symbols` without `entries`.
  private func styleSymbols(_ layers: [JSONValue], _ path: JSONPath) throws(ReportDiffError) -> [StyleSymbol]? {
    var out: [StyleSymbol] = []
    for (i, l) in layers.enumerated() {
      let lp = path.index(i)
      guard case .object(let lo) = l, let symbols = lo["symbols"] else { continue }
      let id = try string(required(lo, "id", lp, expected: "a string"), lp.key("id"))
      let sp = lp.key("symbols")
      let so = try object(symbols, sp, expected: "an object")
      guard let entries = so["entries"] else { return nil }
      let ep = sp.key("entries")
      for (k, e) in try array(entries, ep).enumerated() {
        let p = ep.index(k)
        let eo = try object(e, p, expected: "a symbol object")
        var text = ""
        if case .string(let t)? = eo["text"] { text = t } else if case .string(let icon)? = eo["icon"] { text = icon }
        var blockers: [String] = []
        if case .string(let b)? = eo["blockedBy"] { blockers = [b] }
        out.append(
          StyleSymbol(
            styleLayer: id, key: try string(required(eo, "key", p, expected: "a string"), p.key("key")), text: text,
            outcome: try string(required(eo, "outcome", p, expected: "a string"), p.key("outcome")), blockedBy: blockers))
      }
    }
    return out
  }

  private func drawn(_ o: JSONObject, _ path: JSONPath) throws(ReportDiffError) -> Int {
    let fp = path.key("features")
    let f = try object(required(o, "features", path, expected: "an object"), fp, expected: "an object")
    return try count(required(f, "drawn", fp, expected: "a count"), fp.key("drawn"))
  }

  /// `id` (string, number or null) and `key` of a label, text or blocker.
  private func feature(_ o: JSONObject, _ path: JSONPath) throws(ReportDiffError) -> FeatureKey {
    let idPath = path.key("id")
    let idValue = try required(o, "id", path, expected: "a string, number or null")
    var id: FeatureID? = nil
    if idValue != .null {
      guard let v = FeatureID(json: idValue) else { throw invalid(idPath, "a string, number or null", idValue) }
      id = v
    }
    let keyValue = try required(o, "key", path, expected: "a feature key (a string)")
    guard case .string(let key) = keyValue, !key.isEmpty else { throw invalid(path.key("key"), "a feature key (a string)", keyValue) }
    return FeatureKey(id: id, index: 0, digest: key)
  }

  private func label(_ json: JSONValue, _ path: JSONPath) throws(ReportDiffError) -> Label {
    let o = try object(json, path, expected: "a label object")
    var blockers: [String] = []
    if let b = o["blockedBy"] {
      let bp = path.key("blockedBy")
      for (i, x) in try array(b, bp).enumerated() {
        let xp = bp.index(i)
        let xo = try object(x, xp, expected: "an object")
        let layer = try string(required(xo, "layer", xp, expected: "a string"), xp.key("layer"))
        blockers.append(layer + "/" + (try feature(xo, xp)).text)
      }
    }
    return Label(
      feature: try feature(o, path), part: try count(required(o, "part", path, expected: "a count"), path.key("part")),
      text: try string(required(o, "text", path, expected: "a string"), path.key("text")),
      outcome: try string(required(o, "outcome", path, expected: "a string"), path.key("outcome")), blockedBy: blockers)
  }

  private func text(_ json: JSONValue, _ path: JSONPath) throws(ReportDiffError) -> Text {
    let o = try object(json, path, expected: "an annotation text object")
    return Text(
      sublayer: try string(required(o, "sublayer", path, expected: "a string"), path.key("sublayer")),
      feature: try feature(o, path), part: try count(required(o, "part", path, expected: "a count"), path.key("part")),
      text: try string(required(o, "text", path, expected: "a string"), path.key("text")),
      outcome: try string(required(o, "outcome", path, expected: "a string"), path.key("outcome")))
  }

  private func viewAnnotation(_ json: JSONValue, _ path: JSONPath) throws(ReportDiffError) -> ViewAnnotation {
    let o = try object(json, path, expected: "a view annotation object")
    let id = try string(required(o, "id", path, expected: "a string"), path.key("id"))
    let visiblePath = path.key("visible")
    let visibleValue = try required(o, "visible", path, expected: "a boolean")
    guard case .bool(let visible) = visibleValue else { throw invalid(visiblePath, "a boolean", visibleValue) }
    var reason: String? = nil
    if !visible { reason = try string(required(o, "reason", path, expected: "a string (visible is false)"), path.key("reason")) }
    var blockers: [String] = []
    if let b = o["blockedBy"] {
      let bp = path.key("blockedBy")
      blockers = try array(b, bp).enumerated().map { (i, x) throws(ReportDiffError) in try string(x, bp.index(i)) }
    }
    let warning = try o["warning"].map { (w) throws(ReportDiffError) in try string(w, path.key("warning")) }
    return ViewAnnotation(id: id, visible: visible, reason: reason, blockedBy: blockers, warning: warning)
  }

  // MARK: - Values

  private func invalid(_ path: JSONPath, _ expected: String, _ found: JSONValue) -> ReportDiffError {
    ReportDiffError(report: report, path: path.description, kind: .invalidValue, expected: expected, found: describe(found))
  }

  private func required(_ o: JSONObject, _ key: String, _ path: JSONPath, expected: String) throws(ReportDiffError) -> JSONValue {
    guard let v = o[key] else {
      throw ReportDiffError(report: report, path: path.key(key).description, kind: .missingKey, expected: expected)
    }
    return v
  }

  private static func object(
    _ v: JSONValue, _ path: JSONPath, expected: String, report: ReportDiffError.Report
  ) throws(ReportDiffError) -> JSONObject {
    guard case .object(let o) = v else {
      throw ReportDiffError(report: report, path: path.description, kind: .invalidValue, expected: expected, found: describe(v))
    }
    return o
  }

  private func object(_ v: JSONValue, _ path: JSONPath, expected: String) throws(ReportDiffError) -> JSONObject {
    try Self.object(v, path, expected: expected, report: report)
  }

  private func array(_ v: JSONValue, _ path: JSONPath, expected: String = "an array") throws(ReportDiffError) -> [JSONValue] {
    guard case .array(let a) = v else { throw invalid(path, expected, v) }
    return a
  }

  private func string(_ v: JSONValue, _ path: JSONPath) throws(ReportDiffError) -> String {
    guard case .string(let s) = v else { throw invalid(path, "a string", v) }
    return s
  }

  private func number(_ v: JSONValue, _ path: JSONPath, expected: String) throws(ReportDiffError) -> Double {
    guard case .number(let n) = v else { throw invalid(path, expected, v) }
    return n
  }

  /// A whole number >= 0.
  private func count(_ v: JSONValue, _ path: JSONPath) throws(ReportDiffError) -> Int {
    guard case .number(let n) = v, n >= 0, n == n.rounded(), n < 1e15 else { throw invalid(path, "a count (a whole number >= 0)", v) }
    return Int(n)
  }

  private func flags(_ v: JSONValue, _ path: JSONPath) throws(ReportDiffError) -> [String] {
    try array(v, path, expected: "an array of status flags").enumerated().map { (i, f) throws(ReportDiffError) in
      guard case .string(let s) = f else { throw invalid(path.index(i), "a status flag (a string)", f) }
      return s
    }
  }
}
