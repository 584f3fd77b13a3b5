/// A frame's decisions for people: what `mapsnap explain` prints. Each layer
/// and sublayer with its status and why, label counts, and each view
/// annotation placed or hidden and why.
public struct Explanation {
  public let plan: FramePlan

  public init(plan: FramePlan) {
    self.plan = plan
  }

  public var text: String {
    let v = plan.state.viewport
    var out: [String] = []
    let floor = plan.state.floor.map { "floor \($0.text)" } ?? "all floors"
    let b = v.bounds
    out.append(
      "map: 1:\(number(v.scale)) (zoom \(number(v.zoom, digits: 2))), \(v.width)×\(v.height) px × \(number(v.pixelRatio)), "
        + "centre \(number(v.center.lon, digits: 5)), \(number(v.center.lat, digits: 5)), \(floor)")
    out.append("     lon \(number(b.west, digits: 5))…\(number(b.east, digits: 5)), lat \(number(b.south, digits: 5))…\(number(b.north, digits: 5))")
    out.append("")
    var rows: [[String]] = [["LAYER", "TYPE", "STATUS", "DRAWN/TOTAL", "LABELS", "WHY"]]
    for l in plan.state.layers {
      let scene = plan.scene.layers[l.index]
      var labels = ""
      if let c = plan.text.labelCounts[l.index] { labels = "\(c.placed) placed, \(c.dropped) dropped" }
      rows.append([l.id, l.kind.rawValue, l.status.names.joined(separator: "+"), "\(l.features.drawn)/\(l.features.total)", labels, why(l, scene)])
      if case .annotation(let anno) = scene.content {
        for (s, sub) in l.sublayers.enumerated() {
          rows.append(["  └ \(sub.id)", "class", sub.status.names.joined(separator: "+"), "\(sub.features.drawn)/\(sub.features.total)", "", why(sub, anno.sublayers[s], layer: scene)])
        }
      }
    }
    out += table(rows)
    if !plan.text.missingCodePoints.isEmpty {
      out.append("")
      out.append("no font covers: " + plan.text.missingCodePoints.map(codePointName).joined(separator: ", "))
    }
    if !plan.scene.viewAnnotations.isEmpty {
      out.append("")
      var va: [[String]] = [["VIEW ANNOTATION", "SHOWN", "ANCHOR", "BOX x,y,w,h", "WHY"]]
      for (i, o) in plan.viewAnnotations.outcomes.enumerated() {
        let a = plan.scene.viewAnnotations[i]
        if o.visible, let box = o.box {
          let boxText = [box.minX, box.minY, box.width, box.height].map { number($0, digits: 1) }.joined(separator: ",")
          va.append([o.id, "yes", o.anchor?.rawValue ?? "", boxText, placedWhy(a, o)])
        } else {
          va.append([o.id, "no", "", "", hiddenWhy(a, o)])
        }
      }
      out += table(va)
    }
    return out.joined(separator: "\n") + "\n"
  }

  // MARK: - Reasons

  private func why(_ l: LayerState, _ layer: Layer) -> String {
    var parts: [String] = []
    if l.status.contains(.notVisible) { parts.append("\"visible\" is false") }
    if l.status.contains(.outOfScale) { parts.append(outOfRange(layer.scaleRange)) }
    if let m = l.message { parts.append(m) }
    if l.status.contains(.active) && parts.isEmpty {
      if l.features.otherFloor > 0 { parts.append("\(l.features.otherFloor) on other floors") }
      if l.features.drawn < l.features.total && l.kind != .annotation {
        parts.append("the rest are outside the frame or taken by no rule")
      }
    }
    return parts.joined(separator: "; ")
  }

  private func why(_ s: SublayerState, _ sub: AnnotationSublayer, layer: Layer) -> String {
    var parts: [String] = []
    if !sub.visible { parts.append("\"visible\" is false") }
    if !layer.visible { parts.append("its layer is not visible") }
    if !sub.scaleRange.contains(plan.state.viewport.scale) { parts.append(outOfRange(sub.scaleRange)) }
    if !layer.scaleRange.contains(plan.state.viewport.scale) { parts.append("its layer: " + outOfRange(layer.scaleRange)) }
    if parts.isEmpty, sub.scaleRange.isUnlimited == false { parts.append("1:\(number(plan.state.viewport.scale)) is within \(describe(sub.scaleRange))") }
    return parts.joined(separator: "; ")
  }

  private func outOfRange(_ r: ScaleRange) -> String {
    "1:\(number(plan.state.viewport.scale)) is outside \(describe(r))"
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

  private func placedWhy(_ a: ViewAnnotation, _ o: ViewAnnotationOutcome) -> String {
    guard let k = o.anchorIndex else { return "" }
    var parts = [k == 0 ? "first anchor" : "anchor \(k + 1) of \(a.anchors.count)"]
    if a.selected { parts.append("selected") }
    if a.priority != 0 { parts.append("priority \(number(a.priority))") }
    if a.allowOverlap { parts.append("allowOverlap") }
    return parts.joined(separator: ", ")
  }

  private func hiddenWhy(_ a: ViewAnnotation, _ o: ViewAnnotationOutcome) -> String {
    switch o.reason ?? .outOfBounds {
    case .notVisible: return "notVisible: \"visible\" is false"
    case .outOfScale: return "outOfScale: " + outOfRange(a.scaleRange)
    case .floor: return "floor: on floor \(a.floor?.text ?? "?"), showing \(plan.state.floor?.text ?? "?")"
    case .featureHidden:
      if case .feature(let layer, let id) = a.target {
        return "featureHidden: feature \(id.text) of layer \"\(layer)\" is not drawn at this scale and floor"
      }
      return "featureHidden"
    case .outOfBounds:
      if let p = o.position, p.x < 0 || p.y < 0 || p.x > Double(plan.state.viewport.width) || p.y > Double(plan.state.viewport.height) {
        return "outOfBounds: its position is outside the image"
      }
      return "outOfBounds: no anchor puts the box wholly inside the image"
    case .collision: return "collision: every anchor that fits overlaps " + o.blockedBy.joined(separator: ", ")
    }
  }

  // MARK: - Formatting

  private func table(_ rows: [[String]]) -> [String] {
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

/// A number for people: integers without a fraction, others to `digits` places.
func number(_ x: Double, digits: Int = 0) -> String {
  if x == x.rounded() && abs(x) < 1e15 { return format(x) }
  var p = 1.0
  for _ in 0..<max(digits, 2) { p *= 10 }
  let r = (x * p).rounded() / p
  return String(r)
}
