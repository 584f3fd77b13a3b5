/// Which parts of a frame `mapsnap explain` shows.
public struct ExplainFilter: Sendable {
  /// Only these layers (by id); empty: every layer.
  public var layers: [String]
  /// Only the labels, annotation texts and view annotations of the feature
  /// with this id (its `FeatureKey.text`: `V-7`, or its digest key
  /// `3fa9c2b1e0d4` for a feature without an id; `#12`, its position in
  /// its source, names it too); view annotations also by their own id.
  public var featureID: String?

  public init(layers: [String] = [], featureID: String? = nil) {
    self.layers = layers
    self.featureID = featureID
  }

  func includes(_ layer: String) -> Bool { layers.isEmpty || layers.contains(layer) }
  func includes(_ key: FeatureKey) -> Bool { featureID == nil || featureID == key.text || featureID == "#\(key.index)" }
}

/// A frame's decisions for people: what `mapsnap explain` prints. Each layer
/// and sublayer with its status and why, label counts, every label and
/// annotation text grouped by outcome with why, and each view annotation
/// placed or hidden and why. Its only input is the frame record
/// (`FramePlan`): it prints the records and decides nothing, never a reason.
public struct Explanation {
  public let plan: FramePlan
  public let filter: ExplainFilter

  public init(plan: FramePlan, filter: ExplainFilter = ExplainFilter()) {
    self.plan = plan
    self.filter = filter
  }

  private var scale: Double { plan.state.viewport.scale }

  public var text: String {
    let v = plan.state.viewport
    var out: [String] = []
    let floor = plan.state.floor.map { "floor \($0.text)" } ?? "all floors"
    let b = v.bounds
    out.append(
      "map: 1:\(number(v.scale))\(v.zoom.map { " (zoom \(number($0, digits: 2)))" } ?? ""), \(v.projection.identifier), \(v.width)×\(v.height) px × \(number(v.pixelRatio)), "
        + "centre \(number(v.center.lon, digits: 5)), \(number(v.center.lat, digits: 5)), \(floor)")
    out.append("     lon \(number(b.west, digits: 5))…\(number(b.east, digits: 5)), lat \(number(b.south, digits: 5))…\(number(b.north, digits: 5))")
    if let f = v.fitting { out.append("     view: \(f.summary)") }
    if let b = plan.furniture.scaleBar {
      out.append("     scale bar: \(b.label) over \(number(b.widthPixels, digits: 1)) px (\(number(b.groundMetersPerPixel, digits: 4)) m per px at the centre)")
    }
    if let a = plan.furniture.northArrow { out.append("     north arrow: true north \(number(a.angle, digits: 3))° clockwise from up") }
    out.append("")
    var rows: [[String]] = [["LAYER", "TYPE", "STATUS", "DRAWN/TOTAL", "LABELS", "WHY"]]
    for (li, l) in plan.layers.enumerated() where filter.includes(l.id) {
      var labels = ""
      if let c = plan.text.labelCounts[li] { labels = "\(c.placed) placed, \(c.dropped) dropped" }
      var counts = "\(l.drawnFeatures)/\(l.features.total)"
      if let t = l.tiles {
        let meeting = t.drawn + t.fromParent + t.missing + t.undecodable
        counts = "\(t.drawn)/\(meeting) tiles"
        labels = "level \(t.zoom)"
      }
      rows.append([l.id, l.kind.rawValue, l.status.names.joined(separator: "+"), counts, labels, why(l)])
      for sub in l.sublayers {
        rows.append(["  └ \(sub.id)", "class", sub.status.names.joined(separator: "+"), "\(sub.drawnFeatures)/\(sub.features.total)", "", why(sub.resolved)])
      }
    }
    out += table(rows)
    let ogr = plan.layers.filter { filter.includes($0.id) && $0.ogr != nil }
    if !ogr.isEmpty { out.append("") }
    for l in ogr {
      let o = l.ogr!
      let inLayer = o.featuresInLayer.map { " of \($0)" } ?? ""
      let how = o.scan?.explanation ?? "through its spatial index"
      out.append("ogr \(l.id): \(o.driver) layer \(Echo.quoted(o.layer)) in \(o.spatialReference), \(o.featuresRead)\(inLayer) features read, \(how)")
    }
    for (li, l) in plan.layers.enumerated() where filter.includes(l.id) {
      if let st = l.style { out += styleLines(l.id, st, symbols: plan.styleSymbols[li]) }
    }
    for (li, l) in plan.layers.enumerated() where filter.includes(l.id) {
      out += labelLines(li, l)
      out += annotationLines(l)
    }
    if let shaping = plan.text.shaping, !plan.text.fontsUsed.isEmpty {
      out.append("")
      let how = shaping.hasPrefix("unshaped") ? shaping : "shaped by \(shaping)"
      out.append("text: \(plan.text.fontsUsed.joined(separator: ", ")); \(how)")
    }
    if !plan.text.missingCodePoints.isEmpty {
      out.append("")
      out.append("no font covers: " + plan.text.missingCodePoints.map(codePointName).joined(separator: ", "))
    }
    // Warnings are not repeated here: the layer table's WHY and the view
    // annotation table say them, and the CLI prints them on standard error.
    out += viewAnnotationLines()
    return out.joined(separator: "\n") + "\n"
  }

