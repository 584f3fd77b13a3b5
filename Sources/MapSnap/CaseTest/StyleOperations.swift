/// The run-time edits of a style case (`metadata.test.operations`, each an
/// array `[name, arguments…]` as the render suite writes GL JS's map calls),
/// applied to the style's JSON before its one frame is drawn: what the map
/// would hold after the calls, as a style document.
///
/// - Style edits: `setPaintProperty` and `setLayoutProperty` (layer, name,
///   value; `null` removes the property), `setFilter` (layer, filter; `null`
///   removes it), `addLayer` (layer, optional id of the layer to insert it
///   before; a `source` given as an object is added as a source named after
///   the layer, as GL JS does), `removeLayer`, `addSource` (id, source),
///   `removeSource` (refused while a layer uses it), `setLayerZoomRange`
///   (layer, minzoom, maxzoom; `null` keeps the value), `setStyle` (a whole
///   new style; the camera fields it does not give stay as they were, as the
///   map's camera does) and `wait` (nothing: a static frame has no
///   transitions or loading to wait for).
/// - Camera edits write the style's own camera: `setCenter` ([lon, lat]),
///   `setZoom`, `setBearing`, `setPitch` (numbers).
/// - Any other operation (`addImage`, `addClass`, `setFeatureState`, a query,
///   a `setStyle` by URL…) is not applied: the case is unsupported
///   (``unsupported(_:)``).
public enum StyleOperations {
  /// The operations applied to the style document.
  public static let styleEdits: Set<String> = [
    "setPaintProperty", "setLayoutProperty", "setFilter", "addLayer", "removeLayer", "addSource", "removeSource", "setLayerZoomRange",
    "setStyle", "wait",
  ]
  /// The operations applied to the style's camera (`center`, `zoom`, `bearing`, `pitch`).
  public static let cameraEdits: [String: String] = ["setCenter": "center", "setZoom": "zoom", "setBearing": "bearing", "setPitch": "pitch"]
  /// The root members a `setStyle` keeps from the style it replaces when the new one lacks them.
  static let cameraFields = ["center", "zoom", "bearing", "pitch"]

  /// The operation's name: its first element, when it is an array starting with a string.
  public static func name(_ operation: JSONValue) -> String? {
    guard case .array(let a) = operation, case .string(let n)? = a.first else { return nil }
    return n
  }

  /// Nil when `apply` applies the operation; otherwise why the case that
  /// holds it is unsupported.
  public static func unsupported(_ operation: JSONValue) -> String? {
    guard let n = name(operation) else { return nil }  // `apply` reports the malformed ones
    if n == "setStyle", case .array(let a) = operation, a.count > 1, case .object = a[1] {
      return nil
    } else if n == "setStyle" {
      return "operation setStyle with a style given by URL (only a style given inline is applied)"
    }
    if styleEdits.contains(n) || cameraEdits[n] != nil { return nil }
    return "operation \(n) (mapsnap applies the style and camera edits only)"
  }

  /// `style` after `operations`, in order.
  /// - Throws: `StyleOperationError` for an operation that is malformed or
  ///   names a layer or source that is not there (or already is), or one
  ///   that `unsupported` refuses.
  public static func apply(_ operations: [JSONValue], to style: JSONValue) throws(StyleOperationError) -> JSONValue {
    guard case .object(var doc) = style else {
      throw StyleOperationError(index: 0, operation: operations.first.flatMap(name) ?? "", kind: .invalidArgument(position: 0, expected: "a style object", found: describe(style)))
    }
    for (i, op) in operations.enumerated() {
      try apply(op, index: i, to: &doc)
    }
    return .object(doc)
  }

