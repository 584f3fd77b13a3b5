extension ReportBuilder {
  /// A style layer's block: the zooms (MapLibre's and the scene's), each
  /// style layer with its status, features and problem, each source's
  /// tiles, and the notes about the style as a whole.
  func style(_ s: StyleFrameState) -> JSONValue {
    func num(_ x: Double) -> JSONValue { .number(x) }
    func int(_ x: Int) -> JSONValue { .number(Double(x)) }
    func opt(_ x: String?) -> JSONValue { x.map(JSONValue.string) ?? .null }
    let layers: [JSONValue] = s.layers.map { l in
      .object(JSONObject([
        ("id", .string(l.id)), ("type", .string(l.type)), ("source", opt(l.source)), ("sourceLayer", opt(l.sourceLayer)),
        ("status", .string(l.status.rawValue)), ("featuresRead", int(l.featuresRead)), ("featuresDrawn", int(l.featuresDrawn)),
        ("problem", opt(l.problem)),
      ]))
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
}