  // MARK: - Layers

  private func why(_ l: LayerRecord) -> String {
    var parts = l.hiddenBy.map(describe)
    if let m = l.message { parts.append(m) }
    if l.status.contains(.active) && parts.isEmpty {
      if l.features.otherFloor > 0 { parts.append("\(l.features.otherFloor) on other floors") }
      // Annotation texts near the frame that are hidden, by reason.
      for r in AnnotationHiddenReason.allCases where r != .floor {
        var features = Set<Int>()
        for (t, o) in zip(l.resolved.annotations, l.annotationOutcomes) where o == .hidden(r) { features.insert(t.feature.index) }
        let n = features.count
        if n > 0 { parts.append("\(n) \(r.rawValue)") }
      }
      if l.drawnFeatures < l.features.total {
        parts.append("the rest are outside the frame, taken by no rule or too small to show")
      }
      if let t = l.tiles, let a = t.attribution { parts.append("\(t.tileMatrixSet.id); \(a)") }
    }
    return parts.joined(separator: "; ")
  }

  private func why(_ s: SublayerState) -> String {
    var parts = s.hiddenBy.map(describe)
    if parts.isEmpty, !s.scaleRange.isUnlimited { parts.append("1:\(number(scale)) is within \(describe(s.scaleRange))") }
    return parts.joined(separator: "; ")
  }

  private func describe(_ c: VisibilityCause) -> String {
    switch c {
    case .notVisible: return "\"visible\" is false"
    case .layerNotVisible: return "its layer is not visible"
    case .outOfScale(let r): return outOfRange(r)
    case .layerOutOfScale(let r): return "its layer: " + outOfRange(r)
    }
  }

  private func outOfRange(_ r: ScaleRange) -> String {
    "1:\(number(scale)) is outside \(describe(r))"
  }

  /// "1:500 to 1:2000 (maxScale 500, minScale 2000)" and the one-sided forms.
  private func describe(_ r: ScaleRange) -> String {
    switch (r.maxScale, r.minScale) {
    case (0, 0): return "every scale"
    case (0, let mn): return "1:\(number(mn)) and closer (minScale \(number(mn)))"
    case (let mx, 0): return "1:\(number(mx)) and farther out (maxScale \(number(mx)))"
    case (let mx, let mn): return "1:\(number(mx)) to 1:\(number(mn)) (maxScale \(number(mx)), minScale \(number(mn)))"
    }
  }

  /// Every id `ExplainFilter.featureID` can match in this frame: the
  /// features of its labels and annotation texts, its view annotations and
  /// the features they are tied to; sorted, each once. An id outside them
  /// would print empty tables (`mapsnap explain` refuses it, with a hint).
  /// True when some label, annotation text or view annotation of this
  /// frame belongs to `id` as `ExplainFilter.featureID` matches it (its id
  /// or key, or `#N`).
  public func has(featureID id: String) -> Bool {
    let f = ExplainFilter(featureID: id)
    if plan.text.outcomes.contains(where: { f.includes($0.feature) }) { return true }
    if plan.state.layers.contains(where: { $0.annotations.contains { f.includes($0.feature) } }) { return true }
    return featureIDs.contains(id)
  }

  public var featureIDs: [String] {
    var ids = Set(plan.text.outcomes.map(\.feature.text))
    for l in plan.state.layers { ids.formUnion(l.annotations.map(\.feature.text)) }
    for (i, o) in plan.viewAnnotations.outcomes.enumerated() {
      ids.insert(o.id)
      if case .feature(_, let fid) = plan.scene.viewAnnotations[i].target { ids.insert(fid.text) }
    }
    return ids.sorted()
  }

