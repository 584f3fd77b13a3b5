/// A text ready to draw, in device pixels: glyph outlines, colour and halo.
///
/// Unrotated text is a list of glyph masks (rasterised once per glyph, size,
/// quarter-pixel offset and halo width, then copied); rotated text is drawn
/// from its outlines.
public struct PlacedText: Sendable {
  public var color: Color
  public var haloColor: Color?
  /// Rotated text: glyph outlines, filled with the non-zero rule.
  public var path: Path?
  /// Rotated text: the halo, every glyph outline stroked with round joins.
  public var halo: Path?
  /// Unrotated text: glyph masks and their integer positions.
  var glyphMasks: [(mask: Int, x: Int, y: Int)] = []
  var haloMasks: [(mask: Int, x: Int, y: Int)] = []
  var atlas: MaskAtlas?
}

/// What happened to one label candidate.
public struct LabelOutcome: Sendable {
  public var layer: String
  public var text: String
  public var placed: Bool
  /// The anchor taken, when placed.
  public var anchor: Anchor?
  /// The label box (text block grown by the halo) in logical pixels from the
  /// image's top-left corner; for a dropped label, the box of its last anchor.
  public var box: Rect
  public var allowOverlap: Bool
}

/// Text for one frame: every annotation laid out at its geographic size and
/// every label placed with collision detection. Made in one serial pass
/// before the display list, so FreeType is used from one thread and the tiles
/// only read finished outlines.
public struct TextPlacement: Sendable {
  /// Per layer (index into `MapState.layers`), its annotation texts in order.
  public var annotations: [Int: [PlacedText]] = [:]
  /// Placed labels in drawing order (lower priority first, so higher
  /// priority labels are drawn on top).
  public var labels: [PlacedText] = []
  /// Every label candidate in placement order.
  public var outcomes: [LabelOutcome] = []
  /// Per layer index: labels placed and dropped.
  public var labelCounts: [Int: (placed: Int, dropped: Int)] = [:]
  /// Code points no font covers, in order of first appearance.
  public var missingCodePoints: [Unicode.Scalar] = []
  /// Full names of the faces glyphs were drawn from.
  public var fontsUsed: [String] = []

  public init() {}
}

/// Lays out and places the text of a resolved map.
///
/// Labels (section 3.1): candidates are the drawn features whose style has a
/// label and whose `field` has a value; a point labels at each of its
/// positions, a polygon at an interior point of its visible part (largest
/// polygon of a multi-polygon), lines are not labelled. Order: higher
/// `priority` first, then layers from the top down, then feature order. Each
/// takes its first anchor whose box overlaps no placed label and no marker with
/// `collides: true` (touching edges do not overlap); with none it is dropped.
/// The box is the text block (widest line × line height × lines) grown by the
/// halo width on every side. Labels may run off the image edge.
///
/// Annotation (section 3.3): drawn at `size × referenceScale / scale`, halo
/// likewise; `align` and `baseline` say which point of the text block sits on
/// the anchor; the angle turns the block about the anchor. Text smaller than
/// one device pixel per em is not drawn.
public struct TextPlacer {
  public let state: MapState
  public let scene: Scene
  let fonts: FontLibrary
  let icons: IconCache

  public init(state: MapState, scene: Scene, fonts: FontLibrary, icons: IconCache = IconCache()) {
    self.state = state
    self.scene = scene
    self.fonts = fonts
    self.icons = icons
  }

  public func place() -> TextPlacement {
    var out = TextPlacement()
    var faces = Set<Int>()
    var missing: [Unicode.Scalar] = []
    func note(_ block: TextBlock) {
      for g in block.glyphs { faces.insert(g.face) }
      for m in block.missing where !missing.contains(m) { missing.append(m) }
    }
    placeAnnotations(into: &out, note: note)
    placeLabels(into: &out, note: note)
    out.missingCodePoints = missing
    out.fontsUsed = faces.sorted().map { fonts.faces[$0].fullName }
    return out
  }

  // MARK: - Annotation

