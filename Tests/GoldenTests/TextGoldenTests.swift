import MapSnap
import Testing
import _MapSnapTestSupport

// What text is visible at which scale, and where, read from the decisions
// (`snapshot.state`, `snapshot.text`, `snapshot.report`) and measured in the
// pixels of the text golden scenes (`Golden/synthetic.py`: utility, indoor,
// label-collision, halos). The images themselves are checked by
// `GoldenImageTests`.

/// The text golden scenes' decisions and measurements, one nested suite per
/// scene (`swift test --filter TextGoldenTests` runs them all).
@Suite struct TextGoldenTests {}

/// The golden case `name` at `scale` (the first listed when nil).
private func goldenCase(_ name: String, scale: Double? = nil, floor: String? = nil) throws -> GoldenCase {
  try #require(
    GoldenCase.all().first { $0.name == name && (scale == nil || $0.scale == scale) && $0.floor == floor },
    "no golden case \(name) at 1:\(scale.map { String($0) } ?? "-") floor \(floor ?? "-")")
}

private func render(_ name: String, scale: Double? = nil, floor: String? = nil, options: RenderOptions = RenderOptions()) throws
  -> Snapshot
{
  try goldenCase(name, scale: scale, floor: floor).render(options: options)
}

/// The report's entry for layer `id`.
private func reportLayer(_ snapshot: Snapshot, _ id: String) -> JSONValue? {
  guard case .array(let layers)? = member(snapshot.report, "layers") else { return nil }
  return layers.first { if case .string(id)? = member($0, "id") { return true } else { return false } }
}

// MARK: - Utility: annotation classes by scale, text size by scale

extension TextGoldenTests {
  /// `Golden/utility`: a gas network designed at 1:1000 whose annotation layer
  /// has the spec's two classes: "Open" (1:500…1:2000, both inclusive) and
  /// "Closed" (every scale), with `referenceScale` 1000.
  @Suite struct Utility {
    /// Per scale: Open's status, and the features drawn by Open and Closed. At
    /// 1:400 the frame holds only the central annotations (3 Open, 4 Closed);
    /// from 1:1000 out all five of each class are inside it.
    @Test(arguments: [
      (400.0, ["outOfScale"], 0, 4), (500, ["active"], 3, 4), (1000, ["active"], 5, 5),
      (2000, ["active"], 5, 5), (2001, ["outOfScale"], 0, 5), (4000, ["outOfScale"], 0, 5),
    ])
    func sublayerStatusAndCounts(scale: Double, openStatus: [String], openDrawn: Int, closedDrawn: Int) throws {
      let snapshot = try render("utility", scale: scale)
      let layer = try #require(snapshot.layers.first { $0.id == "valve-anno" })
      #expect(layer.status.names == ["active"], "annotation layer at 1:\(scale)")
      let open = try #require(layer.sublayers.first { $0.id == "Open" })
      let closed = try #require(layer.sublayers.first { $0.id == "Closed" })
      #expect(open.status.names == openStatus, "sublayer Open at 1:\(scale)")
      #expect(closed.status.names == ["active"], "sublayer Closed at 1:\(scale)")
      #expect(open.features.total == 5 && closed.features.total == 5)
      #expect(open.drawnFeatures == openDrawn, "Open drawn at 1:\(scale)")
      #expect(closed.drawnFeatures == closedDrawn, "Closed drawn at 1:\(scale)")
      #expect(layer.drawnFeatures == openDrawn + closedDrawn)
      #expect(layer.annotations.filter(\.isDrawn).count == openDrawn + closedDrawn)
      // Every hidden text says why: the Open class is out of scale, or the
      // text is near the frame but its glyphs put no pixel into it.
      for t in layer.annotations where !t.isDrawn {
        let why = (layer.sublayers[t.sublayer].id == "Open" && t.outcome == .hidden(.outOfScale)) || t.outcome == .hidden(.outOfBounds)
        #expect(why, "\(t.text) at 1:\(scale): \(t.outcome.name)")
      }
      #expect(layer.annotations.contains { $0.outcome == .hidden(.outOfScale) } == (openStatus != ["active"]))

      // The report says the same.
      let report = reportLayer(snapshot, "valve-anno")
      guard case .array(let subs)? = member(report, "sublayers") else {
        Issue.record("no sublayers in the report at 1:\(scale)")
        return
      }
      #expect(subs.count == 2)
      for (sub, status, drawn) in [(subs.first, openStatus, openDrawn), (subs.last, ["active"], closedDrawn)] {
        #expect(strings(member(sub, "status")) == status, "report sublayer status at 1:\(scale)")
        #expect(number(member(member(sub, "features"), "drawn")) == Double(drawn), "report sublayer drawn at 1:\(scale)")
      }
      #expect(number(member(member(report, "features"), "drawn")) == Double(openDrawn + closedDrawn))
    }