  // MARK: - Labels and annotation text

  /// The layer's labels grouped by outcome: placed first, then each reason.
  private func labelLines(_ li: Int, _ l: LayerRecord) -> [String] {
    let entries = plan.text.outcomes.filter { $0.layerIndex == li && filter.includes($0.feature) }
    guard !entries.isEmpty else { return [] }
    var rows: [[String]] = [["  OUTCOME", "FEATURE", "TEXT", "WHY"]]
    let groups: [(String, [LabelOutcome])] =
      [("placed", entries.filter(\.isPlaced))]
      + LabelHiddenReason.allCases.map { r in (r.rawValue, entries.filter { $0.decision == .hidden(r) }) }
    for (name, group) in groups {
      for o in group.sorted(by: { ($0.feature.index, $0.part) < ($1.feature.index, $1.part) }) {
        rows.append(["  " + name, featureName(o.feature, part: o.part), quoted(o.text), labelWhy(o)])
      }
    }
    return ["", "labels of \(Echo.quoted(l.id)) (\(summary(groups))):"] + table(rows)
  }

  private func labelWhy(_ o: LabelOutcome) -> String {
    let box = o.box.map { b in " at " + [b.minX, b.minY, b.width, b.height].map { number($0, digits: 1) }.joined(separator: ",") } ?? ""
    let reason: LabelHiddenReason
    switch o.decision {
    case .placed: return "anchor \(o.anchor?.rawValue ?? (o.alongLine ? "line" : "?"))\(box)" + (o.priority != 0 ? ", priority \(number(o.priority))" : "")
    case .hidden(let r): reason = r
    }
    switch reason {
    case .collision: return "every anchor overlaps " + o.blockedBy.map(\.text).joined(separator: ", ") + more(o.blockedByMore)
    case .outOfBounds: return "no anchor's box reaches into the image"
    case .edge: return "every anchor's box crosses the image's edge (avoidEdges)"
    case .noText: return "the feature has no text in label.field (or its label.text is empty)"
    case .tooSmall: return "under one device pixel per em"
    case .noGlyphs: return "no font covers any of its characters"
    case .noPosition: return "no position for its placement (a line with placement point, or a point with placement line)"
    case .lineTooShort: return "the line's visible parts are shorter than the text"
    case .tooCurved: return "the line turns more than maxAngle between two glyphs wherever the text fits"
    case .overBudget: return "the frame's budget of \(plan.text.textBudget.limit) characters of text was spent"
    }
  }

  /// ` and N more`, for blockers not named.
  private func more(_ n: Int) -> String { n > 0 ? " and \(n) more" : "" }

  /// The layer's annotation texts grouped by outcome: drawn first, then each reason.
  private func annotationLines(_ l: LayerRecord) -> [String] {
    let texts = l.annotations.filter { filter.includes($0.feature) }
    guard !texts.isEmpty else { return [] }
    var rows: [[String]] = [["  OUTCOME", "CLASS", "FEATURE", "TEXT", "WHY"]]
    let groups: [(String, [AnnotationTextRecord])] =
      [("drawn", texts.filter(\.isDrawn))]
      + AnnotationHiddenReason.allCases.map { r in (r.rawValue, texts.filter { $0.outcome == .hidden(r) }) }
    for (name, group) in groups {
      for t in group {
        let size = "\(number(t.size, digits: 2)) px"
        let why: String
        switch t.outcome {
        case .drawn: why = size
        case .hidden(.notVisible), .hidden(.outOfScale): why = self.why(l.resolved.sublayers[t.sublayer])
        case .hidden(.transparent): why = "nothing can show: the layer's opacity is 0, or the colour is transparent with no halo"
        case .hidden(.noGlyphs): why = "no font covers any of its characters"
        case .hidden(.floor): why = "on another floor than \(plan.state.floor?.text ?? "?")"
        case .hidden(.noText): why = "the feature has no text in textField (or its text template is empty)"
        case .hidden(.tooSmall): why = "\(size) at this scale: under one device pixel per em"
        case .hidden(.tooLarge): why = "\(size) at this scale: over \(number(FontLibrary.maxTextSize)) device pixels per em"
        case .hidden(.outOfBounds): why = "its glyphs put no pixel into the image"
        case .hidden(.overBudget): why = "the frame's budget of \(plan.text.textBudget.limit) characters of text was spent"
        }
        rows.append(["  " + name, l.sublayers[t.sublayer].id, featureName(t.feature, part: t.part), quoted(t.text), why])
      }
    }
    return ["", "annotation texts of \(Echo.quoted(l.id)) (\(summary(groups))):"] + table(rows)
  }

