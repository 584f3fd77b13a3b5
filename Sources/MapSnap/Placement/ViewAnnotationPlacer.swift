/// Why a view annotation is not shown.
public enum HiddenReason: String, Sendable {
  /// `visible` is false.
  case notVisible
  /// The scale is outside its `minScale`/`maxScale`.
  case outOfScale
  /// It is on another floor than the one shown.
  case floor
  /// Its feature is not drawn at this scale and floor (or does not exist).
  case featureHidden
  /// Its position is outside the viewport, or no anchor puts the box wholly inside.
  case outOfBounds
  /// Every anchor that fits overlaps a box placed before it (`blockedBy`).
  case collision
}

/// What happened to one view annotation.
public struct ViewAnnotationOutcome: Sendable {
  public var id: String
  public var visible: Bool
  /// The anchor taken, when placed.
  public var anchor: Anchor?
  /// Which entry of `anchors` was taken (0 is the first), when placed.
  public var anchorIndex: Int?
  /// The box in logical pixels from the image's top-left corner, when placed.
  public var box: Rect?
  public var reason: HiddenReason?
  /// For `collision`: the ids of the placed boxes in the way, in scene order.
  public var blockedBy: [String] = []
  /// The annotated position in logical pixels, when one was found.
  public var position: Point?
}

/// A placed box ready to draw, in device pixels.
public struct PlacedBox: Sendable {
  public var box: Rect
  public var style: ViewAnnotation.Style
  public var text: PlacedText
}

/// View annotations resolved for one frame: every outcome in scene order, and
/// the placed boxes in drawing order.
public struct ViewAnnotationPlacement: Sendable {
  public var outcomes: [ViewAnnotationOutcome] = []
  /// Bottom first: unselected below selected, lower priority below higher, and
  /// for equal priority later in the list on top.
  public var boxes: [PlacedBox] = []
  /// Code points of view annotation texts that no font covers.
  public var missingCodePoints: [Unicode.Scalar] = []
  /// Faces (library indices) the texts were drawn from.
  var faces: Set<Int> = []

  public init() {}
}

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
public struct ViewAnnotationPlacer {
  public let state: MapState
  public let scene: Scene
  let fonts: FontLibrary

  public init(state: MapState, scene: Scene, fonts: FontLibrary) {
    self.state = state
    self.scene = scene
    self.fonts = fonts
  }

