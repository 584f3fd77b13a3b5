@testable import MapSnap
import _MapSnapRaster
import Testing
import _MapSnapTestSupport

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