  private func placeAnnotations(into out: inout TextPlacement, note: (TextBlock) -> Void) {
    let v = state.viewport
    for (li, layer) in state.layers.enumerated() where !layer.annotations.isEmpty {
      guard case .annotation(let anno) = scene.layers[layer.index].content else { continue }
      var texts: [PlacedText] = []
      let factor = anno.referenceScale / v.scale * v.pixelRatio
      for a in layer.annotations {
        let style = anno.sublayers[a.sublayer].style
        let size = style.size * factor
        guard size >= 1, size <= FontLibrary.maxTextSize else { continue }
        let block = fonts.layout(a.text, font: style.font, size: size, align: style.align)
        note(block)
        let anchor = v.toDevice(a.point)
        let fx = style.align == .left ? 0 : style.align == .center ? 0.5 : 1
        let fy = style.baseline == .top ? 0 : style.baseline == .middle ? 0.5 : 1
        let origin = anchor - Point(block.width * fx, block.height * fy)
        let haloWidth = (style.halo?.width ?? 0) * factor
        var text = PlacedText(color: style.color, haloColor: style.halo?.color)
        if a.angle.truncatingRemainder(dividingBy: 360) == 0 && size <= FontLibrary.maxMaskedTextSize {
          text.atlas = fonts.atlas
          text.glyphMasks = fonts.masks(for: block, at: origin)
          if haloWidth > 0 { text.haloMasks = fonts.masks(for: block, at: origin, halo: haloWidth) }
        } else {
          text.path = fonts.path(for: block, at: origin, degrees: a.angle, pivot: anchor)
          if haloWidth > 0 { text.halo = fonts.path(for: block, at: origin, degrees: a.angle, pivot: anchor, halo: haloWidth) }
        }
        texts.append(text)
      }
      out.annotations[li] = texts
    }
  }

  // MARK: - Labels

  private struct Candidate {
    var layer: Int
    var order: Int
    var part: Int
    var priority: Double
    var point: Point
    var text: String
    var style: LabelStyle
  }

