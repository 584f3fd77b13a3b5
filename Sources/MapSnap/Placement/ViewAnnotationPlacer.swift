internal import _MapSnapRaster

/// Resolves view annotations as section 4 says.
///
/// 1. Candidates: `visible`, in scale range, on the shown floor, tied to a
///    position inside the viewport; a feature-tied one needs its feature drawn,
///    and sits at the point of a Point (the first position inside the viewport
///    of a MultiPoint), at the middle by length of the longest part of a line
///    inside the viewport, or at an interior point of the visible part of a
///    polygon.
/// 2. Order: `selected` first, then higher `priority`, then list order.
/// 3. Each takes its first anchor whose box lies wholly inside the viewport
///    (touching its edge is inside) and, unless `allowOverlap`, overlaps no box
///    placed before it (touching boxes do not overlap). With none it is hidden:
///    `outOfBounds` when no anchor fits the viewport, else `collision`.
///
/// Boxes are sized in logical pixels: `size`, or the text block plus
/// `padding` and `borderWidth` on every side; the text is centred in the box.
///
/// Texts are laid out in placement order from what is left of the frame's
/// text budget (`textBudget`, the ledger labels and annotation text spent
/// first); one that would overspend it is hidden (`overBudget`) without being
/// laid out.
package struct ViewAnnotationPlacer {
  package let state: MapState
  /// The scene's view annotations, in list order.
  package let annotations: [ViewAnnotation]
  let fonts: FontLibrary
  /// The frame's text budget as the text before them left it; nil: the
  /// whole budget (`FrameBudget.textCharacters`).
  let textBudget: TextBudget?
  /// Where each style layer's symbols were placed (by scene layer index):
  /// an annotation tied to a symbol layer's feature stands on its first shown symbol.
  var styleSymbols: [Int: StyleSymbolPlacement] = [:]

  package init(state: MapState, annotations: [ViewAnnotation], fonts: FontLibrary, textBudget: TextBudget?) {
    self.state = state
    self.annotations = annotations
    self.fonts = fonts
    self.textBudget = textBudget
  }

  init(state: MapState, annotations: [ViewAnnotation], fonts: FontLibrary, textBudget: TextBudget?, styleSymbols: [Int: StyleSymbolPlacement]) {
    self.init(state: state, annotations: annotations, fonts: fonts, textBudget: textBudget)
    self.styleSymbols = styleSymbols
  }

  /// Places `annotations` with the frame's whole text budget.
  package init(state: MapState, annotations: [ViewAnnotation], fonts: FontLibrary) {
    self.init(state: state, annotations: annotations, fonts: fonts, textBudget: nil)
  }

  package func place() -> ViewAnnotationPlacement {
    let v = state.viewport
    let ratio = v.pixelRatio
    let frame = Rect(minX: 0, minY: 0, maxX: Double(v.deviceWidth) / ratio, maxY: Double(v.deviceHeight) / ratio)
    // Each annotation's decision, set once below; the outcomes are made from
    // them at the end.
    var decisions = [ViewAnnotationOutcome.Decision?](repeating: nil, count: annotations.count)
    var outcomes = annotations.map { ViewAnnotationOutcome(id: $0.id, decision: .hidden(.notVisible)) }
    var blocks: [TextBlock?] = Array(repeating: nil, count: annotations.count)
    var candidates: [Int] = []
    var positions: [Point] = Array(repeating: Point(0, 0), count: annotations.count)
    for (i, a) in annotations.enumerated() {
      // Checked whatever else hides the annotation: a typo in an id is a
      // problem at every scale and floor.
      outcomes[i].problem = problem(of: a)
      if !a.visible {
        decisions[i] = .hidden(.notVisible)
      } else if !a.scaleRange.contains(v.scale) {
        decisions[i] = .hidden(.outOfScale)
      } else if let floor = state.floor, let f = a.floor, f != floor {
        decisions[i] = .hidden(.floor)
      } else {
        switch position(of: a, frame: frame) {
        case .hidden:
          decisions[i] = .hidden(.featureHidden)
        case .outside(let p):
          decisions[i] = .hidden(.outOfBounds)
          outcomes[i].positionOutside = true
          outcomes[i].position = p
        case .at(let p):
          outcomes[i].position = p
          positions[i] = p
          candidates.append(i)
        }
      }
    }
    // Selected first, then higher priority, then list order.
    let selected = annotations.map(\.selected)
    let priority = annotations.map(\.priority)
    candidates.sort {
      if selected[$0] != selected[$1] { return selected[$0] }
      if priority[$0] != priority[$1] { return priority[$0] > priority[$1] }
      return $0 < $1
    }
    var placement: [PlacementCandidate] = []
    var missing: [Unicode.Scalar] = []
    placement.reserveCapacity(candidates.count)
    var budget = textBudget ?? TextBudget(limit: state.frame.budget.textCharacters)
    candidates.removeAll { i in
      guard budget.spend(annotations[i].text) else {
        decisions[i] = .hidden(.overBudget)
        return true
      }
      return false
    }
    for (k, i) in candidates.enumerated() {
      let a = annotations[i]
      let block = fonts.layout(
        a.text, font: a.style.font, size: a.style.fontSize * ratio, align: .center, maxWidth: a.style.maxWidth,
        letterSpacing: a.style.letterSpacing)
      blocks[i] = block
      for m in block.missing where !missing.contains(m) { missing.append(m) }
      let inset = a.style.padding + a.style.borderWidth
      let size = a.size ?? (block.width / ratio + 2 * inset, block.height / ratio + 2 * inset)
      let boxes = a.anchors.map { $0.anchor.viewAnnotationBox(size: size, at: positions[i], offsetX: $0.offsetX, offsetY: $0.offsetY) }
      placement.append(PlacementCandidate(id: k, boxes: boxes, allowOverlap: a.allowOverlap))
    }
    let result = MapSnap.place(placement, in: frame, mustFit: true)
    var placedOrder: [Int] = []
    for (k, i) in candidates.enumerated() {
      if let chosen = result.chosen[k] {
        decisions[i] = .placed(anchor: annotations[i].anchors[chosen].anchor, anchorIndex: chosen, box: placement[k].boxes[chosen])
        placedOrder.append(i)
      } else if result.blockedBy[k].isEmpty {
        decisions[i] = .hidden(.outOfBounds)
      } else {
        decisions[i] = .hidden(.collision)
        outcomes[i].blockedBy = result.blockedBy[k].map { candidates[$0] }.sorted().map { annotations[$0].id }
        outcomes[i].blockedByMore = result.blockedByMore[k]
      }
    }
    // Drawing order: unselected below selected, lower priority below higher,
    // equal priority in list order (later on top).
    placedOrder.sort {
      if selected[$0] != selected[$1] { return !selected[$0] }
      if priority[$0] != priority[$1] { return priority[$0] < priority[$1] }
      return $0 < $1
    }
    for i in outcomes.indices {
      guard let d = decisions[i] else { preconditionFailure("view annotation \(annotations[i].id) left undecided") }
      outcomes[i].decision = d
    }
    var out = ViewAnnotationPlacement()
    out.textBudget = budget
    out.outcomes = outcomes
    out.missingCodePoints = missing
    for i in placedOrder {
      let a = annotations[i]
      let b = outcomes[i].box!
      let device = Rect(minX: b.minX * ratio, minY: b.minY * ratio, maxX: b.maxX * ratio, maxY: b.maxY * ratio)
      let block = blocks[i]!
      for g in block.glyphs { out.faces.insert(g.face) }
      let origin = Point((device.minX + device.maxX - block.width) / 2, (device.minY + device.maxY - block.height) / 2)
      let text = GlyphRun(block: block, origin: origin, color: a.style.textColor, haloColor: nil)
      var style = a.style
      style.borderWidth *= ratio
      style.cornerRadius *= ratio
      style.padding *= ratio
      out.boxes.append(PlacedBox(box: device, style: style, text: text))
    }
    return out
  }

  private enum Position {
    case at(Point)
    /// Outside the frame: the position, when there is one.
    case outside(Point?)
    /// The feature is not drawn (or does not exist).
    case hidden
  }

  /// The annotated position in logical pixels.
  private func position(of a: ViewAnnotation, frame: Rect) -> Position {
    let v = state.viewport
    let ratio = v.pixelRatio
    func logical(_ m: Point) -> Point {
      let d = v.toDevice(m)
      return Point(d.x / ratio, d.y / ratio)
    }
    func inside(_ p: Point) -> Bool { p.x >= frame.minX && p.x <= frame.maxX && p.y >= frame.minY && p.y <= frame.maxY }
    switch a.target {
    case .coordinate(let lon, let lat):
      let p = logical(v.projection.project(lon: lon, lat: lat))
      return inside(p) ? .at(p) : .outside(p)
    case .feature(let layerID, let featureID):
      guard let layer = state.layers.first(where: { $0.id == layerID }), layer.status.contains(.active),
        let fate = layer.annotatedFeatures[featureID]
      else { return .hidden }
      switch fate {
      case .notDrawn: return .hidden
      case .offFrame: return .outside(nil)
      case .drawable(let k): return position(of: layer.drawables[k].geometry, frame: frame, logical: logical, inside: inside)
      }
    case .styleFeature(let layerID, let styleLayer, let featureID):
      guard let li = state.layers.firstIndex(where: { $0.id == layerID }), state.layers[li].status.contains(.active),
        let style = state.layers[li].style,
        let found = style.annotated.first(where: { $0.styleLayer == styleLayer && $0.id == featureID })
      else { return .hidden }
      let device: Point?
      if let k = found.symbolLayer {
        // A symbol layer's feature is drawn when one of its symbols is shown.
        let outcomes = styleSymbols[li]?.layers[k].outcomes ?? []
        device = found.symbols.first { $0 < outcomes.count && outcomes[$0].isShown }.map { style.symbolLayers[k].symbols[$0].anchor }
      } else {
        device = found.position
      }
      guard let device else { return .hidden }
      let p = Point(device.x / ratio, device.y / ratio)
      return inside(p) ? .at(p) : .outside(p)
    }
  }

  /// The annotation's own problem: it is tied to a feature id that its
  /// layer's source (read whenever the layer has no `error`) does not have.
  private func problem(of a: ViewAnnotation) -> ViewAnnotationProblem? {
    if case .styleFeature(let layerID, let styleLayer, _) = a.target {
      guard let style = state.layers.first(where: { $0.id == layerID })?.style,
        let found = style.annotated.first(where: { $0.styleLayer == styleLayer }), !found.layerExists
      else { return nil }
      return .unknownStyleLayer(layer: layerID, styleLayer: styleLayer, suggestion: closestMatch(to: styleLayer, in: style.layers.map(\.id), maxDistance: 3))
    }
    guard case .feature(let layerID, let featureID) = a.target,
      let layer = state.layers.first(where: { $0.id == layerID }), !layer.status.contains(.error),
      layer.annotatedFeatures[featureID] == nil
    else { return nil }
    return .unknownFeature(layer: layerID, id: featureID, suggestion: closestMatch(to: featureID.text, in: layer.featureIDs, maxDistance: 2))
  }

  /// Where a drawn feature is annotated: the first of its points inside the
  /// frame, the middle by length of the longest part of its lines inside the
  /// frame, or the interior point of its largest visible polygon.
  private func position(of g: Geometry, frame: Rect, logical: (Point) -> Point, inside: (Point) -> Bool) -> Position {
    if !g.points.isEmpty {
      let pts = g.points.map(logical)
      if let p = pts.first(where: inside) { return .at(p) }
      return .outside(pts[0])
    }
    if !g.lines.isEmpty {
      var best: (length: Double, point: Point)? = nil
      for line in g.lines {
        var clipped = Path()
        var phases: [Double] = []
        PolylineClipper.clip(ArraySlice(line.map(logical)), closed: false, to: frame, into: &clipped, phases: &phases)
        for c in clipped.contours.indices {
          let run = Array(clipped.points(of: c))
          var length = 0.0
          for j in 1..<max(1, run.count) { length += (run[j] - run[j - 1]).length }
          if run.count >= 2, length > (best?.length ?? -1) { best = (length, pointAt(length / 2, along: run)) }
        }
      }
      if let best { return .at(best.point) }
      return .outside(logical(g.lines[0][0]))
    }
    if !g.polygons.isEmpty {
      if let p = InteriorPoint.ofLargestVisible(g.polygons, within: frame, toPixels: logical) { return .at(p) }
      return .outside(logical(g.polygons[0][0][0]))
    }
    return .hidden
  }

  private func pointAt(_ distance: Double, along run: [Point]) -> Point {
    var left = distance
    for j in 1..<run.count {
      let seg = (run[j] - run[j - 1]).length
      if left <= seg, seg > 0 { return run[j - 1] + (run[j] - run[j - 1]) * (left / seg) }
      left -= seg
    }
    return run[run.count - 1]
  }
}
