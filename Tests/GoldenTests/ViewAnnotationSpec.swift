@testable import MapSnap
import _MapSnapRaster
import Testing
import _MapSnapTestSupport

// The view annotation tests' helpers: frames planned from the goldens, the
// specification's placement computed independently, pixels and reports read back.

/// A resolved frame of a golden scene: the scene as loaded, the plan (every
/// decision) and, when rendered, the pixels.
struct Frame {
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
func vaGolden(_ name: String, scale: Double? = nil, floor: String? = nil) throws -> GoldenCase {
  try #require(
    GoldenCase.all().first { $0.name == name && (scale == nil || $0.scale == scale) && (floor == nil || $0.floor == floor) },
    "no golden case \(name) at 1:\(scale.map { String($0) } ?? "-") floor \(floor ?? "-")")
}

/// Renders the golden case (pixels included).
func vaRender(_ name: String, scale: Double? = nil, floor: String? = nil, options: RenderOptions = RenderOptions()) throws
  -> Frame
{
  let golden = try vaGolden(name, scale: scale, floor: floor)
  let scene = try SceneLoader.load(path: golden.scenePath)
  let plan = try FramePlan.make(
    scene, overrides: ViewOverrides(scale: golden.scale, pixelRatio: golden.pixelRatio, floor: golden.floor.map { FloorValue($0) }))
  return Frame(scene: scene, plan: plan, snapshot: Snapshot.render(plan, options: options))
}

/// Resolves `Golden/<name>/scene.json` with overrides, without pixels.
func vaPlan(_ name: String, _ overrides: ViewOverrides = ViewOverrides(), edit: (inout Scene) -> Void = { _ in }) throws -> Frame {
  var scene = try SceneLoader.load(path: Repository.root + "/Golden/\(name)/scene.json")
  edit(&scene)
  return Frame(scene: scene, plan: try FramePlan.make(scene, overrides: overrides), snapshot: nil)
}

func inside(_ b: Rect, _ frame: Rect) -> Bool {
  b.minX >= frame.minX && b.maxX <= frame.maxX && b.minY >= frame.minY && b.maxY <= frame.maxY
}

func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-6) -> Bool {
  abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance && abs(a.maxX - b.maxX) <= tolerance
    && abs(a.maxY - b.maxY) <= tolerance
}

func close(_ a: Point, _ b: Point, _ tolerance: Double) -> Bool {
  abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

func describe(_ p: Point?) -> String {
  guard let p else { return "nil" }
  return "(\((p.x * 1000).rounded() / 1000), \((p.y * 1000).rounded() / 1000))"
}

/// The box the spec puts at `point` for `config` (written out per anchor
/// here, independently of `Anchor`): x right, y down; offsetY is UP.
func specBox(_ config: ViewAnnotation.AnchorConfig, size: (width: Double, height: Double), at point: Point) -> Rect {
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
final class Sizer {
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
struct Expected {
  var visible = false
  var anchorIndex: Int?
  var box: Rect?
  var reason: ViewAnnotationHiddenReason?
  var blockedBy: [String] = []
}

func resolveBySpec(_ f: Frame, sizer: Sizer, position: (Int) -> Point?) -> [Expected?] {
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
func differencesFromSpec(_ f: Frame, sizer: Sizer, position: (Int) -> Point?) -> [String] {
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
func specDrawingOrder(_ f: Frame) -> [Int] {
  let a = f.scene.viewAnnotations
  return f.outcomes.indices.filter { f.outcomes[$0].isPlaced }.sorted { l, r in
    if a[l].selected != a[r].selected { return !a[l].selected }
    if a[l].priority != a[r].priority { return a[l].priority < a[r].priority }
    return l < r
  }
}

/// The drawn boxes (`viewAnnotations.boxes`, in device pixels, bottom first)
/// as outcome indices, matched by their boxes.
func drawnOrder(_ f: Frame) -> [Int?] {
  let r = f.viewport.pixelRatio
  return f.plan.viewAnnotations.boxes.map { placed in
    let b = Rect(minX: placed.box.minX / r, minY: placed.box.minY / r, maxX: placed.box.maxX / r, maxY: placed.box.maxY / r)
    return f.outcomes.indices.first { f.outcomes[$0].box.map { close($0, b, 1e-6) } ?? false }
  }
}

/// The report's `viewAnnotations` entries.
func reportEntries(_ report: JSONValue) -> [JSONValue] {
  if case .array(let list)? = member(report, "viewAnnotations") { return list }
  return []
}

/// Checks each report entry against its outcome: placed ones carry `anchor`
/// and `box` [x, y, w, h], hidden ones `reason` (and `blockedBy` for
/// collisions). Returns the differences.
func reportDifferences(_ f: Frame) -> [String] {
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
func pixel(_ s: Snapshot, _ x: Double, _ y: Double) -> Color {
  let p = s.canvas.rgba(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
  return Color(r: p.r, g: p.g, b: p.b, a: p.a)
}

func near(_ a: Color, _ b: Color, _ tolerance: Int = 3) -> Bool {
  abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
}

func hex(_ c: Color) -> String {
  func h(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16) }
  return "#" + h(c.r) + h(c.g) + h(c.b)
}

/// A pixel inside `region` that lies in the padding ring of `box` (2–4.5 px
/// inside one edge, away from corners and text), or nil.
func paddingPixel(of box: Rect, within region: Rect) -> (Double, Double)? {
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