    /// At 1:500 the text is drawn at twice its 1:1000 size (10 px × 1000 / 500):
    /// the ink of the capital-only annotation "HP LINE" is twice as tall.
    @Test func textSizeFollowsTheScale() throws {
      let h1000 = try inkHeight(of: "HP LINE", scale: 1000)
      let h500 = try inkHeight(of: "HP LINE", scale: 500)
      #expect(abs(h1000 - 7.29) < 0.5, "\"HP LINE\" at 1:1000 is \(h1000) px tall")
      #expect(abs(h500 / h1000 - 2) <= 0.15, "ink height 1:500 / 1:1000 = \(h500) / \(h1000) = \(h500 / h1000)")
    }

    /// Size 10 at the reference scale is a 10 px em: the ink of "H" is DejaVu
    /// Sans' cap height, 0.729 em = 7.29 px.
    @Test func capHeightAtTheReferenceScale() throws {
      let h = try inkHeight(of: "H", scale: 1000)
      #expect(abs(h - 7.29) <= 0.5, "\"H\" at size 10 is \(h) px tall, cap height 7.29 px")
    }

    /// The height, in pixels with sub-pixel precision, of the left stem of the
    /// first "H" of an unrotated, isolated annotation of the "Closed" class
    /// (#cc0000 over its white halo, on an opaque map). Each pixel's coverage
    /// is read from its green channel; the stem's rows are summed over the few columns the stem
    /// spans and divided by a full row's sum, so the partly covered top and
    /// bottom rows count by their coverage (the crossbar rows are capped at 1).
    private func inkHeight(of text: String, scale: Double) throws -> Double {
      let snapshot = try render("utility", scale: scale)
      let layer = try #require(snapshot.layers.first { $0.id == "valve-anno" })
      let anno = try #require(layer.annotations.first { $0.text == text }, "\(text) is not drawn at 1:\(scale)")
      #expect(anno.angle == 0)
      let anchor = snapshot.state.viewport.toDevice(anno.point)
      let size = 10 * 1000 / scale * snapshot.state.viewport.pixelRatio
      let canvas = snapshot.canvas
      // The neighbourhood: the text block is centred on the anchor.
      let halfWidth = 0.35 * size * Double(text.count) + 3
      let x0 = max(0, Int((anchor.x - halfWidth).rounded(.down)))
      let x1 = min(canvas.width - 1, Int((anchor.x + halfWidth).rounded(.up)))
      let y0 = max(0, Int((anchor.y - size).rounded(.down)))
      let y1 = min(canvas.height - 1, Int((anchor.y + size).rounded(.up)))
      // Green is 255 in the white halo and 0 in #cc0000; the map's background
      // (#fbfaf7, green 250) beyond the halo counts as no ink.
      func coverage(_ x: Int, _ y: Int) -> Double {
        let c = (255 - Double(canvas.rgba(x: x, y: y).g)) / 255
        return c < 0.03 ? 0 : min(1, c)
      }
      // The leftmost column with ink is the H's left stem.
      var left: Int? = nil
      for x in x0...x1 where left == nil {
        for y in y0...y1 where coverage(x, y) > 0.02 {
          left = x
          break
        }
      }
      let stemLeft = try #require(left, "no ink near \(text) at 1:\(scale)")
      #expect(stemLeft > x0, "the neighbourhood of \(text) is not isolated at 1:\(scale)")
      let columns = stemLeft..<(stemLeft + Int((0.1 * size).rounded(.up)) + 1)
      let rows = (y0...y1).map { y in columns.reduce(0.0) { $0 + coverage($1, y) } }
      let full = rows.max() ?? 0
      let stem = rows.filter { $0 > 0.5 * full }.sorted()
      let median = stem[stem.count / 2]
      #expect(rows.first == 0 && rows.last == 0, "the ink of \(text) reaches the neighbourhood's edge at 1:\(scale)")
      return rows.reduce(0) { $0 + min(1, $1 / median) }
    }
  }
}