  /// One operation.
  static func apply(_ op: JSONValue, index: Int, to doc: inout JSONObject) throws(StyleOperationError) {
    guard let n = name(op), case .array(let a) = op else { throw StyleOperationError(index: index, operation: "", kind: .notAnOperation) }
    let args = Array(a.dropFirst())
    func fail(_ kind: StyleOperationError.Kind) -> StyleOperationError { StyleOperationError(index: index, operation: n, kind: kind) }
    func argument(_ k: Int, _ expected: String) throws(StyleOperationError) -> JSONValue {
      guard k < args.count else { throw fail(.invalidArgument(position: k + 1, expected: expected, found: "nothing")) }
      return args[k]
    }
    func string(_ k: Int, _ expected: String) throws(StyleOperationError) -> String {
      let v = try argument(k, expected)
      guard case .string(let s) = v else { throw fail(.invalidArgument(position: k + 1, expected: expected, found: describe(v))) }
      return s
    }
    func number(_ k: Int, _ expected: String) throws(StyleOperationError) -> JSONValue {
      let v = try argument(k, expected)
      guard case .number(let x) = v, x.isFinite else { throw fail(.invalidArgument(position: k + 1, expected: expected, found: describe(v))) }
      return v
    }
    if let reason = unsupported(op) {
      throw fail(.invalidArgument(position: 0, expected: "an operation mapsnap applies", found: reason))
    }
    if let field = cameraEdits[n] {
      if field == "center" {
        let v = try argument(0, "[lon, lat]")
        guard case .array(let c) = v, c.count == 2, c.allSatisfy({ if case .number(let x) = $0 { x.isFinite } else { false } }) else {
          throw fail(.invalidArgument(position: 1, expected: "[lon, lat]", found: describe(v)))
        }
        doc[field] = v
      } else {
        doc[field] = try number(0, "a number")
      }
      return
    }
    switch n {
    case "wait":
      return
    case "setStyle":
      guard case .object(var next) = try argument(0, "a style object") else { return }
      for f in cameraFields where next[f] == nil { next[f] = doc[f] }
      doc = next
    case "setPaintProperty", "setLayoutProperty":
      let id = try string(0, "a layer id")
      let property = try string(1, "a property name")
      let value = try argument(2, "a value (null removes the property)")
      let group = n == "setPaintProperty" ? "paint" : "layout"
      try editLayer(id, in: &doc, fail) { layer throws(StyleOperationError) in
        var members: JSONObject = [:]
        if case .object(let o)? = layer[group] { members = o }
        members[property] = value == .null ? JSONValue?.none : value
        layer[group] = .object(members)
      }
    case "setFilter":
      let id = try string(0, "a layer id")
      let filter = args.count > 1 ? args[1] : .null
      try editLayer(id, in: &doc, fail) { layer throws(StyleOperationError) in layer["filter"] = filter == .null ? JSONValue?.none : filter }
    case "setLayerZoomRange":
      let id = try string(0, "a layer id")
      var range: [(String, JSONValue)] = []
      for (k, key) in [(1, "minzoom"), (2, "maxzoom")] where k < args.count && args[k] != .null {
        range.append((key, try number(k, "a zoom level or null")))
      }
      try editLayer(id, in: &doc, fail) { layer throws(StyleOperationError) in
        for (key, v) in range { layer[key] = v }
      }
    case "removeLayer":
      let id = try string(0, "a layer id")
      var layers = try self.layers(doc, fail)
      guard let i = position(of: id, in: layers) else { throw fail(.missingLayer(id)) }
      layers.remove(at: i)
      doc["layers"] = .array(layers)
    case "addLayer":
      let v = try argument(0, "a layer object")
      guard case .object(var layer) = v, case .string(let id)? = layer["id"] else {
        throw fail(.invalidArgument(position: 1, expected: "a layer object with an \"id\"", found: describe(v)))
      }
      var layers = doc["layers"] == nil ? [] : try self.layers(doc, fail)
      if position(of: id, in: layers) != nil { throw fail(.duplicateLayer(id)) }
      var at = layers.count
      if args.count > 1, args[1] != .null {
        let before = try string(1, "the id of the layer to insert before")
        guard let i = position(of: before, in: layers) else { throw fail(.missingLayer(before)) }
        at = i
      }
      if case .object(let source)? = layer["source"] {
        try addSource(id, .object(source), to: &doc, fail)
        layer["source"] = .string(id)
      }
      layers.insert(.object(layer), at: at)
      doc["layers"] = .array(layers)
    case "addSource":
      let id = try string(0, "a source id")
      let v = try argument(1, "a source object")
      guard case .object = v else { throw fail(.invalidArgument(position: 2, expected: "a source object", found: describe(v))) }
      try addSource(id, v, to: &doc, fail)
    case "removeSource":
      let id = try string(0, "a source id")
      guard case .object(var sources)? = doc["sources"], sources[id] != nil else { throw fail(.missingSource(id)) }
      if case .array(let layers)? = doc["layers"] {
        for case .object(let l) in layers where l["source"] == .string(id) {
          throw fail(.sourceInUse(source: id, layer: { if case .string(let s)? = l["id"] { s } else { "" } }()))
        }
      }
      sources[id] = nil
      doc["sources"] = .object(sources)
    default:
      // `unsupported` lets through only the names handled above.
      throw fail(.invalidArgument(position: 0, expected: "an operation mapsnap applies", found: Echo.quoted(n)))
    }
  }

  private static func addSource(
    _ id: String, _ source: JSONValue, to doc: inout JSONObject, _ fail: (StyleOperationError.Kind) -> StyleOperationError
  ) throws(StyleOperationError) {
    var sources: JSONObject = [:]
    if case .object(let o)? = doc["sources"] { sources = o }
    if sources[id] != nil { throw fail(.duplicateSource(id)) }
    sources[id] = source
    doc["sources"] = .object(sources)
  }

  /// The style's layers, each an object.
  private static func layers(_ doc: JSONObject, _ fail: (StyleOperationError.Kind) -> StyleOperationError) throws(StyleOperationError) -> [JSONValue] {
    guard case .array(let layers)? = doc["layers"] else { throw fail(.noLayers) }
    return layers
  }

  /// The index of the layer `id` among `layers`.
  private static func position(of id: String, in layers: [JSONValue]) -> Int? {
    layers.firstIndex { if case .object(let o) = $0, case .string(let s)? = o["id"] { s == id } else { false } }
  }

  /// Changes the layer `id` in place.
  private static func editLayer(
    _ id: String, in doc: inout JSONObject, _ fail: (StyleOperationError.Kind) -> StyleOperationError,
    _ edit: (inout JSONObject) throws(StyleOperationError) -> Void
  ) throws(StyleOperationError) {
    var layers = try self.layers(doc, fail)
    guard let i = position(of: id, in: layers), case .object(var layer) = layers[i] else { throw fail(.missingLayer(id)) }
    try edit(&layer)
    layers[i] = .object(layer)
    doc["layers"] = .array(layers)
  }
}
