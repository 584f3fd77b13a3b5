/// Writes a `FramePlan` out as the report of section 6 (schema:
/// `docs/report.schema.json`): the map block, each layer's status flags,
/// problems and counts, its labels and annotation texts one by one, and the
/// view annotations' outcomes. Its only input is the frame record
/// (`FramePlan`): it prints the records' decisions and makes none, never a
/// reason.
public struct ReportBuilder {
  /// Bumped when a key changes meaning or is removed; adding keys does not.
  public static let schemaVersion = 2

  public let plan: FramePlan
  public let detail: ReportDetail

  public init(plan: FramePlan, detail: ReportDetail = .full) {
    self.plan = plan
    self.detail = detail
  }

  public func build() -> JSONValue {
    let state = plan.state
    let v = state.viewport
    let e = v.extent
    let b = v.bounds
    var map = JSONObject([
      ("spatialReference", v.projection.epsgCode.map { .number(Double($0)) } ?? .string(v.projection.identifier)),
      ("units", .string(v.projection.unitName)),
      ("scale", .number(v.scale)),
      ("zoom", v.zoom.map(JSONValue.number) ?? .null),
      ("metersPerPixel", .number(v.metersPerPixel)),
      ("center", .array([.number(v.center.lon), .number(v.center.lat)])),
      ("centerMap", .array([.number(v.centerMap.x), .number(v.centerMap.y)])),
      ("size", .array([.number(Double(v.width)), .number(Double(v.height))])),
      ("pixelRatio", .number(v.pixelRatio)),
      ("imageSize", .array([.number(Double(v.deviceWidth)), .number(Double(v.deviceHeight))])),
      ("dpi", .number(v.dpi)),
      ("extent", .array([e.minX, e.minY, e.maxX, e.maxY].map(JSONValue.number))),
      ("bounds", .array([b.west, b.south, b.east, b.north].map(JSONValue.number))),
      ("floor", state.floor.map(\.json) ?? .null),
      ("attribution", plan.attribution.text.map(JSONValue.string) ?? .null),
    ])
    if let f = v.fitting { map["fit"] = fit(f) }
    if plan.scene.map.scaleBar != nil {
      map["scaleBar"] =
        plan.furniture.scaleBar.map { b in
          .object(
            JSONObject([
              ("length", .number(b.length)), ("units", .string(b.units)), ("label", .string(b.label)),
              ("widthPixels", .number(b.widthPixels)), ("groundMetersPerPixel", .number(b.groundMetersPerPixel)),
              ("position", .string(b.position.rawValue)),
            ]))
        } ?? .null
    }
    if plan.scene.map.northArrow != nil {
      map["northArrow"] =
        plan.furniture.northArrow.map { a in
          .object(JSONObject([("angle", .number(a.angle)), ("position", .string(a.position.rawValue))]))
        } ?? .null
    }
    var entries: [Int: [LabelOutcome]] = [:]
    for o in plan.text.outcomes { entries[o.layerIndex, default: []].append(o) }
    let layers = plan.layers.enumerated().map { li, l in
      layer(l, labels: entries[li] ?? [], counts: plan.text.labelCounts[li], symbols: plan.styleSymbols[li])
    }
    let textBlock = JSONObject([
      ("fonts", .array(plan.text.fontsUsed.map(JSONValue.string))),
      ("missingCodePoints", .array(plan.text.missingCodePoints.map { .string(codePointName($0)) })),
      ("shaping", plan.text.shaping.map(JSONValue.string) ?? .null),
    ])
    return .object(
      JSONObject([
        ("schemaVersion", .number(Double(Self.schemaVersion))),
        ("map", .object(map)),
        ("layers", .array(layers)),
        ("text", .object(textBlock)),
        ("viewAnnotations", .array(plan.viewAnnotations.outcomes.map(outcome))),
        ("warnings", .array(plan.warnings.map(JSONValue.string))),
      ]))
  }

  /// `map.fit`: the box, and whether the scale was fitted (with the
  /// padding) or kept and why.
  private func fit(_ f: ViewFitting) -> JSONValue {
    .object(
      JSONObject([
        ("box", .string(f.box.rawValue)),
        ("scale", .string(f.scaleFitted ? "fitted" : "kept")),
        ("keptBecause", f.keptBecause.map { .string($0.rawValue) } ?? .null),
        ("padding", f.padding.map { p in .array([p.top, p.right, p.bottom, p.left].map(JSONValue.number)) } ?? .null),
      ]))
  }

  // MARK: - Layers