// MARK: - Indoor: floors, CJK labels

extension TextGoldenTests {
  /// `Golden/indoor` on floor 1 and floor 2: rooms with `floorField: "level"`
  /// (level 1 as a number, "2" as a string, and one room without a level),
  /// points of interest labelled in Chinese and English.
  @Suite struct Indoor {
    static let floor1Labels: Set = ["咖啡厅", "Café", "洗手间 Toilets", "出口 Exit"]
    static let floor2Labels: Set = ["洗手间 Toilets", "会议室 A"]

    @Test(arguments: [("1", 4, 2, 4), ("2", 3, 3, 2)])
    func roomsAndLabelsPerFloor(floor: String, roomsDrawn: Int, roomsOtherFloor: Int, labels: Int) throws {
      let snapshot = try render("indoor", floor: floor)
      #expect(snapshot.state.floor == FloorValue(floor))
      // A floor that reads as a number is reported as one (the spec's `"floor": 2`).
      if case .number(let f)? = member(member(snapshot.report, "map"), "floor") {
        #expect(f == Double(floor))
      } else {
        Issue.record("the report's map.floor is not the number \(floor)")
      }
      let rooms = try #require(snapshot.layers.first { $0.id == "rooms" })
      #expect(rooms.features.total == 6)
      #expect(rooms.drawnFeatures == roomsDrawn, "rooms drawn on floor \(floor)")
      #expect(rooms.features.otherFloor == roomsOtherFloor, "rooms on another floor than \(floor)")
      let roomsReport = member(reportLayer(snapshot, "rooms"), "features")
      #expect(number(member(roomsReport, "otherFloor")) == Double(roomsOtherFloor))
      // Each rule colours one level: the other floor's rooms are not drawn, the
      // unlevelled core (the fallback rule) is drawn on both.
      let fills = rooms.drawables.map(\.style.fill)
      let level1 = ColorParser.parse("#fde2b8"), level2 = ColorParser.parse("#c9e4f5"), core = ColorParser.parse("#d8d8d8")
      #expect(fills.filter { $0 == core }.count == 1, "the unlevelled room on floor \(floor)")
      #expect(fills.filter { $0 == level1 }.count == (floor == "1" ? 3 : 0))
      #expect(fills.filter { $0 == level2 }.count == (floor == "2" ? 2 : 0))

      let placed = snapshot.text.outcomes.filter(\.isPlaced)
      #expect(placed.count == labels, "labels placed on floor \(floor)")
      #expect(Set(placed.map(\.text)) == (floor == "1" ? Self.floor1Labels : Self.floor2Labels))
      #expect(snapshot.text.outcomes.allSatisfy { $0.isPlaced }, "no label is dropped")
      let labelReport = member(reportLayer(snapshot, "pois"), "labels")
      #expect(number(member(labelReport, "placed")) == Double(labels))
      #expect(number(member(labelReport, "dropped")) == 0)
    }

