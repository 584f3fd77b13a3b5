@testable import MapSnap
import _MapSnapRaster
import Testing
import _MapSnapTestSupport

// View annotations (scene format section 4), read from the decisions
// (`snapshot.viewAnnotations.outcomes`, the drawing order in `.boxes`,
// `snapshot.report`) and checked in the pixels of the view-annotation golden
// scenes (`Golden/synthetic.py`: va-anchors, va-priority, va-edges,
// va-features, va-floors-scales, va-crowded). The images themselves are
// checked by `GoldenImageTests`.
//
// Expected boxes are computed here from the spec's words, not from
// `Anchor`: the anchor names the point of the box that sits on the position
// (`bottom` puts the box above it), `offsetX` moves the box right and
// `offsetY` moves it UP.

/// The view-annotation golden scenes' decisions, one nested suite per scene
/// (`swift test --filter ViewAnnotationTests` runs them all).
@Suite struct ViewAnnotationTests {}

// MARK: - Helpers

/// A resolved frame of a golden scene: the scene as loaded, the plan (every
/// decision) and, when rendered, the pixels.
private struct Frame {
  var scene: Scene
  var plan: FramePlan
  var snapshot: Snapshot?

  var viewport: Viewport { plan.state.viewport }
  var outcomes: [ViewAnnotationOutcome] { plan.viewAnnotations.outcomes }
  /// The frame in logical pixels.
  var bounds: Rect { Rect(minX: 0, minY: 0, maxX: Double(viewport.width), maxY: Double(viewport.height)) }

  func outcome(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ViewAnnotationOutcome {
    try #require(outcomes.first { $0.id == id }, "no outcome for view annotation \(id)", sourceLocation: sourceLocation)
  }

  func annotation(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ViewAnnotation {
    try #require(scene.viewAnnotations.first { $0.id == id }, "no view annotation \(id) in the scene", sourceLocation: sourceLocation)
  }

  /// The placed box of `id`, failing the test when it is hidden.
  func box(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Rect {
    let o = try outcome(id, sourceLocation: sourceLocation)
    return try #require(
      o.isPlaced ? o.box : nil, "\(id) is hidden (\(o.hiddenReason?.rawValue ?? "-"), blocked by \(o.blockedBy))", sourceLocation: sourceLocation)
  }

  /// A coordinate annotation's position in logical pixels, projected here.
  func point(_ a: ViewAnnotation) -> Point? {
    guard case .coordinate(let lon, let lat) = a.target else { return nil }
    let d = viewport.toDevice(WebMercator.project(lon: lon, lat: lat))
    return Point(d.x / viewport.pixelRatio, d.y / viewport.pixelRatio)
  }

  /// A design point of the scene (logical pixels at the scene's own scale)
  /// where it lies at the frame's scale: scaled about the frame's centre.
  func design(_ x: Double, _ y: Double) -> Point {
    let k = (scene.map.scale ?? viewport.scale) / viewport.scale
    let cx = Double(viewport.width) / 2, cy = Double(viewport.height) / 2
    return Point(cx + (x - cx) * k, cy + (y - cy) * k)
  }
}

/// The golden case `name` at `scale` and `floor` (the first listed when nil).
private func vaGolden(_ name: String, scale: Double? = nil, floor: String? = nil) throws -> GoldenCase {
  try #require(
    GoldenCase.all().first { $0.name == name && (scale == nil || $0.scale == scale) && (floor == nil || $0.floor == floor) },
    "no golden case \(name) at 1:\(scale.map { String($0) } ?? "-") floor \(floor ?? "-")")
}

/// Renders the golden case (pixels included).
private func vaRender(_ name: String, scale: Double? = nil, floor: String? = nil, options: RenderOptions = RenderOptions()) throws
  -> Frame
{
  let golden = try vaGolden(name, scale: scale, floor: floor)
  let scene = try SceneLoader.load(path: golden.scenePath)
  let plan = try FramePlan.make(
    scene, overrides: ViewOverrides(scale: golden.scale, pixelRatio: golden.pixelRatio, floor: golden.floor.map { FloorValue($0) }))
  return Frame(scene: scene, plan: plan, snapshot: Snapshot.render(plan, options: options))
}

/// Resolves `Golden/<name>/scene.json` with overrides, without pixels.
private func vaPlan(_ name: String, _ overrides: ViewOverrides = ViewOverrides(), edit: (inout Scene) -> Void = { _ in }) throws -> Frame {
  var scene = try SceneLoader.load(path: Repository.root + "/Golden/\(name)/scene.json")
  edit(&scene)
  return Frame(scene: scene, plan: try FramePlan.make(scene, overrides: overrides), snapshot: nil)
}

private func inside(_ b: Rect, _ frame: Rect) -> Bool {
  b.minX >= frame.minX && b.maxX <= frame.maxX && b.minY >= frame.minY && b.maxY <= frame.maxY
}

private func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-6) -> Bool {
  abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance && abs(a.maxX - b.maxX) <= tolerance
    && abs(a.maxY - b.maxY) <= tolerance
}