  private func placeLabels(into out: inout TextPlacement, note: (TextBlock) -> Void) {
    let v = state.viewport
    let frame = Rect(minX: 0, minY: 0, maxX: Double(v.deviceWidth), maxY: Double(v.deviceHeight))
    var candidates: [Candidate] = []
    var obstacles: [(Rect, id: Int)] = []
    for (li, layer) in state.layers.enumerated() where layer.status.contains(.active) {
      for d in layer.drawables {
        if let m = d.style.marker, m.collides {
          for p in d.geometry.points { obstacles.append((markerBox(m, at: v.toDevice(p)), id: -1)) }
        }
        guard let style = d.style.label, let text = d.labelText, !text.isEmpty else { continue }
        var points: [Point] = d.geometry.points.map(v.toDevice)
        if points.isEmpty, let polygon = largestPolygon(d.geometry, frame: frame), let p = InteriorPoint.of(polygon, within: frame) {
          points = [p]
        }
        // Generous bound on how far a label can reach from its point.
        let reach = style.size * v.pixelRatio * Double(text.count + 2) + (abs(style.offset.0) + abs(style.offset.1) + (style.halo?.width ?? 0)) * v.pixelRatio
        for (k, p) in points.enumerated() where frame.insetBy(-reach).intersects(Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) {
          candidates.append(Candidate(layer: li, order: d.order, part: k, priority: style.priority, point: p, text: text, style: style))
        }
      }
    }
    // Higher priority first, then layers from the top down, then feature order.
    candidates.sort {
      if $0.priority != $1.priority { return $0.priority > $1.priority }
      if $0.layer != $1.layer { return $0.layer > $1.layer }
      if $0.order != $1.order { return $0.order < $1.order }
      return $0.part < $1.part
    }
    var blocks: [TextBlock] = []
    var placement: [PlacementCandidate] = []
    blocks.reserveCapacity(candidates.count)
    // A candidate whose every box misses the image is not a candidate: it
    // could show nothing, and piling such boxes up would slow the grid.
    var kept: [Candidate] = []
    for c in candidates {
      let block = fonts.layout(c.text, font: c.style.font, size: c.style.size * v.pixelRatio, align: .left)
      let halo = (c.style.halo?.width ?? 0) * v.pixelRatio
      let size = (block.width + 2 * halo, block.height + 2 * halo)
      let offset = Point(c.style.offset.0 * v.pixelRatio, c.style.offset.1 * v.pixelRatio)
      let boxes = c.style.anchors.map { $0.box(size: size, at: c.point, offset: offset) }
      guard boxes.contains(where: { CollisionGrid.overlaps($0, frame) }) else { continue }
      blocks.append(block)
      placement.append(PlacementCandidate(id: kept.count, boxes: boxes, allowOverlap: c.style.allowOverlap))
      kept.append(c)
    }
    candidates = kept
    let result = MapSnap.place(placement, in: frame, mustFit: false, obstacles: obstacles)
    var drawn: [PlacedText] = []
    for (i, c) in candidates.enumerated() {
      let placed = result.chosen[i]
      let boxIndex = placed ?? (placement[i].boxes.count - 1)
      let box = placement[i].boxes[boxIndex]
      var counts = out.labelCounts[state.layers[c.layer].index] ?? (0, 0)
      if placed != nil { counts.placed += 1 } else { counts.dropped += 1 }
      out.labelCounts[state.layers[c.layer].index] = counts
      out.outcomes.append(
        LabelOutcome(
          layer: state.layers[c.layer].id, text: c.text, placed: placed != nil, anchor: placed.map { c.style.anchors[$0] },
          box: Rect(minX: box.minX / v.pixelRatio, minY: box.minY / v.pixelRatio, maxX: box.maxX / v.pixelRatio, maxY: box.maxY / v.pixelRatio),
          allowOverlap: c.style.allowOverlap))
      guard placed != nil else { continue }
      let block = blocks[i]
      note(block)
      let halo = (c.style.halo?.width ?? 0) * v.pixelRatio
      let origin = Point(box.minX + halo, box.minY + halo)
      var text = PlacedText(color: c.style.color, haloColor: c.style.halo?.color)
      if block.size <= FontLibrary.maxMaskedTextSize {
        text.atlas = fonts.atlas
        text.glyphMasks = fonts.masks(for: block, at: origin)
        if halo > 0 { text.haloMasks = fonts.masks(for: block, at: origin, halo: halo) }
      } else {
        text.path = fonts.path(for: block, at: origin)
        if halo > 0 { text.halo = fonts.path(for: block, at: origin, halo: halo) }
      }
      drawn.append(text)
    }
    out.labels = drawn.reversed()
  }

  /// The device-pixel box a marker covers: its shape's bounds, or its icon's
  /// rectangle.
  private func markerBox(_ m: MarkerStyle, at p: Point) -> Rect {
    let r = state.viewport.pixelRatio
    if let path = m.icon, case .success(let image) = icons.image(atPath: path) {
      return iconRect(for: image, at: p, size: m.size, offset: m.offset, pixelRatio: r)
    }
    let c = p + Point(m.offset.0 * r, m.offset.1 * r)
    let s = m.size * r
    if m.shape == .pin && m.icon == nil {
      return Rect(minX: c.x - s / 2, minY: c.y - 1.5 * s, maxX: c.x + s / 2, maxY: c.y)
    }
    return Rect(minX: c.x - s / 2, minY: c.y - s / 2, maxX: c.x + s / 2, maxY: c.y + s / 2)
  }

  /// The polygon with the largest bounding area inside the frame, in device pixels.
  private func largestPolygon(_ g: Geometry, frame: Rect) -> [[Point]]? {
    let v = state.viewport
    var best: [[Point]]? = nil
    var bestArea = 0.0
    for polygon in g.polygons {
      let rings = polygon.map { $0.map(v.toDevice) }
      var b = Rect.empty
      for p in rings[0] { b.include(p) }
      let clipped = Rect(
        minX: max(b.minX, frame.minX), minY: max(b.minY, frame.minY), maxX: min(b.maxX, frame.maxX), maxY: min(b.maxY, frame.maxY))
      guard !clipped.isEmpty else { continue }
      let area = clipped.width * clipped.height
      if area > bestArea {
        bestArea = area
        best = rings
      }
    }
    return best
  }
}
