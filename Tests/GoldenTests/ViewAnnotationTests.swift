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
