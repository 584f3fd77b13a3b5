/// Writes a `MapState` out as the report of section 6: the map block, each
/// layer's status flags, message and feature counts, and the view
/// annotations' outcomes.
public struct ReportBuilder {
  public let state: MapState
  public let text: TextPlacement
  public let viewAnnotations: ViewAnnotationPlacement

  public init(state: MapState, text: TextPlacement = TextPlacement(), viewAnnotations: ViewAnnotationPlacement = ViewAnnotationPlacement()) {
    self.state = state
    self.text = text
    self.viewAnnotations = viewAnnotations
  }

  private func counts(_ f: FeatureCounts) -> JSONValue {
    .object(
      JSONObject([
        ("total", .number(Double(f.total))),
        ("drawn", .number(Double(f.drawn))),
        ("invalid", .number(Double(f.invalid))),
        ("otherFloor", .number(Double(f.otherFloor))),
      ]))
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
      ("floor", state.floor.map(\.json) ?? .null),
    ])
    let layers = state.layers.map { l -> JSONValue in
      var pairs: [(String, JSONValue)] = [
        ("id", .string(l.id)),
        ("type", .string(l.kind.rawValue)),
        ("status", .array(l.status.names.map(JSONValue.string))),
        ("message", l.message.map(JSONValue.string) ?? .null),
        ("features", counts(l.features)),
      ]
      if l.kind == .annotation {
        pairs.append(
          (
            "sublayers",
            .array(
              l.sublayers.map { s in
                .object(
                  JSONObject([
                    ("id", .string(s.id)), ("status", .array(s.status.names.map(JSONValue.string))), ("features", counts(s.features)),
                  ]))
              })
          ))
      }
      if l.kind == .features {
        let c = text.labelCounts[l.index] ?? (0, 0)
        pairs.append(("labels", .object(JSONObject([("placed", .number(Double(c.placed))), ("dropped", .number(Double(c.dropped)))]))))
      }
      return .object(JSONObject(pairs))
    }
    let textBlock = JSONObject([
      ("fonts", .array(text.fontsUsed.map(JSONValue.string))),
      ("missingCodePoints", .array(text.missingCodePoints.map { .string(codePointName($0)) })),
    ])
    return .object(
      JSONObject([
        ("map", .object(map)),
        ("layers", .array(layers)),
        ("text", .object(textBlock)),
        ("viewAnnotations", .array(viewAnnotations.outcomes.map(outcome))),
      ]))
  }
}

extension ReportBuilder {
  /// `{ id, visible: true, anchor, box: [x, y, w, h] }` or
  /// `{ id, visible: false, reason, blockedBy? }`, boxes in logical pixels.
  func outcome(_ o: ViewAnnotationOutcome) -> JSONValue {
    var pairs: [(String, JSONValue)] = [("id", .string(o.id)), ("visible", .bool(o.visible))]
    if o.visible, let anchor = o.anchor, let b = o.box {
      pairs.append(("anchor", .string(anchor.rawValue)))
      pairs.append(("box", .array([b.minX, b.minY, b.width, b.height].map(JSONValue.number))))
    } else {
      pairs.append(("reason", .string(o.reason?.rawValue ?? "outOfBounds")))
      if o.reason == .collision { pairs.append(("blockedBy", .array(o.blockedBy.map(JSONValue.string)))) }
    }
    return .object(JSONObject(pairs))
  }
}

/// `U+4E2D` style name of a code point.
func codePointName(_ s: Unicode.Scalar) -> String {
  let hex = String(s.value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