    /// Droid Sans Fallback covers the Chinese: nothing is missing, and the
    /// glyphs are drawn (dark ink inside each label's box), not left blank.
    @Test(arguments: ["1", "2"])
    func chineseGlyphsAreDrawn(floor: String) throws {
      let snapshot = try render("indoor", floor: floor)
      #expect(snapshot.text.missingCodePoints.isEmpty, "missing: \(snapshot.text.missingCodePoints)")
      #expect(snapshot.text.fontsUsed.contains("Droid Sans Fallback"), "fonts used: \(snapshot.text.fontsUsed)")
      #expect(snapshot.text.fontsUsed.contains("DejaVu Sans"), "fonts used: \(snapshot.text.fontsUsed)")
      if case .array(let missing)? = member(member(snapshot.report, "text"), "missingCodePoints") {
        #expect(missing.isEmpty)
      } else {
        Issue.record("no text.missingCodePoints in the report")
      }
      for outcome in snapshot.text.outcomes where outcome.isPlaced {
        // Text colour #222222: count clearly dark pixels in the box.
        var dark = 0
        let b = outcome.box!
        for y in max(0, Int(b.minY))..<min(snapshot.canvas.height, Int(b.maxY.rounded(.up))) {
          for x in max(0, Int(b.minX))..<min(snapshot.canvas.width, Int(b.maxX.rounded(.up))) {
            let p = snapshot.canvas.rgba(x: x, y: y)
            if p.r < 110 && p.g < 110 && p.b < 110 { dark += 1 }
          }
        }
        let cjk = outcome.text.unicodeScalars.filter { $0.value >= 0x4E00 && $0.value <= 0x9FFF }.count
        let latin = outcome.text.unicodeScalars.filter { $0.properties.isAlphabetic && $0.value < 0x300 }.count
        #expect(dark >= 12 * cjk + 4 * latin, "\"\(outcome.text)\" on floor \(floor): \(dark) dark pixels in \(describe(b))")
      }
    }
  }
}

// MARK: - Label collision

extension TextGoldenTests {
  /// `Golden/label-collision`: 300 labelled points on a jittered grid, four
  /// anchors each, classes A (priority 2), B (1), C (0) and O (0, allowOverlap),
  /// and 30 unlabelled points with a square marker, `"collides": true`.
  @Suite struct LabelCollision {
    static let anchors: [Anchor] = [.left, .right, .bottom, .top]

    /// Priority from the label's class, its first letter.
    static func priority(_ text: String) -> Double {
      switch text.first {
      case "A": return 2
      case "B": return 1
      default: return 0
      }
    }

    struct Rendered {
      var snapshot: Snapshot
      /// Each label's point in logical pixels, by its (unique) text.
      var points: [String: Point]
      /// The boxes of the 30 square markers in logical pixels.
      var markerBoxes: [Rect]
      /// How many markers the renderer treats as colliding.
      var collidingMarkers: Int
    }

    static func load(options: RenderOptions = RenderOptions()) throws -> Rendered {
      let snapshot = try render("label-collision", options: options)
      let v = snapshot.state.viewport
      let layer = try #require(snapshot.layers.first { $0.id == "points" })
      var points: [String: Point] = [:]
      var markerBoxes: [Rect] = []
      var colliding = 0
      for d in layer.drawables {
        let p = v.toDevice(d.geometry.points[0])
        let logical = Point(p.x / v.pixelRatio, p.y / v.pixelRatio)
        if let text = d.label?.text { points[text] = logical }
        if let m = d.style.marker, m.shape == .square {
          let s = m.size / 2
          markerBoxes.append(
            Rect(
              minX: logical.x + m.offset.0 - s, minY: logical.y + m.offset.1 - s, maxX: logical.x + m.offset.0 + s,
              maxY: logical.y + m.offset.1 + s))
          if m.collides { colliding += 1 }
        }
      }
      return Rendered(snapshot: snapshot, points: points, markerBoxes: markerBoxes, collidingMarkers: colliding)
    }

    @Test func sceneShape() throws {
      let s = try Self.load()
      #expect(s.points.count == 300)
      #expect(s.markerBoxes.count == 30)
      #expect(s.snapshot.text.outcomes.count == 300)
      #expect(s.snapshot.text.outcomes.contains { !$0.isPlaced }, "the scene is crowded: some labels are dropped")
      #expect(s.snapshot.text.outcomes.contains { $0.allowOverlap })
    }

    /// `"collides": true` reaches the style, so the markers are obstacles.
    @Test func collidingMarkersAreObstacles() throws {
      let s = try Self.load()
      #expect(
        s.collidingMarkers == 30,
        """
        \(s.collidingMarkers) of the 30 square markers have collides set (the scene says "collides": true for all; \
        does the scene decoder store it in MarkerStyle.collides?)
        """)
    }

