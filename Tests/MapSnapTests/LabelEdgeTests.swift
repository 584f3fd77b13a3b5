import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Issue 37, item 11 (labels ran off the image; one `offset` served every
/// anchor) and item 17 (a tiny `spacing` and piled-up blockers grew without
/// bound): `avoidEdges`, per-anchor and radial offsets, the least spacing,
/// and blockers named and counted.
@Suite struct LabelEdgeTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  /// Logical pixels at 1:1000 and 96 DPI, in degrees of longitude at the equator.
  static let pixelDegrees = 1000 / (96 * 39.37) / 111_319.490_793_273_57

  private func body(_ label: String, points: [(Double, Double)], markers: Bool = false) -> String {
    let features = points.enumerated().map { i, p in
      #"{"type": "Feature", "id": \#(i), "properties": {"name": "Washington, D.C."}, "geometry": {"type": "Point", "coordinates": [\#(p.0 * Self.pixelDegrees), \#(-p.1 * Self.pixelDegrees)]}}"#
    }
    let marker = markers ? #", "marker": {"shape": "circle", "size": 6, "fill": "red", "collides": true}"# : ""
    return #"{"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [256, 256]}, "layers": [{"id": "p", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ", "))]}}, "style": {"label": \#(label)\#(marker)}}]}"#
  }

  private func plan(_ json: String) throws -> FramePlan {
    try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "t.json", baseDirectory: ""), fonts: fonts)
  }

  private func decodeError(_ json: String) -> SceneError? {
    do {
      _ = try SceneLoader.decode(Array(json.utf8), file: "t.json", baseDirectory: "")
      return nil
    } catch { return error }
  }

  @Test("avoidEdges: a label crossing the image's edge takes an anchor that fits, else is hidden as edge")
  func avoidEdges() throws {
    // 120 px left of the centre of a 256-px image: 8 px from its left edge.
    let near = [(-120.0, 0.0)]
    let loose = try plan(body(#"{"field": "name"}"#, points: near))
    let box = try #require(loose.text.outcomes.first?.box)
    #expect(loose.text.outcomes.first?.isPlaced == true && box.minX < 0, "without avoidEdges the box runs off: \(box)")
    let edge = try plan(body(#"{"field": "name", "avoidEdges": true}"#, points: near))
    #expect(edge.text.outcomes.first?.isPlaced == false && edge.text.outcomes.first?.hiddenReason == .edge)
    #expect(edge.text.labels.isEmpty)
    let moved = try plan(body(#"{"field": "name", "avoidEdges": true, "anchors": ["center", "left"]}"#, points: near))
    let o = try #require(moved.text.outcomes.first)
    #expect(o.isPlaced && o.anchor == .left)
    #expect((o.box?.minX ?? -1) >= 0 && (o.box?.maxX ?? 999) <= 256)
    let text = Explanation(plan: edge).text
    #expect(text.contains("crosses the image's edge"), "\(text)")
    let report = ReportBuilder(plan: edge).build()
    #expect(report["layers"]?[0]?["labels"]?["entries"]?[0]?["outcome"] == .string("edge"))
  }

  @Test("each anchor takes its own offset, else the radial offset in its direction, else offset")
  func anchorOffsets() throws {
    // A point 110 px right of the centre: `left` (text to its right) runs off; `right` is tried next.
    let p = [(110.0, 0.0)]
    let own = try plan(
      body(#"{"field": "name", "avoidEdges": true, "anchors": [{"anchor": "left", "offset": [6, 0]}, {"anchor": "right", "offset": [-6, 0]}]}"#, points: p))
    let o = try #require(own.text.outcomes.first)
    #expect(o.isPlaced && o.anchor == .right)
    // The point is at x = 128 + 110; the right anchor's box ends 6 px before it, not 6 px past it.
    #expect(abs((o.box?.maxX ?? 0) - (238 - 6)) < 1e-6, "\(String(describing: o.box))")
    // A point 60 px left of the image whose only anchor's offset brings the label 80 px right:
    // the label's reach counts each anchor's offset, so the feature is examined and labelled.
    let far = try plan(
      body(#"{"field": "name", "anchors": [{"anchor": "left", "offset": [80, 0]}]}"#, points: [(-128 - 60, 0)]))
    #expect(far.text.outcomes.first?.isPlaced == true, "\(String(describing: far.text.outcomes.first))")
    let style = LabelStyle(field: "name")
    var radial = style
    radial.anchors = [.left, .topLeft, .center, .bottom]
    radial.radialOffset = 10
    #expect(radial.offset(forAnchorAt: 0) == (10, 0))
    let corner = radial.offset(forAnchorAt: 1)
    #expect(abs(corner.0 - 10 / 2.0.squareRoot()) < 1e-12 && abs(corner.1 - 10 / 2.0.squareRoot()) < 1e-12)
    #expect(radial.offset(forAnchorAt: 2) == (0, 0))
    #expect(radial.offset(forAnchorAt: 3) == (0, -10), "bottom: the box above the point moves up")
    var plain = style
    plain.offset = (3, 4)
    plain.anchors = [.left, .right]
    plain.anchorOffsets = [(1, 1), nil]
    #expect(plain.offset(forAnchorAt: 0) == (1, 1) && plain.offset(forAnchorAt: 1) == (3, 4))
    // Decoded: radialOffset; with offset it is a conflict; a bad anchor object names its path.
    let decoded = try plan(body(#"{"field": "name", "anchors": ["left"], "radialOffset": 8}"#, points: [(0, 0)]))
    #expect(abs((decoded.text.outcomes.first?.box?.minX ?? 0) - (128 + 8)) < 1e-6)
    let both = decodeError(body(#"{"field": "name", "radialOffset": 8, "offset": [1, 1]}"#, points: []))
    #expect(both?.kind == .conflictingKeys)
    let bad = decodeError(body(#"{"field": "name", "anchors": [{"anchor": "rigth"}]}"#, points: []))
    #expect(bad?.path == "layers[0].style.label.anchors[0].anchor" && bad?.hint == "did you mean \"right\"?", "\(String(describing: bad))")
    let unknown = decodeError(body(#"{"field": "name", "anchors": [{"anchor": "right", "ofset": [1, 1]}]}"#, points: []))
    #expect(unknown?.kind == .unknownKey)
  }

  @Test("a spacing below one logical pixel is refused; repetitions along a line spend the text budget")
  func spacing() throws {
    let line = ##"{"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [256, 256]}, "layers": [{"id": "r", "type": "features", "source": {"data": {"type": "Feature", "properties": {"name": "x"}, "geometry": {"type": "LineString", "coordinates": [[-0.0005, 0], [0.0005, 0]]}}}, "style": {"stroke": "#000", "label": {"field": "name", "placement": "line", "spacing": SPACING}}}]}"##
    let tiny = decodeError(line.replacingOccurrences(of: "SPACING", with: "1e-6"))
    #expect(tiny?.path == "layers[0].style.label.spacing", "\(String(describing: tiny))")
    let one = try plan(line.replacingOccurrences(of: "SPACING", with: "1"))
    #expect(one.text.outcomes.count > 1 && one.text.outcomes.count < 1000)
    // A budget of 40 characters: the one-character label repeats 40 times at most.
    let lines = LinePlacer(
      block: fonts.layout("x", font: nil, size: 12), frame: Rect(minX: 0, minY: 0, maxX: 10_000, maxY: 100), spacing: 1,
      maxAngle: 45, halo: 0)
    guard case .success(let places) = lines.places(along: [[Point(0, 50), Point(10_000, 50)]], limit: 40) else {
      Issue.record("no places")
      return
    }
    #expect(places.count == 40)
  }

  @Test("labels piled on one spot with collides markers name their first blockers and count the rest")
  func pileOfBlockers() throws {
    let n = 600
    let pile = try plan(body(#"{"field": "name"}"#, points: Array(repeating: (0, 0), count: n), markers: true))
    let dropped = pile.text.outcomes.filter { $0.hiddenReason == .collision }
    #expect(dropped.count == n)
    for o in dropped {
      #expect(o.blockedBy.count <= PlacementResult.namedBlockers)
      #expect(o.blockedBy.count + o.blockedByMore >= n - 1, "\(o.blockedBy.count) + \(o.blockedByMore)")
    }
    let report = ReportBuilder(plan: pile).build()
    let entry = report["layers"]?[0]?["labels"]?["entries"]?[0]
    #expect(entry?["blockedByMore"] != nil)
  }
}