  public func place() -> ViewAnnotationPlacement {
    let v = state.viewport
    let ratio = v.pixelRatio
    let frame = Rect(minX: 0, minY: 0, maxX: Double(v.deviceWidth) / ratio, maxY: Double(v.deviceHeight) / ratio)
    let annotations = scene.viewAnnotations
    var outcomes = annotations.map { ViewAnnotationOutcome(id: $0.id, visible: false) }
    var blocks: [TextBlock?] = Array(repeating: nil, count: annotations.count)
    var candidates: [Int] = []
    var positions: [Point] = Array(repeating: Point(0, 0), count: annotations.count)
    let features = FeatureIndex(state: state, annotations: annotations)
    for (i, a) in annotations.enumerated() {
      if !a.visible {
        outcomes[i].reason = .notVisible
      } else if !a.scaleRange.contains(v.scale) {
        outcomes[i].reason = .outOfScale
      } else if let floor = state.floor, let f = a.floor, f != floor {
        outcomes[i].reason = .floor
      } else {
        switch position(of: a, frame: frame, features: features) {
        case .hidden:
          outcomes[i].reason = .featureHidden
        case .outside(let p):
          outcomes[i].reason = .outOfBounds
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
    for (k, i) in candidates.enumerated() {
      let a = annotations[i]
      let block = fonts.layout(a.text, font: a.style.font, size: a.style.fontSize * ratio, align: .center)
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
        outcomes[i].visible = true
        outcomes[i].anchor = annotations[i].anchors[chosen].anchor
        outcomes[i].anchorIndex = chosen
        outcomes[i].box = placement[k].boxes[chosen]
        placedOrder.append(i)
      } else if result.blockedBy[k].isEmpty {
        outcomes[i].reason = .outOfBounds
      } else {
        outcomes[i].reason = .collision
        outcomes[i].blockedBy = result.blockedBy[k].map { candidates[$0] }.sorted().map { annotations[$0].id }
      }
    }
    // Drawing order: unselected below selected, lower priority below higher,
    // equal priority in list order (later on top).
    placedOrder.sort {
      if selected[$0] != selected[$1] { return !selected[$0] }
      if priority[$0] != priority[$1] { return priority[$0] < priority[$1] }
      return $0 < $1
    }
    var out = ViewAnnotationPlacement()
    out.outcomes = outcomes
    out.missingCodePoints = missing
    for i in placedOrder {
      let a = annotations[i]
      let b = outcomes[i].box!
      let device = Rect(minX: b.minX * ratio, minY: b.minY * ratio, maxX: b.maxX * ratio, maxY: b.maxY * ratio)
      let block = blocks[i]!
      for g in block.glyphs { out.faces.insert(g.face) }
      let origin = Point((device.minX + device.maxX - block.width) / 2, (device.minY + device.maxY - block.height) / 2)
      var text = PlacedText(color: a.style.textColor, haloColor: nil)
      text.atlas = fonts.atlas
      text.glyphMasks = fonts.masks(for: block, at: origin)
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
    case outside(Point)
    case hidden
  }

  /// Where each tied feature is: its layer's state and the drawable with its
  /// id, indexed once per frame (only layers some annotation names).
  private struct FeatureIndex {
    var layers: [String: (state: LayerState, drawables: [FloorValue: Int])] = [:]

    init(state: MapState, annotations: [ViewAnnotation]) {
      var named = Set<String>()
      for a in annotations { if case .feature(let layer, _) = a.target { named.insert(layer) } }
      for l in state.layers where named.contains(l.id) {
        var ids: [FloorValue: Int] = [:]
        for (k, d) in l.drawables.enumerated() {
          if let id = d.featureID, ids[id] == nil { ids[id] = k }  // the first drawn feature with the id
        }
        layers[l.id] = (l, ids)
      }
    }
  }

  /// The annotated position in logical pixels.
  private func position(of a: ViewAnnotation, frame: Rect, features: FeatureIndex) -> Position {
    let v = state.viewport
    let ratio = v.pixelRatio
    func logical(_ m: Point) -> Point {
      let d = v.toDevice(m)
      return Point(d.x / ratio, d.y / ratio)
    }
    func inside(_ p: Point) -> Bool { p.x >= frame.minX && p.x <= frame.maxX && p.y >= frame.minY && p.y <= frame.maxY }
    switch a.target {
    case .coordinate(let lon, let lat):
      let p = logical(WebMercator.project(lon: lon, lat: lat))
      return inside(p) ? .at(p) : .outside(p)
    case .feature(let layerID, let featureID):
      guard let (layer, ids) = features.layers[layerID], layer.status.contains(.active) else { return .hidden }
      guard let k = ids[featureID] else {
        return layer.offFrameIDs.contains(featureID) ? .outside(Point(-1, -1)) : .hidden
      }
      let d = layer.drawables[k]
      let g = d.geometry
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
        var bestArea = -1.0
        var best: Point? = nil
        for polygon in g.polygons {
          let rings = polygon.map { $0.map(logical) }
          let clipped = InteriorPoint.clip(rings[0], to: frame)
          guard clipped.count >= 3 else { continue }
          var area = 0.0
          var prev = clipped[clipped.count - 1]
          for q in clipped {
            area += prev.x * q.y - q.x * prev.y
            prev = q
          }
          if abs(area) > bestArea, let p = InteriorPoint.of(rings, within: frame) {
            bestArea = abs(area)
            best = p
          }
        }
        if let best { return .at(best) }
        return .outside(logical(g.polygons[0][0][0]))
      }
      return .hidden
    }
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