  private func layer(_ l: LayerRecord, labels: [LabelOutcome], counts: LabelCounts?, symbols: StyleSymbolPlacement?) -> JSONValue {
    var pairs: [(String, JSONValue)] = [
      ("id", .string(l.id)),
      ("type", .string(l.kind.rawValue)),
      ("status", .array(l.status.names.map(JSONValue.string))),
      ("message", l.message.map(JSONValue.string) ?? .null),
      ("problems", .array(l.problems.map(problem))),
      ("features", self.counts(l.features, drawn: l.drawnFeatures)),
    ]
    if let o = l.ogr {
      pairs.append(
        (
          "ogr",
          .object(
            JSONObject([
              ("driver", .string(o.driver)), ("layer", .string(o.layer)), ("spatialReference", .string(o.spatialReference)),
              ("featuresRead", .number(Double(o.featuresRead))),
              ("featuresInLayer", o.featuresInLayer.map { .number(Double($0)) } ?? .null),
              ("spatialIndex", .bool(o.spatialIndex)),
              ("scanned", o.scan.map { .string($0.rawValue) } ?? .null),
            ]))
        ))
    }
    if let r = l.reference {
      pairs.append(
        (
          "spatialReference",
          .object(JSONObject([("crs", .string(r.crs)), ("from", .string(r.from.rawValue)), ("overrides", r.overridden.map(JSONValue.string) ?? .null)]))
        ))
    }
    if l.kind == .annotation {
      pairs.append(
        (
          "sublayers",
          .array(
            l.sublayers.map { s in
              .object(
                JSONObject([
                  ("id", .string(s.id)), ("status", .array(s.status.names.map(JSONValue.string))),
                  ("features", self.counts(s.features, drawn: s.drawnFeatures)),
                ]))
            })
        ))
      if detail == .full {
        let texts = zip(l.resolved.annotations, l.annotationOutcomes).map { text($0, outcome: $1, sublayers: l.resolved.sublayers) }
        pairs.append(("texts", .array(texts)))
      }
    }
    if l.kind == .tiles {
      if let t = l.tiles {
        pairs.append(
          (
            "tiles",
            .object(
              JSONObject([
                ("zoom", .number(Double(t.zoom))), ("tileMatrixSet", .string(t.tileMatrixSet.id)),
                ("drawn", .number(Double(t.drawn))), ("fromParent", .number(Double(t.fromParent))),
                ("missing", .number(Double(t.missing))), ("undecodable", .number(Double(t.undecodable))),
              ]))
          ))
      }
      pairs.append(("attribution", l.tiles?.attribution.map(JSONValue.string) ?? .null))
    }
    if l.kind == .style, let st = l.style {
      pairs.append(("style", style(st, symbols: symbols)))
    }
    if l.kind == .features {
      let c = counts ?? LabelCounts()
      var hidden: [(String, JSONValue)] = []
      for r in LabelHiddenReason.allCases { if let n = c.hidden[r] { hidden.append((r.rawValue, .number(Double(n)))) } }
      var block: [(String, JSONValue)] = [
        ("placed", .number(Double(c.placed))),
        ("dropped", .number(Double(c.dropped))),
        ("hidden", .object(JSONObject(hidden))),
      ]
      if detail == .full {
        let sorted = labels.sorted { ($0.feature.index, $0.part) < ($1.feature.index, $1.part) }
        block.append(("entries", .array(sorted.map(label))))
      }
      pairs.append(("labels", .object(JSONObject(block))))
    }
    return .object(JSONObject(pairs))
  }

  private func counts(_ f: FeatureCounts, drawn: Int) -> JSONValue {
    .object(
      JSONObject([
        ("total", .number(Double(f.total))),
        ("drawn", .number(Double(drawn))),
        ("invalid", .number(Double(f.invalid))),
        ("otherFloor", .number(Double(f.otherFloor))),
      ]))
  }

  private func problem(_ p: LayerProblem) -> JSONValue {
    .object(JSONObject([("kind", .string(p.kind)), ("message", .string(p.message)), ("hint", p.hint.map(JSONValue.string) ?? .null)]))
  }

  /// `"id"` (the feature's id, or null) and `"key"` (`FeatureKey.text`).
  private func key(_ k: FeatureKey) -> [(String, JSONValue)] { k.reportPairs }

  private func box(_ b: Rect) -> JSONValue {
    .array([b.minX, b.minY, b.width, b.height].map(JSONValue.number))
  }

  /// A label entry: key, text, outcome, and the anchor and box, or what
  /// blocked it.
  private func label(_ o: LabelOutcome) -> JSONValue {
    var pairs = key(o.feature)
    pairs.append(("part", .number(Double(o.part))))
    pairs.append(("text", .string(o.text)))
    pairs.append(("outcome", .string(o.decision.name)))
    if let a = o.anchor { pairs.append(("anchor", .string(a.rawValue))) } else if o.alongLine && o.isPlaced { pairs.append(("anchor", .string("line"))) }
    if let b = o.box { pairs.append(("box", box(b))) }
    if o.decision == .hidden(.collision) {
      pairs.append(("blockedBy", .array(o.blockedBy.map { .object(JSONObject([("layer", .string($0.layer))] + key($0.feature))) })))
      if o.blockedByMore > 0 { pairs.append(("blockedByMore", .number(Double(o.blockedByMore)))) }
    }
    return .object(JSONObject(pairs))
  }

  /// An annotation text entry: sublayer, key, text, and `drawn` or why not.
  private func text(_ t: AnnotationText, outcome: AnnotationTextOutcome, sublayers: [SublayerState]) -> JSONValue {
    var pairs: [(String, JSONValue)] = [("sublayer", .string(sublayers[t.sublayer].id))]
    pairs += key(t.feature)
    pairs.append(("part", .number(Double(t.part))))
    pairs.append(("text", .string(t.text)))
    pairs.append(("outcome", .string(outcome.name)))
    return .object(JSONObject(pairs))
  }

  // MARK: - View annotations

  /// `{ id, visible: true, anchor, box: [x, y, w, h] }` or
  /// `{ id, visible: false, reason, blockedBy? }`, boxes in logical pixels.
  func outcome(_ o: ViewAnnotationOutcome) -> JSONValue {
    var pairs: [(String, JSONValue)] = [("id", .string(o.id)), ("visible", .bool(o.isPlaced))]
    switch o.decision {
    case .placed(let anchor, _, let b):
      pairs.append(("anchor", .string(anchor.rawValue)))
      pairs.append(("box", box(b)))
    case .hidden(let reason):
      pairs.append(("reason", .string(reason.rawValue)))
      if reason == .collision { pairs.append(("blockedBy", .array(o.blockedBy.map(JSONValue.string)))) }
      if o.blockedByMore > 0 { pairs.append(("blockedByMore", .number(Double(o.blockedByMore)))) }
    }
    if let w = o.warning { pairs.append(("warning", .string(w))) }
    return .object(JSONObject(pairs))
  }
}