    /// No placed label overlaps a label placed before it unless it allows
    /// overlap, so no two placed labels without allowOverlap overlap.
    @Test func placedLabelsDoNotOverlap() throws {
      let outcomes = try Self.load().snapshot.text.outcomes
      let placed = outcomes.filter(\.isPlaced)
      var bad: [String] = []
      for j in placed.indices where !placed[j].allowOverlap {
        for i in placed.indices where i != j && (i < j || !placed[i].allowOverlap) {
          if overlaps(placed[i].box!, placed[j].box!) {
            bad.append("\(placed[i].text) \(describe(placed[i].box!)) × \(placed[j].text) \(describe(placed[j].box!))")
          }
        }
      }
      #expect(bad.isEmpty, "\(bad.count) overlapping pairs: \(bad.prefix(10).joined(separator: "; "))")
    }

    /// No placed label without allowOverlap overlaps a colliding marker.
    @Test func placedLabelsAvoidCollidingMarkers() throws {
      let s = try Self.load()
      var bad: [String] = []
      for o in s.snapshot.text.outcomes where o.isPlaced && !o.allowOverlap {
        for m in s.markerBoxes where overlaps(o.box!, m) {
          bad.append("\(o.text) \(describe(o.box!)) × marker \(describe(m))")
        }
      }
      #expect(bad.isEmpty, "\(bad.count) labels over colliding markers: \(bad.prefix(10).joined(separator: "; "))")
    }

    /// Placement order is by priority; each label takes its first free anchor,
    /// and a dropped label had every anchor blocked by labels of at least its
    /// priority (placed before it) or by colliding markers: a label never
    /// loses to a lower-priority one.
    @Test func priorityAndAnchorOrder() throws {
      let s = try Self.load()
      let outcomes = s.snapshot.text.outcomes
      let priorities = outcomes.map { Self.priority($0.text) }
      #expect(zip(priorities, priorities.dropFirst()).allSatisfy { $0 >= $1 }, "outcomes are in priority order")
      let firstPlaced = try #require(outcomes.firstIndex { $0.isPlaced })
      #expect(priorities[firstPlaced] == priorities.max(), "the first placed label has the highest priority")

      var placedBefore: [LabelOutcome] = []
      var bad: [String] = []
      for o in outcomes {
        let point = try #require(s.points[o.text])
        let size = (width: o.box!.maxX - o.box!.minX, height: o.box!.maxY - o.box!.minY)
        let boxes = Self.anchors.map { $0.box(size: size, at: point) }
        // What keeps `box` out: a label placed before, of at least this
        // label's priority, or a colliding marker.
        func blocker(_ box: Rect) -> String? {
          if let l = placedBefore.first(where: { overlaps($0.box!, box) && Self.priority($0.text) >= Self.priority(o.text) }) {
            return l.text
          }
          return s.markerBoxes.contains { overlaps($0, box) } ? "marker" : nil
        }
        if o.isPlaced {
          let k = try #require(o.anchor.flatMap { Self.anchors.firstIndex(of: $0) })
          #expect(close(o.box!, boxes[k]), "\(o.text): box \(describe(o.box!)) is not its \(Self.anchors[k]) box \(describe(boxes[k]))")
          if o.allowOverlap {
            #expect(k == 0, "\(o.text) allows overlap but did not take its first anchor")
          } else {
            for e in 0..<k where blocker(boxes[e]) == nil {
              bad.append("\(o.text) took anchor \(Self.anchors[k]) though \(Self.anchors[e]) was free")
            }
          }
          placedBefore.append(o)
        } else {
          #expect(!o.allowOverlap, "\(o.text) allows overlap but was dropped")
          #expect(close(o.box!, boxes[boxes.count - 1]), "\(o.text): a dropped label reports its last anchor's box")
          for (e, box) in boxes.enumerated() where blocker(box) == nil {
            bad.append(
              "\(o.text) (priority \(Self.priority(o.text))) dropped though \(Self.anchors[e]) was free of labels of at least its priority")
          }
        }
      }
      #expect(bad.isEmpty, "\(bad.count) problems: \(bad.prefix(10).joined(separator: "; "))")
    }

    private func close(_ a: Rect, _ b: Rect) -> Bool {
      abs(a.minX - b.minX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.maxX - b.maxX) < 1e-6 && abs(a.maxY - b.maxY) < 1e-6
    }

