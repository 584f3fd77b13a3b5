@testable import MapSnap
import _MapSnapRaster
import Testing
import _MapSnapTestSupport

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
