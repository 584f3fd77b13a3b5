internal import _MapSnapRaster

/// Lays out and places the text of a resolved map.
///
/// Labels (section 3.1): candidates are the parts of drawn features of active
/// layers whose style has a label with text: a point labels at each of its
/// positions, a polygon at the interior point of its largest visible part
/// (`InteriorPoint.ofLargestVisible`), lines are not labelled (`noPosition`)
/// unless the label's `placement` is `line`: then lines and polygon rings
/// hold the text along them, a candidate per place (`LinePlacer`), each
/// tried at its alternatives and tested glyph box by glyph box.
/// Order: higher `priority` first, then layers from the top down, then
/// feature order, then part. Each takes its first anchor whose box overlaps no
/// placed label and no marker with `collides: true` (touching edges do not
/// overlap); with none it is dropped (`collision`). The box is the text block
/// (widest line × line height × lines) grown by the halo width on every side.
/// Labels may run off the image edge, but a candidate none of whose boxes
/// reaches into the image is `outOfBounds` and takes no part; positions of a
/// MultiPoint beyond the label's reach of the image are no candidates.
///
/// Annotation (section 3.3): each drawn text is laid out at its size; `align`
/// and `baseline` say which point of the block sits on the anchor; the angle
/// turns the block about the anchor.
///
/// The frame's text budget (`FrameBudget.textCharacters`) is spent before
/// layout, in this order: annotation texts (layers bottom-up, feature order),
/// then label candidates in placement order. A text that would overspend it
/// is not laid out (`overBudget`); shorter ones after it still may be.
package struct TextPlacer {
  package let state: MapState
  /// The fonts; nil when the scene has no text, and then no label or
  /// annotation text has anything to lay out (every entry was decided when
  /// the map was resolved: no text, too small, …).
  let fonts: FontLibrary?

  /// Threads labels are shaped on before they are placed (0: one per
  /// processor); the placement is the same for any number.
  let threads: Int

  package init(state: MapState, fonts: FontLibrary?, threads: Int = 0) {
    self.state = state
    self.fonts = fonts
    self.threads = threads
  }

  /// What laying out the frame's text spends and finds: code points no
  /// font covers (for every block laid out), faces (only for the text that
  /// is drawn), and the frame's text budget, spent through `budget`, the one
  /// ledger.
  private final class TextLedger {
    var faces = Set<Int>()
    var missing: [Unicode.Scalar] = []
    var budget: TextBudget

    init(budget: TextBudget) { self.budget = budget }

    func laidOut(_ block: TextBlock) {
      for m in block.missing where !missing.contains(m) { missing.append(m) }
    }

    func drawn(_ block: TextBlock) {
      // Runs of one face are the rule: each run inserted once.
      var last = -1
      for g in block.glyphs where g.face != last {
        faces.insert(g.face)
        last = g.face
      }
    }
  }

  package func place() -> TextPlacement {
    var out = TextPlacement()
    let notes = TextLedger(budget: TextBudget(limit: state.frame.budget.textCharacters))
    placeAnnotations(into: &out, notes: notes)
    placeLabels(into: &out, notes: notes)
    out.missingCodePoints = notes.missing
    out.textBudget = notes.budget
    out.fontsUsed = fonts.map { f in notes.faces.sorted().map { f.faces[$0].fullName } } ?? []
    return out
  }

  // MARK: - Annotation

  /// Lays out every text resolution left to draw: each gets its run, or the
  /// reason placement did not lay it out (`noGlyphs`: no font covers any of
  /// its characters; `overBudget`: the text budget refused it).
  private func placeAnnotations(into out: inout TextPlacement, notes: TextLedger) {
    let v = state.viewport
    for (li, layer) in state.layers.enumerated() where !layer.annotations.isEmpty {
      var runs: [AnnotationLayout] = []
      runs.reserveCapacity(layer.annotations.count)
      for a in layer.annotations {
        guard a.goesToPlacement else {
          runs.append(.hiddenByResolution)
          continue
        }
        // Without fonts (a caller that gave none) nothing can be laid out.
        guard let fonts else {
          runs.append(.notLaidOut(.noGlyphs))
          continue
        }
        guard notes.budget.spend(a.text) else {
          notes.budget.refuse(layer: li)
          runs.append(.notLaidOut(.overBudget))
          continue
        }
        let style = layer.sublayers[a.sublayer].style
        let block = fonts.layout(
          a.text, font: style.font, size: a.size * v.pixelRatio, align: style.align, maxWidth: style.maxWidth, letterSpacing: style.letterSpacing)
        notes.laidOut(block)
        guard !block.glyphs.isEmpty else {
          runs.append(.notLaidOut(.noGlyphs))
          continue
        }
        notes.drawn(block)
        // The offset grows with the text (`a.size / style.size` is the
        // reference-scale factor) and turns with it about the point.
        let point = v.toDevice(a.point)
        let k = a.size / style.size * v.pixelRatio
        let (dx, dy) = (style.offset.0 * k, style.offset.1 * k)
        let t = a.angle * .pi / 180
        let anchor = Point(point.x + dx * cos(t) + dy * sin(t), point.y - dx * sin(t) + dy * cos(t))
        let fx = style.align == .left ? 0 : style.align == .center ? 0.5 : 1
        let fy = style.baseline == .top ? 0 : style.baseline == .middle ? 0.5 : 1
        var run = GlyphRun(block: block, origin: anchor - Point(block.width * fx, block.height * fy), color: style.color, haloColor: style.halo?.color)
        run.degrees = a.angle
        run.pivot = anchor
        run.haloWidth = a.haloWidth * v.pixelRatio
        runs.append(.laidOut(run))
      }
      out.annotations[li] = runs
    }
  }

  // MARK: - Labels

  /// A label to place. Its style is its drawable's (`style(of:)`), not a
  /// copy: a frame may hold hundreds of thousands of candidates that the
  /// text budget then drops, each of which cost a copy of the style.
  private struct Candidate {
    var layer: Int
    var feature: FeatureKey
    var part: Int
    var point: Point
    var text: String
    /// The drawable of `layer` whose label this is.
    var drawable: Int
    /// The style's `priority`, for the placement order.
    var priority: Double
    /// Along a line: the feature's lines (and rings) in device pixels.
    var lines: [[Point]]? = nil

    /// What is laid out: along a line, one line of text (line breaks
    /// become spaces, no wrapping); elsewhere the text, wrapped at the
    /// style's `maxWidth`.
    var laidOutText: String { lines == nil ? text : text.replacingNewlines() }
    func wrapWidth(_ style: LabelStyle) -> Double? { lines == nil ? style.maxWidth : nil }
  }

  /// The label style of `c`: its drawable's.
  private func style(of c: Candidate) -> LabelStyle { state.layers[c.layer].drawables[c.drawable].style.label! }

  private func placeLabels(into out: inout TextPlacement, notes: TextLedger) {
    let v = state.viewport
    let ratio = v.pixelRatio
    let frame = Rect(minX: 0, minY: 0, maxX: Double(v.deviceWidth), maxY: Double(v.deviceHeight))
    var candidates: [Candidate] = []
    var obstacles: [(Rect, id: Int)] = []
    var obstacleRefs: [FeatureRef] = []
    // The labels that take no part in placement go straight into the
    // outcomes, after those already there (`base`); the placed and dropped
    // ones follow, and the two runs are swapped at the end: one array of
    // outcomes, not a second for the skipped (a frame can skip hundreds of
    // thousands past its text budget).
    let base = out.outcomes.count
    // Every labelled drawable gives at least one outcome: the arrays are
    // made to that size once (grown by doubling, a frame of 700,000 labels
    // held two copies of each at a time); a MultiPoint's further positions
    // grow them. Read in place, not a copy of each drawable.
    var expected = 0
    for layer in state.layers where layer.status.contains(.active) {
      let drawables = layer.drawables
      for i in drawables.indices where drawables[i].label != nil { expected += 1 }
    }
    out.outcomes.reserveCapacity(base + expected)
    candidates.reserveCapacity(expected)
    func skip(_ layer: Int, _ feature: FeatureKey, part: Int, _ text: String?, _ style: LabelStyle, _ reason: LabelHiddenReason) {
      out.outcomes.append(
        LabelOutcome(
          layer: state.layers[layer].id, layerIndex: layer, feature: feature, part: part, text: text ?? "",
          decision: .hidden(reason), anchor: nil, box: nil, allowOverlap: style.allowOverlap, priority: style.priority))
    }
    for (li, layer) in state.layers.enumerated() where layer.status.contains(.active) {
      // Read in place: a copy of each drawable (its geometry, style and
      // label, every reference retained) was a tenth of this loop's time.
      let drawables = layer.drawables
      for i in drawables.indices {
        if let m = drawables[i].style.marker, m.collides {
          for p in drawables[i].geometry.points {
            obstacles.append((MarkerBox.rect(m, icon: state.icon(of: m), at: v.toDevice(p), pixelRatio: ratio), id: -1))
            obstacleRefs.append(FeatureRef(layer: layer.id, feature: drawables[i].feature))
          }
        }
        guard let request = drawables[i].label, let style = drawables[i].style.label else { continue }
        let feature = drawables[i].feature
        guard let text = request.text, request.skip == nil else {
          skip(li, feature, part: 0, request.text, style, request.skip ?? .noText)
          continue
        }
        let g = drawables[i].geometry
        if style.placement == .line {
          let lines = g.lines + g.polygons.flatMap { $0 }
          if lines.isEmpty {
            skip(li, feature, part: 0, text, style, .noPosition)
          } else {
            let device = lines.map { $0.map(v.toDevice) }
            candidates.append(
              Candidate(layer: li, feature: feature, part: 0, point: Point(0, 0), text: text, drawable: i, priority: style.priority, lines: device))
          }
        } else if !g.points.isEmpty {
          // Positions beyond the label's reach of the image are no candidates
          // (the rule that kept the feature: `SymbolReach.text`).
          let reach = SymbolReach.label(text, style: style, advance: fonts?.maxAdvance ?? 1) * ratio
          let near = frame.insetBy(-reach)
          for (k, p) in g.points.enumerated() {
            let q = v.toDevice(p)
            guard q.x >= near.minX, q.x <= near.maxX, q.y >= near.minY, q.y <= near.maxY else { continue }
            candidates.append(Candidate(layer: li, feature: feature, part: k, point: q, text: text, drawable: i, priority: style.priority))
          }
        } else if !g.polygons.isEmpty {
          if let p = InteriorPoint.ofLargestVisible(g.polygons, within: frame, toPixels: v.toDevice) {
            candidates.append(Candidate(layer: li, feature: feature, part: 0, point: p, text: text, drawable: i, priority: style.priority))
          } else {
            skip(li, feature, part: 0, text, style, .outOfBounds)
          }
        } else {
          skip(li, feature, part: 0, text, style, .noPosition)
        }
      }
    }
    // Higher priority first, then layers from the top down, then feature order.
    candidates.sort {
      if $0.priority != $1.priority { return $0.priority > $1.priority }
      if $0.layer != $1.layer { return $0.layer > $1.layer }
      if $0.feature.index != $1.feature.index { return $0.feature.index < $1.feature.index }
      return $0.part < $1.part
    }
    // Arrays of large elements are made to size (a candidate along a line
    // may keep several places; the rest keep at most one): growing them
    // copied each into fresh pages.
    // Only the candidates the text budget lets be laid out can be kept (each
    // costs at least one character): the arrays are made to that size, not
    // to the number of candidates.
    let layable = min(candidates.count, notes.budget.left)
    var blocks: [TextBlock] = []
    var placement: [PlacementCandidate] = []
    // Per kept candidate: its places' alternatives when it runs along a line.
    var along: [[LinePlacer.Alternative]?] = []
    blocks.reserveCapacity(layable)
    placement.reserveCapacity(layable)
    along.reserveCapacity(layable)
    // A candidate whose every box misses the image could show nothing: it is
    // `outOfBounds` and takes no part (piling such boxes up would slow the grid).
    var kept: [Candidate] = []
    kept.reserveCapacity(layable)
    if let fonts, threads != 1 {
      // The texts the loop below lays out, shaped side by side first: the
      // same budget spent in the same order decides which.
      var trial = TextBudget(limit: notes.budget.left)
      var texts: [(text: String, font: String?, maxWidth: Double?, letterSpacing: Double)] = []
      for c in candidates where trial.spend(c.text) {
        let style = style(of: c)
        texts.append((c.laidOutText, style.font, c.wrapWidth(style), style.letterSpacing))
      }
      fonts.prepareLayouts(texts, threads: threads)
    }
    for c in candidates {
      let style = style(of: c)
      // Without fonts (a caller that gave none) nothing can be laid out.
      guard let fonts else {
        skip(c.layer, c.feature, part: c.part, c.text, style, .noGlyphs)
        continue
      }
      guard notes.budget.spend(c.text) else {
        notes.budget.refuse(layer: c.layer)
        skip(c.layer, c.feature, part: c.part, c.text, style, .overBudget)
        continue
      }
      if let lines = c.lines {
        // Along a line: one line of text, one candidate per place
        // (`LinePlacer`).
        let block = fonts.layout(
          c.laidOutText, font: style.font, size: style.size * ratio, maxWidth: c.wrapWidth(style), letterSpacing: style.letterSpacing)
        notes.laidOut(block)
        guard !block.glyphs.isEmpty else {
          skip(c.layer, c.feature, part: c.part, c.text, style, .noGlyphs)
          continue
        }
        let placer = LinePlacer(
          block: block, frame: frame, spacing: style.spacing * ratio, maxAngle: style.maxAngle, halo: (style.halo?.width ?? 0) * ratio)
        // Each repetition is text laid out: the places after the first
        // spend the frame's text budget too, and stop where it runs out.
        let characters = max(1, c.text.unicodeScalars.count)
        switch placer.places(along: lines, limit: 1 + notes.budget.left / characters) {
        case .failure(let e):
          let reason: LabelHiddenReason = e.reason == .outOfBounds ? .outOfBounds : e.reason == .tooShort ? .lineTooShort : .tooCurved
          skip(c.layer, c.feature, part: c.part, c.text, style, reason)
        case .success(let places):
          notes.budget.spend(count: (places.count - 1) * characters)
          for (k, alternatives) in places.enumerated() {
            var candidate = PlacementCandidate(id: kept.count, boxes: alternatives.map(\.union), allowOverlap: style.allowOverlap)
            candidate.parts = alternatives.map(\.boxes)
            candidate.mustFit = style.avoidEdges
            var placed = c
            placed.part = k
            blocks.append(block)
            placement.append(candidate)
            along.append(alternatives)
            kept.append(placed)
          }
        }
        continue
      }
      let block = fonts.layout(
        c.laidOutText, font: style.font, size: style.size * ratio, align: style.justify, maxWidth: c.wrapWidth(style),
        letterSpacing: style.letterSpacing)
      notes.laidOut(block)
      guard !block.glyphs.isEmpty else {
        skip(c.layer, c.feature, part: c.part, c.text, style, .noGlyphs)
        continue
      }
      let halo = (style.halo?.width ?? 0) * ratio
      let size = (block.width + 2 * halo, block.height + 2 * halo)
      let boxes = style.anchors.indices.map { k in
        let (dx, dy) = style.offset(forAnchorAt: k)
        return style.anchors[k].box(size: size, at: c.point, offset: Point(dx * ratio, dy * ratio))
      }
      guard boxes.contains(where: { CollisionGrid.overlaps($0, frame) }) else {
        skip(c.layer, c.feature, part: c.part, c.text, style, .outOfBounds)
        continue
      }
      blocks.append(block)
      var candidate = PlacementCandidate(id: kept.count, boxes: boxes, allowOverlap: style.allowOverlap)
      candidate.mustFit = style.avoidEdges
      placement.append(candidate)
      along.append(nil)
      kept.append(c)
    }
    candidates = kept
    // Obstacle k has id candidates.count + k.
    for k in obstacles.indices { obstacles[k].id = candidates.count + k }
    let result = MapSnap.place(placement, in: frame, mustFit: false, obstacles: obstacles)
    func logical(_ b: Rect) -> Rect { Rect(minX: b.minX / ratio, minY: b.minY / ratio, maxX: b.maxX / ratio, maxY: b.maxY / ratio) }
    var drawn: [PlacedLabel] = []
    drawn.reserveCapacity(min(candidates.count, layable))
    out.outcomes.reserveCapacity(out.outcomes.count + candidates.count)
    let skippedEnd = out.outcomes.count
    for (i, c) in candidates.enumerated() {
      let style = style(of: c)
      let placed = result.chosen[i]
      let box = placement[i].boxes[placed ?? (placement[i].boxes.count - 1)]
      var o = LabelOutcome(
        layer: state.layers[c.layer].id, layerIndex: c.layer, feature: c.feature, part: c.part, text: c.text,
        decision: placed != nil ? .placed : .hidden(!result.blockedBy[i].isEmpty ? .collision : style.avoidEdges ? .edge : .outOfBounds),
        anchor: along[i] == nil ? placed.map { style.anchors[$0] } : nil, box: logical(box),
        allowOverlap: style.allowOverlap, priority: style.priority)
      o.alongLine = along[i] != nil
      if placed == nil {
        let ids = result.blockedBy[i]
        if o.decision == .hidden(.outOfBounds) { o.box = nil }
        o.blockedByMore = result.blockedByMore[i]
        // Each blocking feature once, in the order first met. A label is
        // blocked by a few features at most but in crowds: searching the
        // list costs less than a set until `setFrom` of them.
        let setFrom = 32
        let useSet = ids.count >= setFrom
        var seen = Set<FeatureRef>()  // empty (no storage) unless `useSet`
        for id in ids {
          let ref = id < candidates.count
            ? FeatureRef(layer: state.layers[candidates[id].layer].id, feature: candidates[id].feature)
            : obstacleRefs[id - candidates.count]
          let first = useSet ? seen.insert(ref).inserted : !o.blockedBy.contains(ref)
          if first { o.blockedBy.append(ref) }
        }
      }
      out.outcomes.append(o)
      guard placed != nil else { continue }
      let block = blocks[i]
      notes.drawn(block)
      let halo = (style.halo?.width ?? 0) * ratio
      var run = GlyphRun(block: block, origin: Point(box.minX + halo, box.minY + halo), color: style.color, haloColor: style.halo?.color)
      run.haloWidth = halo
      if let alternatives = along[i], let j = placed { run.poses = alternatives[j].poses }
      // Its outcome's place once the runs are swapped: after those before `base`, the i-th.
      drawn.append(PlacedLabel(run: run, outcome: base + i))
    }
    // The skipped, in layer and feature order, after the placed and dropped.
    out.outcomes[base..<skippedEnd].sort { ($0.layerIndex, $0.feature.index, $0.part) < ($1.layerIndex, $1.feature.index, $1.part) }
    out.outcomes[base..<skippedEnd].reverse()
    out.outcomes[skippedEnd...].reverse()
    out.outcomes[base...].reverse()
    for o in out.outcomes {
      var counts = out.labelCounts[o.layerIndex] ?? LabelCounts()
      switch o.decision {
      case .placed:
        counts.placed += 1
      case .hidden(let r):
        counts.hidden[r, default: 0] += 1
        if r == .collision { counts.dropped += 1 }
      }
      out.labelCounts[o.layerIndex] = counts
    }
    out.labels = drawn.reversed()
  }
}

#if canImport(Glibc)
  import Glibc
#endif

extension String {
  /// The text on one line: each line break (`\n`, `\r\n`) a space.
  fileprivate func replacingNewlines() -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(unicodeScalars.count)
    for s in unicodeScalars where s != "\r" { out.unicodeScalars.append(s == "\n" ? " " : s) }
    return out
  }
}