    /// The report's placed and dropped counts are the outcomes'.
    @Test func reportCountsMatchOutcomes() throws {
      let snapshot = try Self.load().snapshot
      let labels = member(reportLayer(snapshot, "points"), "labels")
      let placed = snapshot.text.outcomes.filter(\.isPlaced).count
      #expect(number(member(labels, "placed")) == Double(placed))
      #expect(number(member(labels, "dropped")) == Double(snapshot.text.outcomes.count - placed))
    }

    /// Placement and pixels are the same on every run and for 1 or 2 threads.
    @Test func deterministic() throws {
      let a = try Self.load(options: RenderOptions(threads: 1))
      let b = try Self.load(options: RenderOptions(threads: 1))
      let c = try Self.load(options: RenderOptions(threads: 2, tileRows: 16))
      let pixels = Array(a.snapshot.canvas.buffer)
      #expect(Array(b.snapshot.canvas.buffer) == pixels, "two renders with 1 thread differ")
      #expect(Array(c.snapshot.canvas.buffer) == pixels, "1 and 2 threads differ")
      func summary(_ s: Rendered) -> [String] {
        s.snapshot.text.outcomes.map { "\($0.text) \($0.isPlaced) \($0.anchor?.rawValue ?? "-") \(describe($0.box!))" }
      }
      #expect(summary(b) == summary(a))
      #expect(summary(c) == summary(a))
    }
  }
}

// MARK: - Halos and anchors

extension TextGoldenTests {
  /// `Golden/halos`: the label boxes sit where their anchors say.
  @Suite struct Halos {
    @Test func anchorsPlaceTheBoxes() throws {
      let snapshot = try render("halos")
      let v = snapshot.state.viewport
      let layer = try #require(snapshot.layers.first { $0.id == "labels" })
      #expect(snapshot.text.outcomes.count == 19)
      #expect(snapshot.text.outcomes.allSatisfy { $0.isPlaced })
      // Outcomes are in feature order (equal priority, one layer).
      for (d, o) in zip(layer.drawables, snapshot.text.outcomes) {
        let p = v.toDevice(d.geometry.points[0])
        let label = try #require(d.style.label)
        let halo = label.halo?.width ?? 0
        let b = o.box!
        switch label.anchors {
        case [.left]:
          // The text runs to the right of its point, 4 px (the offset) away.
          #expect(abs(b.minX - (p.x + 4)) < 1e-6, "\(o.text) at size \(label.size)")
          #expect(abs((b.minY + b.maxY) / 2 - p.y) < 1e-6)
        case [.topLeft]:
          #expect(abs(b.minX - p.x) < 1e-6 && abs(b.minY - p.y) < 1e-6)
        case [.center]:
          #expect(abs((b.minX + b.maxX) / 2 - p.x) < 1e-6 && abs((b.minY + b.maxY) / 2 - p.y) < 1e-6)
        case [.bottomRight]:
          #expect(abs(b.maxX - p.x) < 1e-6 && abs(b.maxY - p.y) < 1e-6)
        default:
          Issue.record("unexpected anchors \(label.anchors)")
        }
        // Two lines are twice as tall as one (DejaVu Sans: 1.164 em a line),
        // and the box holds the halo on every side.
        let lines = Double(o.text.split(separator: "\n").count)
        #expect(abs((b.maxY - b.minY) - (lines * 1.164 * label.size + 2 * halo)) < 0.01, "\(o.text) at size \(label.size)")
      }
    }
  }
}

// MARK: - Rotated annotation

extension TextGoldenTests {
  /// `Golden/rotated-annotation`: every text is drawn, with ink around its anchor.
  @Suite struct RotatedAnnotation {
    @Test func everyAnnotationIsDrawn() throws {
      let snapshot = try render("rotated-annotation")
      let layer = try #require(snapshot.layers.first { $0.id == "anno" })
      #expect(layer.drawnFeatures == 20)
      #expect(layer.sublayers.allSatisfy { $0.status.names == ["active"] })
      #expect(snapshot.text.missingCodePoints.isEmpty)
    }
  }
}
