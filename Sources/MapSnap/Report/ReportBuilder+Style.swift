extension ReportBuilder {
  /// A style layer's block: the zooms (MapLibre's and the scene's), each
  /// style layer with its status, features and problem (a symbol layer with
  /// its symbols: `symbolBlock`), each source's tiles, and the notes about
  /// the style as a whole.
  func style(_ s: StyleFrameState, symbols: StyleSymbolPlacement?) -> JSONValue {
    func num(_ x: Double) -> JSONValue { .number(x) }
    func int(_ x: Int) -> JSONValue { .number(Double(x)) }
    func opt(_ x: String?) -> JSONValue { x.map(JSONValue.string) ?? .null }
    var symbolLayer: [Int: Int] = [:]
    for (k, sl) in s.symbolLayers.enumerated() { symbolLayer[sl.layerIndex] = k }
    let layers: [JSONValue] = s.layers.enumerated().map { li, l in
      var o = JSONObject([
        ("id", .string(l.id)), ("type", .string(l.type)), ("source", opt(l.source)), ("sourceLayer", opt(l.sourceLayer)),
        ("status", .string(l.status.rawValue)), ("featuresRead", int(l.featuresRead)), ("featuresDrawn", int(l.featuresDrawn)),
        ("problem", opt(l.problem)),
      ])
      if let k = symbolLayer[li], let placed = symbols?.layers[k] { o["symbols"] = symbolBlock(s.symbolLayers[k], placed) }
      return .object(o)
    }
    let sources: [JSONValue] = s.sources.map { r in
      .object(JSONObject([
        ("id", .string(r.id)), ("type", .string(r.type)), ("from", opt(r.from)),
        ("tileZoom", r.tileZoom.map { int($0) } ?? .null), ("overzoomed", .bool(r.overzoomed)),
        ("tilesRead", int(r.tilesRead)), ("tilesMissing", int(r.tilesMissing)), ("tilesUndecodable", int(r.tilesUndecodable)),
        ("firstUndecodable", opt(r.firstUndecodable)), ("problem", opt(r.problem)),
      ]))
    }
    return .object(JSONObject([
      ("zoom", num(s.zoom)), ("sceneZoom", num(s.zoom + 1)), ("bearing", num(s.bearing)),
      ("layers", .array(layers)), ("sources", .array(sources)), ("notes", .array(s.notes.map(JSONValue.string))),
    ]))
  }

  /// A symbol layer's symbols: how many are shown (`optionalDropped` of
  /// them without their optional text or icon), how many hidden by reason,
  /// and (unless `--report-detail counts`) each symbol in the
  /// layout's order: its key (`StyleSymbol.key`), its text and icon, its
  /// outcome (`placed`, or a `StyleSymbolHiddenReason`), the parts drawn,
  /// what blocked it, its anchor in logical pixels and what it lacks.
  func symbolBlock(_ layer: StyleSymbolLayerState, _ placed: StyleSymbolPlacement.Layer) -> JSONValue {
    let ratio = plan.state.viewport.pixelRatio
    var shown = 0, partDropped = 0
    var hidden: [StyleSymbolHiddenReason: Int] = [:]
    for o in placed.outcomes {
      if o.isShown { shown += 1 }
      if o.reason == .optionalDropped { partDropped += 1 } else if let r = o.reason { hidden[r, default: 0] += 1 }
    }
    var block = JSONObject([
      ("placed", .number(Double(shown))), ("optionalDropped", .number(Double(partDropped))),
      ("hidden", .object(JSONObject(StyleSymbolHiddenReason.allCases.compactMap { r in hidden[r].map { (r.rawValue, .number(Double($0))) } }))),
    ])
    if detail == .full {
      block["entries"] = .array(
        zip(layer.symbols, placed.outcomes).map { s, o in
          var drawn: [JSONValue] = []
          if o.text { drawn.append("text") }
          if o.icon { drawn.append("icon") }
          return .object(
            JSONObject([
              ("key", .string(s.key)), ("text", s.text.map { .string($0.string) } ?? .null), ("icon", s.icon.map { .string($0.name) } ?? .null),
              ("outcome", .string(o.reason.map { $0 == .optionalDropped ? "placed" : $0.rawValue } ?? "placed")),
              ("drawn", .array(drawn)), ("dropped", o.reason == .optionalDropped ? .string(s.text != nil && !o.text ? "text" : "icon") : .null),
              ("blockedBy", o.blockedBy.map(JSONValue.string) ?? .null),
              ("anchor", .array([.number(Self.rounded(s.anchor.x / ratio)), .number(Self.rounded(s.anchor.y / ratio))])),
              ("missing", .array(s.missing.map(JSONValue.string))),
            ]))
        })
    }
    return .object(block)
  }

  /// A logical-pixel coordinate to 1/100 pixel, as the report writes boxes.
  static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }
}
