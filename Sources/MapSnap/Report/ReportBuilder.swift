/// Writes a `MapState` out as the report of section 6: the map block, each
/// layer's status flags, message and feature counts, and the view
/// annotations' outcomes.
public struct ReportBuilder {
  public let state: MapState

  public init(state: MapState) {
    self.state = state
  }

  public func build() -> JSONValue {
    let v = state.viewport
    let e = v.extent
    let b = v.bounds
    let map = JSONObject([
      ("scale", .number(v.scale)),
      ("zoom", .number(v.zoom)),
      ("metersPerPixel", .number(v.metersPerPixel)),
      ("center", .array([.number(v.center.lon), .number(v.center.lat)])),
      ("size", .array([.number(Double(v.width)), .number(Double(v.height))])),
      ("pixelRatio", .number(v.pixelRatio)),
      ("imageSize", .array([.number(Double(v.deviceWidth)), .number(Double(v.deviceHeight))])),
      ("dpi", .number(v.dpi)),
      ("extent", .array([e.minX, e.minY, e.maxX, e.maxY].map(JSONValue.number))),
      ("bounds", .array([b.west, b.south, b.east, b.north].map(JSONValue.number))),
      ("floor", state.floor.map { .string($0.text) } ?? .null),
    ])
    let layers = state.layers.map { l -> JSONValue in
      .object(
        JSONObject([
          ("id", .string(l.id)),
          ("type", .string(l.kind.rawValue)),
          ("status", .array(l.status.names.map(JSONValue.string))),
          ("message", l.message.map(JSONValue.string) ?? .null),
          (
            "features",
            .object(
              JSONObject([
                ("total", .number(Double(l.features.total))),
                ("drawn", .number(Double(l.features.drawn))),
                ("invalid", .number(Double(l.features.invalid))),
                ("otherFloor", .number(Double(l.features.otherFloor))),
              ]))
          ),
        ]))
    }
    return .object(
      JSONObject([
        ("map", .object(map)),
        ("layers", .array(layers)),
        ("viewAnnotations", .array([])),
      ]))
  }
}