private func close(_ a: Point, _ b: Point, _ tolerance: Double) -> Bool {
  abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

private func describe(_ p: Point?) -> String {
  guard let p else { return "nil" }
  return "(\((p.x * 1000).rounded() / 1000), \((p.y * 1000).rounded() / 1000))"
}

/// The box the spec puts at `point` for `config` (written out per anchor
/// here, independently of `Anchor`): x right, y down; offsetY is UP.
private func specBox(_ config: ViewAnnotation.AnchorConfig, size: (width: Double, height: Double), at point: Point) -> Rect {
  let (w, h) = size
  let x = point.x + config.offsetX
  let y = point.y - config.offsetY
  let minX: Double, minY: Double
  switch config.anchor {
  case .center: (minX, minY) = (x - w / 2, y - h / 2)
  case .top: (minX, minY) = (x - w / 2, y)
  case .bottom: (minX, minY) = (x - w / 2, y - h)
  case .left: (minX, minY) = (x, y - h / 2)
  case .right: (minX, minY) = (x - w, y - h / 2)
  case .topLeft: (minX, minY) = (x, y)
  case .topRight: (minX, minY) = (x - w, y)
  case .bottomLeft: (minX, minY) = (x, y - h)
  case .bottomRight: (minX, minY) = (x - w, y - h)
  }
  return Rect(minX: minX, minY: minY, maxX: minX + w, maxY: minY + h)
}

/// Box sizes in logical pixels: `size`, or the text block plus padding and
/// border on every side (laid out with the bundled fonts).
private final class Sizer {
  let fonts: FontLibrary
  init() throws { fonts = try FontLibrary(directories: [FontLibrary.bundledDirectory]) }

  func size(_ a: ViewAnnotation, pixelRatio: Double = 1) -> (width: Double, height: Double) {
    if let s = a.size { return s }
    let block = fonts.layout(a.text, font: a.style.font, size: a.style.fontSize * pixelRatio, align: .center)
    let inset = a.style.padding + a.style.borderWidth
    return (block.width / pixelRatio + 2 * inset, block.height / pixelRatio + 2 * inset)
  }
}

/// What the spec says happens to each annotation of a frame, worked out here
/// from the scene with a plain O(n²) greedy placement. Positions come from
/// `position(i)` (nil: the annotation is left out of the comparison).
private struct Expected {
  var visible = false
  var anchorIndex: Int?
  var box: Rect?
  var reason: ViewAnnotationHiddenReason?
  var blockedBy: [String] = []
}

private func resolveBySpec(_ f: Frame, sizer: Sizer, position: (Int) -> Point?) -> [Expected?] {
  let annotations = f.scene.viewAnnotations
  let scale = f.viewport.scale
  let floor = f.plan.state.floor
  var expected = [Expected?](repeating: nil, count: annotations.count)
  var candidates: [(index: Int, point: Point)] = []
  for (i, a) in annotations.enumerated() {
    var e = Expected()
    let range = a.scaleRange
    if !a.visible {
      e.reason = .notVisible
    } else if !((range.minScale == 0 || scale <= range.minScale) && (range.maxScale == 0 || scale >= range.maxScale)) {
      e.reason = .outOfScale
    } else if let floor, let af = a.floor, af != floor {
      e.reason = .floor
    } else if let p = position(i) {
      if p.x < 0 || p.y < 0 || p.x > f.bounds.maxX || p.y > f.bounds.maxY {
        e.reason = .outOfBounds
      } else {
        candidates.append((i, p))
      }
    } else {
      continue
    }
    expected[i] = e
  }
  // Selected first, then higher priority, then list order.
  candidates.sort { l, r in
    let (a, b) = (annotations[l.index], annotations[r.index])
    if a.selected != b.selected { return a.selected }
    if a.priority != b.priority { return a.priority > b.priority }
    return l.index < r.index
  }
  var placed: [(index: Int, box: Rect)] = []
  for (i, p) in candidates {
    let a = annotations[i]
    let size = sizer.size(a, pixelRatio: f.viewport.pixelRatio)
    let boxes = a.anchors.map { specBox($0, size: size, at: p) }
    var e = Expected()
    for (k, b) in boxes.enumerated() where inside(b, f.bounds) {
      if a.allowOverlap || !placed.contains(where: { overlaps($0.box, b) }) {
        e.visible = true
        e.anchorIndex = k
        e.box = b
        break
      }
    }
    if e.visible {
      placed.append((i, e.box!))
    } else if !boxes.contains(where: { inside($0, f.bounds) }) {
      e.reason = .outOfBounds
    } else {
      e.reason = .collision
      let blockers = Set(placed.filter { q in boxes.contains { inside($0, f.bounds) && overlaps($0, q.box) } }.map(\.index))
      e.blockedBy = blockers.sorted().map { annotations[$0].id }
    }
    expected[i] = e
  }
  return expected
}

/// Compares every outcome of `f` with what the spec says; returns the
/// differences.
private func differencesFromSpec(_ f: Frame, sizer: Sizer, position: (Int) -> Point?) -> [String] {
  let expected = resolveBySpec(f, sizer: sizer, position: position)
  var bad: [String] = []
  for (i, e) in expected.enumerated() {
    guard let e else { continue }
    let a = f.scene.viewAnnotations[i]
    let o = f.outcomes[i]
    if o.id != a.id { bad.append("outcome \(i) is \(o.id), not \(a.id)") }
    if o.isPlaced != e.visible {
      bad.append(
        "\(a.id): visible \(o.isPlaced) (\(o.hiddenReason?.rawValue ?? "-") \(o.blockedBy)), the spec says \(e.visible) (\(e.reason?.rawValue ?? "-") \(e.blockedBy))"
      )
      continue
    }
    if e.visible {
      let k = e.anchorIndex!
      if o.anchor != a.anchors[k].anchor { bad.append("\(a.id): anchor \(o.anchor?.rawValue ?? "nil"), the spec takes \(a.anchors[k].anchor.rawValue) (index \(k))") }
      if o.box == nil || !close(o.box!, e.box!, 1e-6) { bad.append("\(a.id): box \(describe(o.box)), the spec's \(describe(e.box))") }
      if o.hiddenReason != nil { bad.append("\(a.id) is placed but has reason \(o.hiddenReason!.rawValue)") }
    } else {
      if o.hiddenReason != e.reason { bad.append("\(a.id): reason \(o.hiddenReason?.rawValue ?? "nil"), the spec's \(e.reason!.rawValue)") }
      if o.blockedBy != e.blockedBy { bad.append("\(a.id): blockedBy \(o.blockedBy), the spec's \(e.blockedBy)") }
      if o.box != nil || o.anchor != nil { bad.append("\(a.id) is hidden but has a box or anchor") }
    }
  }
  return bad
}

/// The placed annotations in the spec's drawing order (bottom first):
/// unselected below selected, lower priority below higher, equal priority in
/// list order (later on top).
private func specDrawingOrder(_ f: Frame) -> [Int] {
  let a = f.scene.viewAnnotations
  return f.outcomes.indices.filter { f.outcomes[$0].isPlaced }.sorted { l, r in
    if a[l].selected != a[r].selected { return !a[l].selected }
    if a[l].priority != a[r].priority { return a[l].priority < a[r].priority }
    return l < r
  }
}

/// The drawn boxes (`viewAnnotations.boxes`, in device pixels, bottom first)
/// as outcome indices, matched by their boxes.
private func drawnOrder(_ f: Frame) -> [Int?] {
  let r = f.viewport.pixelRatio
  return f.plan.viewAnnotations.boxes.map { placed in
    let b = Rect(minX: placed.box.minX / r, minY: placed.box.minY / r, maxX: placed.box.maxX / r, maxY: placed.box.maxY / r)
    return f.outcomes.indices.first { f.outcomes[$0].box.map { close($0, b, 1e-6) } ?? false }
  }
}

/// The report's `viewAnnotations` entries.
private func reportEntries(_ report: JSONValue) -> [JSONValue] {
  if case .array(let list)? = member(report, "viewAnnotations") { return list }
  return []
}

/// Checks each report entry against its outcome: placed ones carry `anchor`
/// and `box` [x, y, w, h], hidden ones `reason` (and `blockedBy` for
/// collisions). Returns the differences.
private func reportDifferences(_ f: Frame) -> [String] {
  let entries = reportEntries(f.plan.report)
  var bad: [String] = []
  if entries.count != f.outcomes.count { bad.append("\(entries.count) report entries for \(f.outcomes.count) annotations") }
  for (o, e) in zip(f.outcomes, entries) {
    if case .string(o.id)? = member(e, "id") {} else { bad.append("\(o.id): report id \(String(describing: member(e, "id")))") }
    if case .bool(o.isPlaced)? = member(e, "visible") {} else { bad.append("\(o.id): report visible is not \(o.isPlaced)") }
    if o.isPlaced, let b = o.box, let anchor = o.anchor {
      if case .string(anchor.rawValue)? = member(e, "anchor") {} else { bad.append("\(o.id): report anchor is not \(anchor.rawValue)") }
      if numbers(member(e, "box")) != [b.minX, b.minY, b.width, b.height] {
        bad.append("\(o.id): report box \(String(describing: member(e, "box"))) is not [x, y, w, h] of \(describe(b))")
      }
      if member(e, "reason") != nil { bad.append("\(o.id): a placed annotation has a reason in the report") }
    } else {
      if case .string(o.hiddenReason?.rawValue ?? "?")? = member(e, "reason") {} else {
        bad.append("\(o.id): report reason \(String(describing: member(e, "reason"))) is not \(o.hiddenReason?.rawValue ?? "nil")")
      }
      if o.hiddenReason == .collision {
        if strings(member(e, "blockedBy")) != o.blockedBy { bad.append("\(o.id): report blockedBy is not \(o.blockedBy)") }
      } else if member(e, "blockedBy") != nil {
        bad.append("\(o.id): blockedBy in the report of a \(o.hiddenReason?.rawValue ?? "?") annotation")
      }
      if member(e, "box") != nil || member(e, "anchor") != nil { bad.append("\(o.id): a hidden annotation has a box or anchor in the report") }
    }
  }
  return bad
}

/// The colour of the logical pixel whose top-left corner is (x, y) rounded
/// down (pixel ratio 1).
private func pixel(_ s: Snapshot, _ x: Double, _ y: Double) -> Color {
  let p = s.canvas.rgba(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
  return Color(r: p.r, g: p.g, b: p.b, a: p.a)
}

private func near(_ a: Color, _ b: Color, _ tolerance: Int = 3) -> Bool {
  abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
}

private func hex(_ c: Color) -> String {
  func h(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16) }
  return "#" + h(c.r) + h(c.g) + h(c.b)
}

/// A pixel inside `region` that lies in the padding ring of `box` (2–4.5 px
/// inside one edge, away from corners and text), or nil.
private func paddingPixel(of box: Rect, within region: Rect) -> (Double, Double)? {
  var y = (region.minY + 1).rounded(.down)
  while y + 0.5 < region.maxY - 1 {
    var x = (region.minX + 1).rounded(.down)
    while x + 0.5 < region.maxX - 1 {
      let (cx, cy) = (x + 0.5, y + 0.5)
      let dx = min(cx - box.minX, box.maxX - cx)
      let dy = min(cy - box.minY, box.maxY - cy)
      if cx > region.minX + 1 && cy > region.minY + 1 && ((dx >= 2 && dx <= 4.5 && dy >= 8) || (dy >= 2 && dy <= 4.5 && dx >= 8)) {
        return (x, y)
      }
      x += 1
    }
    y += 1
  }
  return nil
}

// MARK: - Anchors

extension ViewAnnotationTests {
  /// `Golden/va-anchors`: the nine anchors, each annotation at its own point;
  /// `a-*` without offsets, `o-*` with offsetX 10 and offsetY 10.
  @Suite struct Anchors {
    @Test func everyAnchorPutsTheBoxWhereTheSpecSays() throws {
      let f = try vaRender("va-anchors")
      #expect(f.outcomes.count == 18)
      var seen: Set<Anchor> = []
      for a in f.scene.viewAnnotations {
        let config = try #require(a.anchors.first)
        #expect(a.anchors.count == 1)
        seen.insert(config.anchor)
        let o = try f.outcome(a.id)
        let b = try f.box(a.id)
        #expect(o.anchor == config.anchor, "\(a.id)")
        let p = try #require(f.point(a))
        #expect(close(o.position ?? Point(-1, -1), p, 1e-6), "\(a.id): position \(describe(o.position)), projected \(describe(p))")
        // The anchor position: the point moved offsetX right and offsetY UP.
        let x = p.x + config.offsetX
        let y = p.y - config.offsetY
        if a.id.hasPrefix("o-") {
          #expect(config.offsetX == 10 && config.offsetY == 10)
        } else {
          #expect(config.offsetX == 0 && config.offsetY == 0)
        }
        let eps = 1e-6
        func at(_ u: Double, _ v: Double) -> Bool { abs(u - v) <= eps }
        let (midX, midY) = ((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)
        let where_ = "\(a.id): box \(describe(b)) for the point \(describe(p))"
        switch config.anchor {
        case .center: #expect(at(midX, x) && at(midY, y), "\(where_): centred on it")
        case .bottom: #expect(at(b.maxY, y) && at(midX, x), "\(where_): above it, bottom edge's middle on it")
        case .top: #expect(at(b.minY, y) && at(midX, x), "\(where_): below it, top edge's middle on it")
        case .left: #expect(at(b.minX, x) && at(midY, y), "\(where_): right of it, left edge's middle on it")
        case .right: #expect(at(b.maxX, x) && at(midY, y), "\(where_): left of it, right edge's middle on it")
        case .topLeft: #expect(at(b.minX, x) && at(b.minY, y), "\(where_): below right, top-left corner on it")
        case .topRight: #expect(at(b.maxX, x) && at(b.minY, y), "\(where_): below left, top-right corner on it")
        case .bottomLeft: #expect(at(b.minX, x) && at(b.maxY, y), "\(where_): above right, bottom-left corner on it")
        case .bottomRight: #expect(at(b.maxX, x) && at(b.maxY, y), "\(where_): above left, bottom-right corner on it")
        }
        // The same through the spec table, and for `bottom`/`top` the box is
        // wholly above/below the point.
        #expect(close(b, specBox(config, size: (b.width, b.height), at: p)), "\(where_)")
        if config.anchor == .bottom { #expect(b.maxY <= p.y - config.offsetY + eps && b.minY < p.y) }
        if config.anchor == .top { #expect(b.minY >= p.y - config.offsetY - eps && b.maxY > p.y) }
      }
      #expect(seen == Set(Anchor.allCases), "every anchor is exercised")
    }

    /// The points are where `Golden/synthetic.py` designed them: the grid
    /// position mirrors the anchor, 80 px apart, the offset grid 420 px right.
    @Test func pointsAreWhereDesigned() throws {
      let f = try vaPlan("va-anchors")
      for a in f.scene.viewAnnotations {
        let u = a.anchors[0].anchor.unitPosition
        let x0 = a.id.hasPrefix("o-") ? 530.0 : 110
        let expected = Point(x0 + 80 * (2 * (1 - u.x)).rounded(), 60 + 90 * (2 * (1 - u.y)).rounded())
        let p = try #require(f.outcomes.first { $0.id == a.id }?.position)
        #expect(close(p, expected, 1e-3), "\(a.id) at \(describe(p)), designed at \(describe(expected))")
      }
    }

    /// An offset annotation's box is its unshifted twin's, relative to its
    /// point, moved 10 px right and 10 px up.
    @Test func offsetsMoveRightAndUp() throws {
      let f = try vaPlan("va-anchors")
      for anchor in Anchor.allCases {
        let plain = try f.outcome("a-\(anchor.rawValue)")
        let moved = try f.outcome("o-\(anchor.rawValue)")
        let (pb, pp) = (try f.box(plain.id), try #require(plain.position))
        let (mb, mp) = (try f.box(moved.id), try #require(moved.position))
        #expect(abs((mb.minX - mp.x) - (pb.minX - pp.x) - 10) < 1e-6, "\(anchor): moved right by 10")
        #expect(abs((mb.minY - mp.y) - (pb.minY - pp.y) + 10) < 1e-6, "\(anchor): moved up by 10 (smaller y)")
        #expect(abs(mb.width - pb.width) < 1e-9 && abs(mb.height - pb.height) < 1e-9, "\(anchor): same text, same size")
      }
    }

    /// A box fits its text: one line of 11 px DejaVu Sans is 1.164 em tall,
    /// plus padding 6 and border 1 on each side; the width is the text's
    /// advance plus the same.
    @Test func boxFitsTheText() throws {
      let f = try vaPlan("va-anchors")
      let sizer = try Sizer()
      for a in f.scene.viewAnnotations {
        let b = try f.box(a.id)
        #expect(a.style.fontSize == 11 && a.style.padding == 6 && a.style.borderWidth == 1)
        #expect(abs(b.height - (1.164 * 11 + 14)) < 0.01, "\(a.id): height \(b.height)")
        let s = sizer.size(a)
        #expect(abs(b.width - s.width) < 1e-6 && abs(b.height - s.height) < 1e-6, "\(a.id): \(b.width)×\(b.height), text \(s)")
        #expect(b.width > 14 + 4 * Double(a.text.count) && b.width < 14 + 9 * Double(a.text.count), "\(a.id): width \(b.width)")
      }
    }

    /// At pixel ratio 2 the boxes (logical pixels) are the same, and the
    /// drawn boxes are twice as large in device pixels.
    @Test func pixelRatioTwoKeepsLogicalBoxes() throws {
      let one = try vaPlan("va-anchors")
      let two = try vaPlan("va-anchors", ViewOverrides(pixelRatio: 2))
      for (a, b) in zip(one.outcomes, two.outcomes) {
        #expect(a.id == b.id && a.anchor == b.anchor && b.isPlaced)
        #expect(close(try #require(a.box), try #require(b.box), 0.01), "\(a.id): \(describe(a.box)) at 1x, \(describe(b.box)) at 2x")
      }
      for (p1, p2) in zip(one.plan.viewAnnotations.boxes, two.plan.viewAnnotations.boxes) {
        #expect(abs(p2.box.width - 2 * p1.box.width) < 0.02 && abs(p2.box.minX - 2 * p1.box.minX) < 0.02)
      }
    }

    /// The boxes are drawn where the outcomes say: the yellow background
    /// fills each `o-*` box 3 px inside every edge, and is absent 3 px
    /// outside.
    @Test func boxesAreDrawnWhereReported() throws {
      let f = try vaRender("va-anchors")
      let s = try #require(f.snapshot)
      let yellow = Color(r: 0xff, g: 0xf3, b: 0xc4)
      for anchor in Anchor.allCases {
        let b = try f.box("o-\(anchor.rawValue)")
        let (mx, my) = ((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)
        for (x, y) in [(b.minX + 3, my), (b.maxX - 3, my), (mx, b.minY + 3), (mx, b.maxY - 3)] {
          #expect(near(pixel(s, x, y), yellow), "o-\(anchor.rawValue): \(hex(pixel(s, x, y))) at (\(x), \(y)), inside \(describe(b))")
        }
        for (x, y) in [(b.minX - 3, my), (b.maxX + 3, my), (mx, b.minY - 3), (mx, b.maxY + 3)] {
          #expect(!near(pixel(s, x, y), yellow, 20), "o-\(anchor.rawValue): yellow at (\(x), \(y)), outside \(describe(b))")
        }
      }
    }

    /// The report gives each placed annotation `visible`, `anchor` and
    /// `box` [x, y, w, h] in logical pixels.
    @Test func reportHasAnchorAndBox() throws {
      let f = try vaPlan("va-anchors")
      let bad = reportDifferences(f)
      #expect(bad.isEmpty, "\(bad.joined(separator: "; "))")
      let entry = try #require(reportEntries(f.plan.report).first { if case .string("a-top-left")? = member($0, "id") { true } else { false } })
      let b = try f.box("a-top-left")
      #expect(strings(.array([member(entry, "anchor") ?? .null])) == ["top-left"])
      #expect(numbers(member(entry, "box")) == [b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY])
    }
  }
}

// MARK: - Priority, selection, list order, anchors, stacking

extension ViewAnnotationTests {
  /// `Golden/va-priority`.
  @Suite struct Priority {
    @Test func higherPriorityWins() throws {
      let f = try vaPlan("va-priority")
      #expect(try f.outcome("p3").isPlaced)
      for loser in ["p1", "p2"] {
        let o = try f.outcome(loser)
        #expect(!o.isPlaced && o.hiddenReason == .collision && o.blockedBy == ["p3"], "\(loser): \(o.hiddenReason?.rawValue ?? "-") \(o.blockedBy)")
      }
    }

    @Test func selectedBeatsAHigherPriority() throws {
      let f = try vaPlan("va-priority")
      #expect(try f.annotation("prio5").priority == 5 && f.annotation("sel").priority == 0 && f.annotation("sel").selected)
      #expect(try f.outcome("sel").isPlaced)
      let o = try f.outcome("prio5")
      #expect(!o.isPlaced && o.hiddenReason == .collision && o.blockedBy == ["sel"], "prio5: \(o.hiddenReason?.rawValue ?? "-") \(o.blockedBy)")
    }

    @Test func equalPriorityEarlierInTheListWins() throws {
      let f = try vaPlan("va-priority")
      #expect(try f.annotation("first").priority == f.annotation("second").priority)
      #expect(try f.outcome("first").isPlaced)
      let o = try f.outcome("second")
      #expect(!o.isPlaced && o.hiddenReason == .collision && o.blockedBy == ["first"])
    }

    /// v1 [bottom]; v2 [bottom, top] takes top; v3 [.., left] left; v4
    /// [.., right] right; v5 [bottom, top, center] is blocked by all four.
    @Test func variableAnchorsTakeTheFirstFreeOne() throws {
      let f = try vaPlan("va-priority")
      let expected: [(String, Anchor, Int)] = [("v1", .bottom, 0), ("v2", .top, 1), ("v3", .left, 2), ("v4", .right, 3)]
      var boxes: [Rect] = []
      for (id, anchor, k) in expected {
        let a = try f.annotation(id)
        let o = try f.outcome(id)
        let b = try f.box(id)
        #expect(o.anchor == anchor, "\(id) took \(o.anchor?.rawValue ?? "nil")")
        let p = try #require(f.point(a))
        #expect(close(b, specBox(a.anchors[k], size: (b.width, b.height), at: p)), "\(id): \(describe(b))")
        // Every earlier anchor's box overlaps an annotation placed before.
        for e in 0..<k {
          let earlier = specBox(a.anchors[e], size: (b.width, b.height), at: p)
          #expect(boxes.contains { overlaps($0, earlier) }, "\(id): anchor \(a.anchors[e].anchor) was free")
        }
        boxes.append(b)
      }
      let v5 = try f.outcome("v5")
      #expect(!v5.isPlaced && v5.hiddenReason == .collision && v5.blockedBy == ["v1", "v2", "v3", "v4"], "v5: \(v5.blockedBy)")
    }

    /// allowOverlap: placed over p3, yet drawn below it (lower priority);
    /// and an allowOverlap box blocks later boxes that do not allow overlap.
    @Test func allowOverlapPlacesButDoesNotRaise() throws {
      let f = try vaRender("va-priority")
      let s = try #require(f.snapshot)
      let top = try f.box("p3"), under = try f.box("p0-overlap")
      #expect(overlaps(top, under))
      let region = Rect(
        minX: max(top.minX, under.minX), minY: max(top.minY, under.minY), maxX: min(top.maxX, under.maxX), maxY: min(top.maxY, under.maxY))
      let (x, y) = try #require(paddingPixel(of: top, within: region))
      let green = Color(r: 0xd8, g: 0xf3, b: 0xdc)
      #expect(near(pixel(s, x, y), green), "p3's background over p0-overlap at (\(x), \(y)): \(hex(pixel(s, x, y)))")
      let f6 = try f.outcome("st-f")
      #expect(!f6.isPlaced && f6.hiddenReason == .collision && f6.blockedBy == ["st-a", "st-b", "st-c"], "st-f: \(f6.blockedBy)")
    }

    /// Drawing order: unselected below selected, lower priority below
    /// higher, equal priority later in the list on top; checked in
    /// `viewAnnotations.boxes` and in the pixels where neighbours overlap.
    @Test func stackingOrder() throws {
      let f = try vaRender("va-priority")
      let s = try #require(f.snapshot)
      let drawn = drawnOrder(f)
      #expect(drawn.allSatisfy { $0 != nil }, "every drawn box is a placed outcome's")
      #expect(drawn.compactMap { $0 } == specDrawingOrder(f), "drawn \(drawn.map { $0.map { f.outcomes[$0].id } ?? "?" })")
      // Neighbours in the row and which one is on top.
      let pairs: [(String, String, String)] = [
        ("st-a", "st-b", "st-b"),  // selected over priority 1
        ("st-b", "st-c", "st-b"),  // selected over priority 2
        ("st-c", "st-d", "st-c"),  // priority 2 over 1
        ("st-d", "st-e", "st-d"),  // equal priority: st-d is later in the list
      ]
      for (l, r, topID) in pairs {
        let (lb, rb) = (try f.box(l), try f.box(r))
        let region = Rect(minX: max(lb.minX, rb.minX), minY: max(lb.minY, rb.minY), maxX: min(lb.maxX, rb.maxX), maxY: min(lb.maxY, rb.maxY))
        #expect(region.width > 15, "\(l) and \(r) overlap by \(region.width) px")
        let colour = try f.annotation(topID).style.background
        let (mx, my) = ((region.minX + region.maxX) / 2, (region.minY + region.maxY) / 2)
        #expect(near(pixel(s, mx, my), colour), "\(l)/\(r): \(hex(pixel(s, mx, my))) at (\(mx), \(my)), expected \(topID)'s \(hex(colour))")
      }
    }

    /// Every outcome is what the spec's greedy resolution gives.
    @Test func outcomesFollowTheSpec() throws {
      let f = try vaPlan("va-priority")
      let bad = differencesFromSpec(f, sizer: try Sizer()) { f.point(f.scene.viewAnnotations[$0]) }
      #expect(bad.isEmpty, "\(bad.joined(separator: "; "))")
      let report = reportDifferences(f)
      #expect(report.isEmpty, "\(report.joined(separator: "; "))")
    }

    /// The report of a collision: `reason` "collision" and `blockedBy`.
    @Test func reportOfACollision() throws {
      let f = try vaPlan("va-priority")
      let entry = try #require(reportEntries(f.plan.report).first { if case .string("v5")? = member($0, "id") { true } else { false } })
      if case .bool(false)? = member(entry, "visible") {} else { Issue.record("v5 is not visible: false in the report") }
      #expect(strings(.array([member(entry, "reason") ?? .null])) == ["collision"])
      #expect(strings(member(entry, "blockedBy")) == ["v1", "v2", "v3", "v4"])
      #expect(member(entry, "box") == nil)
    }
  }
}

// MARK: - Frame edges

extension ViewAnnotationTests {
  /// `Golden/va-edges` (400 × 300).
  @Suite struct Edges {
    /// At the frame's centre the arithmetic is exact: boxes touching the
    /// border are inside, and boxes touching each other do not overlap.
    @Test func touchingIsAllowed() throws {
      let f = try vaRender("va-edges")
      let centre = try #require(f.outcomes.first { $0.id == "touch-frame" }?.position)
      #expect(centre.x == 200 && centre.y == 150, "the centre is at \(describe(centre))")
      #expect(try f.box("touch-frame") == Rect(minX: 200, minY: 150, maxX: 400, maxY: 180))
      #expect(try f.box("touch-a") == Rect(minX: 120, minY: 150, maxX: 200, maxY: 180))
      #expect(try f.box("touch-b") == Rect(minX: 120, minY: 120, maxX: 200, maxY: 150))
      #expect(try f.box("corner") == Rect(minX: 0, minY: 0, maxX: 60, maxY: 30))
      #expect(try f.box("bottom-edge") == Rect(minX: 160, minY: 280, maxX: 240, maxY: 300))
      // touch-a and touch-frame share the edge x = 200; touch-b and touch-a y = 150.
      #expect(try f.box("touch-a").maxX == f.box("touch-frame").minX)
      #expect(try f.box("touch-b").maxY == f.box("touch-a").minY)
      // Drawn: the border of touch-frame reaches the image's last column.
      let s = try #require(f.snapshot)
      let border = pixel(s, 399, 165)
      #expect(near(border, Color(r: 0x55, g: 0x55, b: 0x55), 12), "touch-frame's border in the last column: \(hex(border))")
    }

    @Test func crossingTheBorderIsOutOfBounds() throws {
      let f = try vaPlan("va-edges")
      for id in ["cross-1px", "no-fit", "too-big"] {
        let o = try f.outcome(id)
        #expect(!o.isPlaced && o.hiddenReason == .outOfBounds && o.blockedBy.isEmpty, "\(id): \(o.hiddenReason?.rawValue ?? "placed")")
      }
      // cross-1px's only box starts 1 px left of the frame.
      let a = try f.annotation("cross-1px")
      let box = specBox(a.anchors[0], size: try #require(a.size), at: Point(200, 150))
      #expect(box.minX == -1)
    }

    /// The first anchor would cross the border: the second is taken.
    @Test func secondAnchorWhenTheFirstCrosses() throws {
      let f = try vaPlan("va-edges")
      for (id, anchor) in [("flip-left", Anchor.left), ("flip-top", .top)] {
        let a = try f.annotation(id)
        let o = try f.outcome(id)
        let b = try f.box(id)
        #expect(o.anchor == anchor, "\(id) took \(o.anchor?.rawValue ?? "nil")")
        let p = try #require(f.point(a))
        let first = specBox(a.anchors[0], size: (b.width, b.height), at: p)
        #expect(!inside(first, f.bounds), "\(id): the first anchor's box \(describe(first)) fits")
        #expect(close(b, specBox(a.anchors[1], size: (b.width, b.height), at: p)))
      }
    }

    /// A position outside the frame is outOfBounds, even when a box moved
    /// by its offset would lie inside.
    @Test func positionOutsideTheFrame() throws {
      let f = try vaPlan("va-edges")
      for id in ["outside", "outside-near"] {
        let o = try f.outcome(id)
        #expect(!o.isPlaced && o.hiddenReason == .outOfBounds, "\(id): \(o.hiddenReason?.rawValue ?? "placed")")
        let p = try #require(f.point(try f.annotation(id)))
        #expect(p.x < 0 || p.x > 400, "\(id) at \(describe(p))")
      }
      let a = try f.annotation("outside-near")
      let p = try #require(f.point(a))
      let box = specBox(a.anchors[0], size: try Sizer().size(a), at: p)
      #expect(inside(box, f.bounds), "outside-near's box \(describe(box)) would fit")
    }

    @Test func outcomesAndReportFollowTheSpec() throws {
      let f = try vaPlan("va-edges")
      let bad = differencesFromSpec(f, sizer: try Sizer()) { f.point(f.scene.viewAnnotations[$0]) }
      #expect(bad.isEmpty, "\(bad.joined(separator: "; "))")
      let report = reportDifferences(f)
      #expect(report.isEmpty, "\(report.joined(separator: "; "))")
      for e in reportEntries(f.plan.report) {
        if case .string(let id)? = member(e, "id"), ["outside", "no-fit", "cross-1px"].contains(id) {
          #expect(strings(.array([member(e, "reason") ?? .null])) == ["outOfBounds"], "\(id)")
        }
      }
    }
  }
}

// MARK: - Feature-tied annotations

extension ViewAnnotationTests {
  /// `Golden/va-features` (500 × 340, map floor 1).
  @Suite struct Features {
    /// A layer's drawable for feature `id`, in logical pixels.
    private func geometry(_ f: Frame, layer: String, id: FloorValue) throws -> (points: [Point], lines: [[Point]], polygons: [[[Point]]]) {
      let l = try #require(f.plan.layers.first { $0.id == layer })
      let d = try #require(l.drawables.first { $0.feature.id == id }, "feature \(id) of \(layer) is not drawn")
      let v = f.viewport
      func px(_ m: Point) -> Point {
        let p = v.toDevice(m)
        return Point(p.x / v.pixelRatio, p.y / v.pixelRatio)
      }
      return (d.geometry.points.map(px), d.geometry.lines.map { $0.map(px) }, d.geometry.polygons.map { $0.map { $0.map(px) } })
    }

    /// The parts of a polyline inside `r` (Liang–Barsky per segment; runs
    /// joined where consecutive segments stay inside).
    private func visibleRuns(_ line: [Point], in r: Rect) -> [[Point]] {
      var runs: [[Point]] = []
      var run: [Point] = []
      for j in 1..<line.count {
        let (a, b) = (line[j - 1], line[j])
        var t0 = 0.0, t1 = 1.0
        let d = Point(b.x - a.x, b.y - a.y)
        var visible = true
        for (p, q) in [(-d.x, a.x - r.minX), (d.x, r.maxX - a.x), (-d.y, a.y - r.minY), (d.y, r.maxY - a.y)] {
          if p == 0 {
            if q < 0 { visible = false }
          } else {
            let t = q / p
            if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
          }
        }
        if !visible || t0 > t1 {
          if run.count >= 2 { runs.append(run) }
          run = []
          continue
        }
        let pa = Point(a.x + d.x * t0, a.y + d.y * t0), pb = Point(a.x + d.x * t1, a.y + d.y * t1)
        if run.isEmpty || t0 > 0 {
          if run.count >= 2 { runs.append(run) }
          run = [pa]
        }
        run.append(pb)
        if t1 < 1 {
          runs.append(run)
          run = []
        }
      }
      if run.count >= 2 { runs.append(run) }
      return runs
    }

    private func length(_ run: [Point]) -> Double {
      zip(run, run.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
    }

    private func midpoint(_ run: [Point]) -> Point {
      var left = length(run) / 2
      for (a, b) in zip(run, run.dropFirst()) {
        let seg = (b - a).length
        if left <= seg { return a + (b - a) * (left / seg) }
        left -= seg
      }
      return run[run.count - 1]
    }

    private func evenOdd(_ p: Point, _ rings: [[Point]]) -> Bool {
      var inside = false
      for ring in rings {
        var prev = ring[ring.count - 1]
        for q in ring {
          if (q.y > p.y) != (prev.y > p.y), p.x < q.x + (p.y - q.y) * (prev.x - q.x) / (prev.y - q.y) { inside.toggle() }
          prev = q
        }
      }
      return inside
    }

    @Test func pointFeaturesAndGraphics() throws {
      let f = try vaRender("va-features")
      // pois "P1" (idField, a string), box above it, 4 px up.
      let p1 = try f.box("on-P1")
      let pos1 = try #require(try f.outcome("on-P1").position)
      #expect(close(pos1, f.design(440, 40), 1e-3), "P1 at \(describe(pos1))")
      #expect(abs((p1.minX + p1.maxX) / 2 - pos1.x) < 1e-9 && abs(p1.maxY - (pos1.y - 4)) < 1e-9, "on-P1 \(describe(p1))")
      let poi = try geometry(f, layer: "pois", id: FloorValue("P1"))
      #expect(close(pos1, poi.points[0], 1e-9), "the position is the point itself")
      // pois 5 (a number in idField) referenced as "5".
      let pos5 = try #require(try f.outcome("on-5").position)
      #expect(try f.outcome("on-5").isPlaced && close(pos5, f.design(80, 90), 1e-3))
      if case .feature(_, let id) = try f.annotation("on-5").target { #expect(id == FloorValue("5")) }
      // Graphic id marks-0: top anchor, 6 px down.
      let g = try f.box("on-g")
      let pg = try #require(try f.outcome("on-g").position)
      #expect(close(pg, f.design(260, 200), 1e-3))
      #expect(abs(g.minY - (pg.y + 6)) < 1e-9 && abs((g.minX + g.maxX) / 2 - pg.x) < 1e-9, "on-g \(describe(g))")
    }

    /// Road 42 (GeoJSON id, a number) leaves and re-enters the frame: the
    /// box sits at the middle by length of the longest visible run.
    @Test(arguments: [("on-42", "42", 360.0, 110.0), ("on-ml", "ml", 250, 60)])
    func lineMidpointOfTheLongestVisiblePart(id: String, feature: String, designX: Double, designY: Double) throws {
      let f = try vaRender("va-features")
      let fid = Double(feature).map { FloorValue($0) } ?? FloorValue(feature)
      let g = try geometry(f, layer: "roads", id: fid)
      var best: [Point] = []
      for line in g.lines {
        for run in visibleRuns(line, in: f.bounds) where length(run) > length(best) { best = run }
      }
      let expected = midpoint(best)
      let o = try f.outcome(id)
      let b = try f.box(id)
      let pos = try #require(o.position)
      #expect(close(pos, expected, 0.5), "\(id) at \(describe(pos)), the longest run's middle is \(describe(expected))")
      #expect(close(pos, f.design(designX, designY), 0.5), "\(id) at \(describe(pos)), designed \(designX), \(designY)")
      #expect(close(Point((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2), pos, 1e-9), "centre anchor")
      if id == "on-42" {
        let runs = g.lines.flatMap { visibleRuns($0, in: f.bounds) }
        #expect(runs.count == 2, "road 42 has \(runs.count) visible runs")
        #expect(runs.map { length($0).rounded() } == [190, 280], "run lengths \(runs.map(length))")
      }
    }

    /// Polygons: an interior point of the visible part, also for the concave
    /// L (whose bounding box's centre is outside it).
    @Test(arguments: [("on-rect", "rect-cut"), ("on-L", "L"), ("on-7", "7")])
    func polygonInteriorPoint(id: String, feature: String) throws {
      let f = try vaRender("va-features")
      let fid = Double(feature).map { FloorValue($0) } ?? FloorValue(feature)
      let g = try geometry(f, layer: "areas", id: fid)
      let rings = try #require(g.polygons.first)
      let pos = try #require(try f.outcome(id).position)
      #expect(try f.outcome(id).isPlaced)
      #expect(evenOdd(pos, rings), "\(id) at \(describe(pos)) is not inside \(feature)")
      #expect(inside(Rect(minX: pos.x, minY: pos.y, maxX: pos.x, maxY: pos.y), f.bounds), "\(id) at \(describe(pos)) is outside the frame")
      var bounds = Rect.empty
      for p in rings[0] { bounds.include(p) }
      if feature == "L" {
        #expect(!evenOdd(Point((bounds.minX + bounds.maxX) / 2, (bounds.minY + bounds.maxY) / 2), rings), "the L's bbox centre is outside it")
      }
      if feature == "rect-cut" {
        #expect(bounds.maxX > 500, "rect-cut runs past the right border")
        #expect(pos.x < 500 && pos.x > 380)
      }
    }

    @Test(arguments: [
      ("on-minor", ViewAnnotationHiddenReason.featureHidden),  // its rule has minScale 1000
      ("on-upstairs", .featureHidden),  // level 2, map floor 1
      ("on-g-floor2", .featureHidden),  // a graphic on floor 2
      ("on-missing", .featureHidden),  // no such feature
      ("on-hidden-layer", .featureHidden),  // its layer is not visible
      ("on-away", .outOfBounds),  // drawn at this scale and floor, but outside the frame
    ])
    func hiddenFeatures(id: String, reason: ViewAnnotationHiddenReason) throws {
      let f = try vaPlan("va-features")
      let o = try f.outcome(id)
      #expect(!o.isPlaced && o.hiddenReason == reason && o.box == nil, "\(id): \(o.hiddenReason?.rawValue ?? "placed")")
      let entry = reportEntries(f.plan.report).first { if case .string(id)? = member($0, "id") { true } else { false } }
      #expect(strings(.array([member(entry, "reason") ?? .null])) == [reason.rawValue])
    }

    /// On floor 2 the level-1 areas go (their annotations are featureHidden)
    /// and the upstairs area and floor-2 graphic come; at 1:1000 the minor
    /// area's rule holds, so its annotation is no longer featureHidden.
    @Test func floorAndScaleChangeWhatIsTied() throws {
      let f2 = try vaPlan("va-features", ViewOverrides(floor: FloorValue(2)))
      for id in ["on-rect", "on-7"] {
        #expect(try f2.outcome(id).hiddenReason == .featureHidden, "\(id) on floor 2")
      }
      // Tied now (its position is the upstairs square's interior), but its
      // box overlaps on-g's, placed before it.
      let up = try f2.outcome("on-upstairs")
      #expect(up.hiddenReason == .collision && up.blockedBy == ["on-g"], "on-upstairs: \(up.hiddenReason?.rawValue ?? "placed") \(up.blockedBy)")
      #expect(up.position.map { close($0, f2.design(320, 200), 3) } == true, "on-upstairs at \(describe(up.position))")
      #expect(try f2.outcome("on-g-floor2").isPlaced)
      #expect(try f2.outcome("on-L").isPlaced, "the L has no level: on every floor")
      let near = try vaPlan("va-features", ViewOverrides(scale: 1000))
      #expect(try near.outcome("on-minor").hiddenReason != .featureHidden)
      #expect(try near.outcome("on-upstairs").hiddenReason == .featureHidden)
    }

    @Test func reportFollowsTheOutcomes() throws {
      let f = try vaPlan("va-features")
      let bad = reportDifferences(f)
      #expect(bad.isEmpty, "\(bad.joined(separator: "; "))")
    }
  }
}

// MARK: - Floors and scales

extension ViewAnnotationTests {
  /// `Golden/va-floors-scales`: at 1:1000 and 1:2001 on floors 1 and 2.
  @Suite struct FloorsAndScales {
    static let all = ["floor-2-num", "floor-2-str", "floor-1", "all-floors", "open", "zoomed-out", "zoomed-in", "floor-1-open", "invisible"]

    @Test(arguments: [
      (1000.0, "1", ["floor-1", "all-floors", "open", "zoomed-in", "floor-1-open"],
       ["floor-2-num": "floor", "floor-2-str": "floor", "zoomed-out": "outOfScale", "invisible": "notVisible"]),
      (1000, "2", ["floor-2-num", "floor-2-str", "all-floors", "open", "zoomed-in"],
       ["floor-1": "floor", "floor-1-open": "floor", "zoomed-out": "outOfScale", "invisible": "notVisible"]),
      (2001, "1", ["floor-1", "all-floors", "zoomed-out"],
       ["floor-2-num": "floor", "floor-2-str": "floor", "open": "outOfScale", "zoomed-in": "outOfScale", "floor-1-open": "outOfScale",
        "invisible": "notVisible"]),
      (2001, "2", ["floor-2-num", "floor-2-str", "all-floors", "zoomed-out"],
       ["floor-1": "floor", "open": "outOfScale", "zoomed-in": "outOfScale", "floor-1-open": "outOfScale|floor", "invisible": "notVisible"]),
    ] as [(Double, String, [String], [String: String])])
    func shownAndHidden(scale: Double, floor: String, shown: [String], hidden: [String: String]) throws {
      let f = try vaRender("va-floors-scales", scale: scale, floor: floor)
      #expect(f.outcomes.map(\.id) == Self.all)
      #expect(Set(shown).union(hidden.keys) == Set(Self.all))
      for o in f.outcomes {
        if shown.contains(o.id) {
          #expect(o.isPlaced, "\(o.id) at 1:\(scale) floor \(floor): \(o.hiddenReason?.rawValue ?? "-")")
        } else {
          let allowed = hidden[o.id]!.split(separator: "|").map(String.init)
          #expect(!o.isPlaced && allowed.contains(o.hiddenReason?.rawValue ?? "-"), "\(o.id) at 1:\(scale) floor \(floor): \(o.hiddenReason?.rawValue ?? "placed")")
        }
      }
      let bad = reportDifferences(f)
      #expect(bad.isEmpty, "\(bad.joined(separator: "; "))")
      // The positions follow the scale: design points scaled about the centre.
      for a in f.scene.viewAnnotations where f.outcomes.first(where: { $0.id == a.id })?.isPlaced == true {
        let p = try #require(f.point(a))
        #expect(close(try #require(try f.outcome(a.id).position), p, 1e-6))
      }
    }

    /// A floor given as a number (2) is the floor "2"; without any floor
    /// every floor's annotations show.
    @Test func floorsCompareByValue() throws {
      let number = try vaPlan("va-floors-scales", ViewOverrides(floor: FloorValue(2)))
      let string = try vaPlan("va-floors-scales", ViewOverrides(floor: FloorValue("2")))
      #expect(number.outcomes.map(\.isPlaced) == string.outcomes.map(\.isPlaced))
      #expect(try number.outcome("floor-2-num").isPlaced && number.outcome("floor-2-str").isPlaced && !number.outcome("floor-1").isPlaced)
      let none = try vaPlan("va-floors-scales") { $0.map.floor = nil }
      #expect(none.plan.state.floor == nil)
      for id in ["floor-2-num", "floor-2-str", "floor-1", "floor-1-open", "all-floors"] {
        #expect(try none.outcome(id).isPlaced, "\(id) without a map floor")
      }
    }

    /// Both bounds are inclusive (section 2).
    @Test(arguments: [
      ("open", 500.0, true), ("open", 499, false), ("open", 2000, true), ("open", 2001, false),
      ("zoomed-out", 1500, true), ("zoomed-out", 1499, false), ("zoomed-in", 1500, true), ("zoomed-in", 1501, false),
    ])
    func scaleBoundsAreInclusive(id: String, scale: Double, shown: Bool) throws {
      let f = try vaPlan("va-floors-scales", ViewOverrides(scale: scale, floor: FloorValue("1")))
      let o = try f.outcome(id)
      #expect(o.isPlaced == shown, "\(id) at 1:\(scale): \(o.hiddenReason?.rawValue ?? "placed")")
      if !shown { #expect(o.hiddenReason == .outOfScale) }
    }
  }
}

// MARK: - Crowded

extension ViewAnnotationTests {
  /// `Golden/va-crowded`: 300 annotations at seeded random positions with
  /// 1–4 anchors, priorities 0–3, a few selected and a few allowOverlap.
  @Suite struct Crowded {
    @Test func sceneShape() throws {
      let f = try vaPlan("va-crowded")
      let a = f.scene.viewAnnotations
      #expect(a.count == 300)
      #expect(a.allSatisfy { (1...4).contains($0.anchors.count) })
      #expect(a.filter(\.selected).count == 6 && a.filter(\.allowOverlap).count == 12)
      let placed = f.outcomes.filter(\.isPlaced).count
      #expect(placed > 100 && placed < 250, "\(placed) placed")
      #expect(f.outcomes.contains { $0.hiddenReason == .collision })
      let later = zip(a, f.outcomes).filter { ann, o in o.isPlaced && o.anchor != ann.anchors[0].anchor }
      #expect(!later.isEmpty, "some take a later anchor")
    }

    /// No two placed boxes of annotations without allowOverlap overlap
    /// (O(n²)), and every placed box lies inside the frame.
    @Test func placedBoxesDoNotOverlap() throws {
      let f = try vaPlan("va-crowded")
      let a = f.scene.viewAnnotations
      let placed = f.outcomes.indices.filter { f.outcomes[$0].isPlaced }
      var bad: [String] = []
      for (n, i) in placed.enumerated() {
        let bi = f.outcomes[i].box!
        if !inside(bi, f.bounds) { bad.append("\(a[i].id) \(describe(bi)) leaves the frame") }
        guard !a[i].allowOverlap else { continue }
        for j in placed[(n + 1)...] where !a[j].allowOverlap {
          let bj = f.outcomes[j].box!
          if overlaps(bi, bj) { bad.append("\(a[i].id) \(describe(bi)) × \(a[j].id) \(describe(bj))") }
        }
      }
      #expect(bad.isEmpty, "\(bad.count): \(bad.prefix(10).joined(separator: "; "))")
    }

    /// Every hidden annotation has a reason; a collision names placed
    /// annotations that overlap it, none of them placed after it.
    @Test func everyHiddenOneHasAReason() throws {
      let f = try vaPlan("va-crowded")
      var bad: [String] = []
      for o in f.outcomes where !o.isPlaced {
        guard let reason = o.hiddenReason else {
          bad.append("\(o.id) has no reason")
          continue
        }
        if reason == .collision {
          if o.blockedBy.isEmpty { bad.append("\(o.id): collision without blockedBy") }
          for id in o.blockedBy where f.outcomes.first(where: { $0.id == id })?.isPlaced != true {
            bad.append("\(o.id) is blocked by \(id), which is not placed")
          }
        } else if reason != .outOfBounds {
          bad.append("\(o.id): \(reason.rawValue)")
        }
      }
      #expect(bad.isEmpty, "\(bad.prefix(10).joined(separator: "; "))")
    }

    /// The whole resolution is the spec's: order (selected, priority, list),
    /// first anchor that fits and is free, reasons and blockedBy.
    @Test func outcomesFollowTheSpec() throws {
      let f = try vaPlan("va-crowded")
      let bad = differencesFromSpec(f, sizer: try Sizer()) { f.point(f.scene.viewAnnotations[$0]) }
      #expect(bad.isEmpty, "\(bad.count): \(bad.prefix(10).joined(separator: "; "))")
      let drawn = drawnOrder(f)
      #expect(drawn.compactMap { $0 } == specDrawingOrder(f), "drawing order")
    }

    @Test func reportFollowsTheOutcomes() throws {
      let f = try vaPlan("va-crowded")
      let bad = reportDifferences(f)
      #expect(bad.isEmpty, "\(bad.count): \(bad.prefix(10).joined(separator: "; "))")
    }

    /// Outcomes and pixels are the same on every run and for 1 or 2 threads.
    @Test func deterministic() throws {
      let a = try vaRender("va-crowded", options: RenderOptions(threads: 1))
      let b = try vaRender("va-crowded", options: RenderOptions(threads: 1))
      let c = try vaRender("va-crowded", options: RenderOptions(threads: 2, tileRows: 16))
      func summary(_ f: Frame) -> [String] {
        f.outcomes.map { "\($0.id) \($0.isPlaced) \($0.anchor?.rawValue ?? "-") \(describe($0.box)) \($0.hiddenReason?.rawValue ?? "-") \($0.blockedBy)" }
      }
      #expect(summary(b) == summary(a))
      #expect(summary(c) == summary(a))
      let pixels = Array(try #require(a.snapshot).canvas.buffer)
      #expect(Array(try #require(b.snapshot).canvas.buffer) == pixels, "two renders with 1 thread differ")
      #expect(Array(try #require(c.snapshot).canvas.buffer) == pixels, "1 and 2 threads differ")
    }
  }
}

// MARK: - Small scenes in memory

extension ViewAnnotationTests {
  /// Scenes decoded from JSON here, for rules the golden scenes do not show.
  @Suite struct Inline {
    private func plan(_ annotations: String, size: String = "[300, 200]", extra: String = "") throws -> Frame {
      let json = """
        { "version": 1, "map": { "center": [0, 0], "scale": 2000, "size": \(size)\(extra) }, "layers": [],
          "viewAnnotations": [ \(annotations) ] }
        """
      let scene = try SceneLoader.decode(Array(json.utf8), file: "inline.json", baseDirectory: "/")
      return Frame(scene: scene, plan: try FramePlan.make(scene), snapshot: nil)
    }

    /// `\n` breaks lines: two lines are one line height (1.164 em) taller
    /// than one, and as wide as the wider line.
    @Test func newlineBreaksLines() throws {
      let f = try plan(
        """
        { "id": "one", "coordinate": [0, 0], "text": "Café Aalto", "anchors": [{ "anchor": "bottom" }] },
        { "id": "two", "coordinate": [0, 0], "text": "Café Aalto\\nopen 8–20", "anchors": [{ "anchor": "top" }] },
        { "id": "line2", "coordinate": [0.0004, 0], "text": "open 8–20" }
        """)
      let one = try f.box("one"), two = try f.box("two"), line2 = try f.box("line2")
      #expect(abs((two.height - one.height) - 1.164 * 12) < 0.01, "heights \(one.height), \(two.height)")
      #expect(abs(line2.height - one.height) < 1e-9)
      #expect(abs(two.width - max(one.width, line2.width)) < 1e-9, "widths \(one.width), \(line2.width) → \(two.width)")
      #expect(one.maxY == two.minY, "one above the point, two below it: they touch")
    }

    /// The same anchor twice with different offsets: the second config is
    /// taken when the first's box collides, at its own offset.
    @Test func sameAnchorWithAnotherOffset() throws {
      let f = try plan(
        """
        { "id": "first", "coordinate": [0, 0], "text": "A", "anchors": [{ "anchor": "bottom" }] },
        { "id": "twice", "coordinate": [0, 0], "text": "B", "anchors": [{ "anchor": "bottom" }, { "anchor": "bottom", "offsetY": 40 }] }
        """)
      let first = try f.box("first"), twice = try f.box("twice")
      #expect(try f.outcome("twice").anchor == .bottom)
      #expect(abs(twice.maxY - (first.maxY - 40)) < 1e-9, "the second config's box, 40 px higher: \(describe(twice))")
    }
  }
}