  private func summary<T>(_ groups: [(String, [T])]) -> String {
    groups.filter { !$0.1.isEmpty }.map { "\($0.1.count) \($0.0)" }.joined(separator: ", ")
  }

  private func featureName(_ k: FeatureKey, part: Int) -> String {
    k.text + (part > 0 ? " (part \(part))" : "")
  }

  /// The text's first line in quotes, shortened to 40 characters.
  private func quoted(_ s: String) -> String {
    let line = s.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let short = line.count > 40 ? String(line.prefix(39)) + "…" : line
    return "\"\(short)\"" + (line != s ? " …" : "")
  }

  // MARK: - View annotations

  private func viewAnnotationLines() -> [String] {
    var va: [[String]] = [["VIEW ANNOTATION", "SHOWN", "ANCHOR", "BOX x,y,w,h", "WHY"]]
    for (i, o) in plan.viewAnnotations.outcomes.enumerated() {
      let a = plan.scene.viewAnnotations[i]
      if let id = filter.featureID {
        var match = o.id == id
        if case .feature(_, let fid) = a.target, fid.text == id { match = true }
        if case .styleFeature(_, _, let fid) = a.target, fid.text == id { match = true }
        if !match { continue }
      }
      // With --layer, only the annotations tied to those layers.
      switch a.target {
      case .feature(let layer, _), .styleFeature(let layer, _, _): if !filter.includes(layer) { continue }
      case .coordinate: if !filter.layers.isEmpty { continue }
      }
      switch o.decision {
      case .placed(let anchor, let k, let box):
        let boxText = [box.minX, box.minY, box.width, box.height].map { number($0, digits: 1) }.joined(separator: ",")
        va.append([o.id, "yes", anchor.rawValue, boxText, placedWhy(a, anchorIndex: k)])
      case .hidden(let reason):
        va.append([o.id, "no", "", "", hiddenWhy(a, o, reason)])
      }
    }
    return va.count > 1 ? [""] + table(va) : []
  }

  private func placedWhy(_ a: ViewAnnotation, anchorIndex k: Int) -> String {
    var parts = [k == 0 ? "first anchor" : "anchor \(k + 1) of \(a.anchors.count)"]
    if a.selected { parts.append("selected") }
    if a.priority != 0 { parts.append("priority \(number(a.priority))") }
    if a.allowOverlap { parts.append("allowOverlap") }
    return parts.joined(separator: ", ")
  }

  private func hiddenWhy(_ a: ViewAnnotation, _ o: ViewAnnotationOutcome, _ reason: ViewAnnotationHiddenReason) -> String {
    switch reason {
    case .notVisible: return "notVisible: \"visible\" is false"
    case .outOfScale: return "outOfScale: " + outOfRange(a.scaleRange)
    case .floor: return "floor: on floor \(a.floor?.text ?? "?"), showing \(plan.state.floor?.text ?? "?")"
    case .featureHidden:
      if let w = o.warning { return "featureHidden: " + w }
      if case .feature(let layer, let id) = a.target {
        return "featureHidden: feature \(id.text) of layer \(Echo.quoted(layer)) is not drawn at this scale and floor"
      }
      return "featureHidden"
    case .outOfBounds:
      return o.positionOutside ? "outOfBounds: its position is outside the image" : "outOfBounds: no anchor puts the box wholly inside the image"
    case .collision: return "collision: every anchor that fits overlaps " + o.blockedBy.joined(separator: ", ") + more(o.blockedByMore)
    case .overBudget: return "overBudget: the frame's budget of \(plan.text.textBudget.limit) characters of text was spent"
    }
  }

  // MARK: - Formatting

  func table(_ rows: [[String]]) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columns)
    for r in rows { for (i, c) in r.enumerated() where i < columns - 1 { widths[i] = max(widths[i], c.count) } }
    return rows.map { r in
      var line = ""
      for (i, c) in r.enumerated() {
        line += i < columns - 1 ? c + String(repeating: " ", count: widths[i] - c.count + 2) : c
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
