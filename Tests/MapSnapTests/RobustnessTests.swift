import Dispatch
import Synchronization
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Inputs at the edges that once crashed or misreported (from a review of the
/// code against the format); each test pins the fixed behaviour.
@Suite struct RobustnessTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  private func scene(_ body: String) throws -> Scene {
    try SceneLoader.decode(Array(("{\"version\": 1, " + body + "}").utf8), file: "t.json", baseDirectory: "")
  }

  private func inkPixels(_ s: Snapshot) -> Int {
    s.canvas.buffer.reduce(0) { $0 + ($1 != 0xFFFF_FFFF ? 1 : 0) }
  }

  private static let annotation = """
    "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]},
    "layers": [{"id": "a", "type": "annotation", "textField": "t", "angleField": "r", "referenceScale": 1000,
      "source": {"data": {"type": "Feature", "properties": {"t": "HP", "r": ANGLE}, "geometry": {"type": "Point", "coordinates": [0, 0]}}},
      "sublayers": [{"id": "all", "style": {"size": 10}}]}]
    """

  @Test func annotationZoomedInWithoutBoundDoesNotCrash() throws {
    let s = try scene(Self.annotation.replacingOccurrences(of: "ANGLE", with: "0"))
    let snap = try Snapshot.render(s, overrides: ViewOverrides(scale: 0.00001), fonts: fonts)
    #expect(snap.layers[0].drawnFeatures == 0)  // beyond FontLibrary.maxTextSize: not drawn, not counted
  }

  @Test func largeUnrotatedAnnotationIsDrawnFromOutlines() throws {
    let s = try scene(Self.annotation.replacingOccurrences(of: "ANGLE", with: "0"))
    let snap = try Snapshot.render(s, overrides: ViewOverrides(scale: 10, size: (2000, 2000)), fonts: fonts)
    #expect(inkPixels(snap) > 10_000)
  }

  @Test func aNonFiniteAngleIsTakenAsZero() throws {
    let s = try scene(Self.annotation.replacingOccurrences(of: "ANGLE", with: "\"nan\""))
    let snap = try Snapshot.render(s, fonts: fonts)
    #expect(inkPixels(snap) > 20)
  }

  @Test func annotationUnderOnePixelIsNotCounted() throws {
    let s = try scene(Self.annotation.replacingOccurrences(of: "ANGLE", with: "0"))
    let snap = try Snapshot.render(s, overrides: ViewOverrides(scale: 100_000), fonts: fonts)
    #expect(snap.layers[0].drawnFeatures == 0)
    #expect(snap.layers[0].sublayers[0].drawnFeatures == 0)
  }

  @Test func labelsFarOffTheImageAreNotCandidates() throws {
    var coords: [String] = ["[0, 0]"]
    for i in 1...2000 { coords.append("[\(Double(i) * 0.01), 0.5]") }
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]},
      "layers": [{"id": "p", "type": "features", "source": {"data": {"type": "Feature", "properties": {"n": "label"},
        "geometry": {"type": "MultiPoint", "coordinates": [\(coords.joined(separator: ","))]}}},
        "style": {"label": {"field": "n"}}}]
      """)
    let snap = try Snapshot.render(s, fonts: fonts)
    #expect(snap.text.labelCounts[0]?.placed == 1)
    #expect(snap.text.outcomes.count == 1)
    // The smallest scale accepted puts the far points beyond 32-bit pixel
    // coordinates: no trap. Smaller ones are refused.
    _ = try Snapshot.render(s, overrides: ViewOverrides(scale: Viewport.scaleRange.lowerBound), fonts: fonts)
    #expect(throws: SceneError.self) { try FramePlan.make(s, overrides: ViewOverrides(scale: 1e-300), fonts: fonts) }
    #expect(throws: SceneError.self) { try FramePlan.make(s, overrides: ViewOverrides(scale: 1e300), fonts: fonts) }
  }

  @Test func aPointJustOffTheEdgeStillLabelsIntoTheImage() throws {
    // 5 px left of the image at 1:1000 (0.26458 m/px): the label runs right, into it.
    let lon = -(100 + 5) * 0.26458386250105836 / 6378137 * 180 / Double.pi
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]},
      "layers": [{"id": "p", "type": "features", "source": {"data": {"type": "Feature", "properties": {"n": "Harbour"},
        "geometry": {"type": "Point", "coordinates": [\(lon), 0]}}},
        "style": {"label": {"field": "n", "anchors": ["left"], "size": 14}}}]
      """)
    let snap = try Snapshot.render(s, fonts: fonts)
    #expect(snap.text.labelCounts[0]?.placed == 1)
    #expect(inkPixels(snap) > 50)
  }

  @Test func viewAnnotationTextReportsMissingCodePointsAndFonts() throws {
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]}, "layers": [],
      "viewAnnotations": [{"id": "v", "coordinate": [0, 0], "text": "Hi \\ud808\\udc00 地图"}]
      """)
    let snap = try Snapshot.render(s, fonts: fonts)
    #expect(snap.text.missingCodePoints == ["\u{12000}"])
    #expect(snap.text.fontsUsed == ["DejaVu Sans", "Droid Sans Fallback"])
  }

  @Test func anUnknownFontIsAnErrorAtEveryScale() throws {
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]},
      "layers": [{"id": "p", "type": "features", "minScale": 500,
        "source": {"data": {"type": "Feature", "properties": {"n": "x"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}},
        "style": {"label": {"field": "n", "font": "DejaVu Sanz"}}}]
      """)
    // The layer is out of scale at 1:1000, so nothing is drawn; the font is still checked.
    #expect(throws: SceneError.self) { try Snapshot.render(s, fonts: fonts) }
  }

  @Test func aSubPixelDashPeriodDrawsAFadedSolidLine() throws {
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 20], "background": "#00000000"},
      "layers": [{"id": "l", "type": "graphics", "graphics": [{"geometry": {"type": "LineString", "coordinates": [[-1, 0], [1, 0]]},
        "style": {"stroke": "#000", "strokeWidth": 2, "strokeDash": [0.001, 0.003]}}]}]
      """)
    let snap = try Snapshot.render(s)
    // A quarter of the period is "on": alpha 255 / 4 on the line's pixels.
    let a = snap.canvas.rgba(x: 100, y: 9).a
    #expect(a >= 62 && a <= 66)
  }

  @Test func floorsCompareByValueAndReportAsGiven() throws {
    #expect(FloorValue("2") == FloorValue(2))
    #expect(FloorValue("2.0") == FloorValue(2))
    #expect(FloorValue("L2") != FloorValue(2))
    #expect(FloorValue(2).json == .number(2))
    #expect(FloorValue("L2").json == .string("L2"))
  }

  @Test func aLongitudeOutsideTheWorldIsAnInputError() {
    let error = #expect(throws: SceneError.self) {
      try scene(#""map": {"center": [1e308, 0], "scale": 1000, "size": [200, 100]}, "layers": []"#)
    }
    #expect(error?.path == "map.center[0]")
  }
}

/// The frame's budgets (`FrameBudget`): past each, a deterministic choice in
/// drawing order, a `budget` problem on the layer, never a crash or a swap
/// storm.
@Suite struct FrameBudgetTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  private func scene(_ body: String) throws -> Scene {
    try SceneLoader.decode(Array(("{\"version\": 1, " + body + "}").utf8), file: "t.json", baseDirectory: "")
  }

  @Test func budgetsGrowWithTheFrameBetweenFloorAndCeiling() {
    let small = FrameBudget(devicePixels: 100 * 100)
    #expect(small == FrameBudget(dashes: 1_000_000, textCharacters: 250_000, edges: 16_000_000, imagePixels: 1 << 26))
    let large = FrameBudget(devicePixels: 1 << 30)
    #expect(large == FrameBudget(dashes: 16_000_000, textCharacters: 4_000_000, edges: 64_000_000, imagePixels: 1 << 32))
    let mid = FrameBudget(devicePixels: 4000 * 4000)
    #expect(mid.dashes == 1_000_000 && mid.textCharacters == 4_000_000 && mid.edges == 64_000_000 && mid.imagePixels == 1_024_000_000)
  }

  /// A zigzag whose dashes inside the frame would be 2 million is drawn
  /// solid without making one dash; the short dashed line before it keeps
  /// its dashes, and the image is the same on 1 and 4 threads.
  @Test func dashesPastTheBudgetAreDrawnSolidWithoutBeingMade() throws {
    // 200 × 200 px at 1:1000 (0.2645 m a pixel): each zigzag segment crosses
    // the frame (about 200 px inside it), 10,000 of them, dash period 1 px.
    var zig: [String] = []
    for i in 0...10_000 { zig.append("[\(i % 2 == 0 ? -0.0004 : 0.0004), \(-0.0004 + 0.0008 * Double(i) / 10_000)]") }
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 200], "background": "#ffffff"},
      "layers": [{"id": "lines", "type": "graphics", "graphics": [
        {"id": "short", "geometry": {"type": "LineString", "coordinates": [[-0.0003, 0.0001], [0.0003, 0.0001]]},
         "style": {"stroke": "#000000", "strokeWidth": 2, "strokeDash": [4, 4]}},
        {"id": "zigzag", "geometry": {"type": "LineString", "coordinates": [\(zig.joined(separator: ","))]},
         "style": {"stroke": "#ff0000", "strokeWidth": 1, "strokeDash": [0.5, 0.5]}}]}]
      """)
    let one = try Snapshot.render(s, options: RenderOptions(threads: 1), fonts: fonts)
    let four = try Snapshot.render(s, options: RenderOptions(threads: 4), fonts: fonts)
    #expect(Array(one.canvas.buffer) == Array(four.canvas.buffer))
    let layer = one.layers[0]
    #expect(layer.status.contains(.warning))
    #expect(layer.problems == [.budget(.dashes, limit: 1_000_000, affected: 1)])
    #expect(layer.message?.contains("1 feature drawn with solid lines instead of dashes: the frame's budget of 1000000 dashes was spent") == true)
    #expect(layer.drawnFeatures == 2)
    // On four threads the geometry is built while the text is placed: the
    // dash budget's decision comes out of it the same.
    #expect(four.layers[0].problems == layer.problems && four.layers[0].drawnFeatures == 2)
    let report = String(decoding: JSONWriter().writeBytes(one.report(detail: .counts)), as: UTF8.self)
    #expect(report.contains("\"budget\""))
  }

  /// Label text past the frame's character budget is not laid out; the
  /// label after it, short enough, still is.
  @Test func textPastTheBudgetIsNotLaidOut() throws {
    let long = String(repeating: "W", count: 300_000)
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]},
      "layers": [{"id": "p", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"n": "\(long)"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "properties": {"n": "Kallio"}, "geometry": {"type": "Point", "coordinates": [0.0001, 0.0001]}}]}},
        "style": {"label": {"field": "n", "allowOverlap": true}}}]
      """)
    let snap = try Snapshot.render(s, fonts: fonts)
    let outcomes = snap.text.outcomes.sorted { $0.feature.index < $1.feature.index }
    #expect(outcomes.map(\.hiddenReason) == [.overBudget, nil])
    #expect(outcomes.map(\.isPlaced) == [false, true])
    #expect(snap.layers[0].problems == [.budget(.textCharacters, limit: 250_000, affected: 1)])
    #expect(snap.text.labelCounts[0]?.hidden[.overBudget] == 1)
  }

  /// Annotation text counts against the same budget, before labels.
  @Test func annotationTextPastTheBudgetIsOverBudget() throws {
    let long = String(repeating: "A", count: 260_000)
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]},
      "layers": [{"id": "a", "type": "annotation", "textField": "t", "referenceScale": 1000,
        "source": {"data": {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"t": "\(long)"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
          {"type": "Feature", "properties": {"t": "HP"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}},
        "sublayers": [{"id": "all", "style": {"size": 10}}]}]
      """)
    let snap = try Snapshot.render(s, fonts: fonts)
    let texts = snap.layers[0].annotations
    #expect(texts.map(\.outcome) == [.hidden(.overBudget), .drawn])
    #expect(snap.layers[0].problems == [.budget(.textCharacters, limit: 250_000, affected: 1)])
  }

  /// Past the edge budget, whole chunks of features (cut by points, never by
  /// threads) are left out in drawing order, and counted on their layer.
  @Test func featuresPastTheEdgeBudgetAreLeftOutInDrawingOrder() throws {
    var graphics: [String] = []
    for i in 0..<300 {
      let x = -0.0004 + 0.0008 * Double(i) / 300
      graphics.append(
        """
        {"id": "g\(i)", "geometry": {"type": "Polygon", "coordinates": [[[\(x), -0.0005], [\(x + 0.00001), -0.0005], [\(x + 0.00001), 0.0005], [\(x), 0.0005], [\(x), -0.0005]]]},
         "style": {"fill": "#336699"}}
        """)
    }
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [400, 400]},
      "layers": [{"id": "bars", "type": "graphics", "graphics": [\(graphics.joined(separator: ","))]}]
      """)
    let plan = try FramePlan.make(s, fonts: fonts, threads: 1)
    let full = DisplayListBuilder(state: plan.state, inputs: plan.inputs, text: plan.text, boxes: [], fonts: nil, threads: 1).build()
    var limited = DisplayListBuilder(state: plan.state, inputs: plan.inputs, text: plan.text, boxes: [], fonts: nil, threads: 1)
    // Room for the first chunk (128 bars) only.
    limited.budget = FrameBudget(dashes: 1, textCharacters: 1, edges: full.0.edgeCount / 2, imagePixels: 1)
    let (list, coverage) = limited.build()
    #expect(list.edgeCount <= full.0.edgeCount / 2 && list.edgeCount > 0)
    #expect(coverage.drawables[0].prefix(128).allSatisfy { $0 })
    #expect(coverage.drawables[0].dropFirst(256).allSatisfy { !$0 })
    let left = coverage.overBudget[0]?[.edges] ?? 0
    #expect(left == coverage.drawables[0].filter { !$0 }.count && left > 0)
    var threaded = limited
    threaded.threads = 4
    #expect(threaded.build().1.drawables == coverage.drawables)
    // Built ahead, while the text is placed (`buildGeometry`), the
    // geometry's chunks are spent and left out the same way.
    for threads in [1, 4] {
      let geometry = DisplayListBuilder.buildGeometry(state: plan.state, inputs: plan.inputs, threads: threads, budget: limited.budget)
      let (ahead, aheadCoverage) = limited.build(geometry: geometry)
      #expect(ahead.edgeCount == list.edgeCount && ahead.fillCount == list.fillCount, "\(threads) threads")
      #expect(aheadCoverage.drawables == coverage.drawables && aheadCoverage.overBudget == coverage.overBudget, "\(threads) threads")
    }
  }
}

/// View annotations take their text from what labels and annotation text
/// left of the frame's text budget.
@Suite struct ViewAnnotationBudgetTests {
  @Test func viewAnnotationTextPastTheBudgetIsOverBudget() throws {
    let long = String(repeating: "W", count: 200_000)
    let s = try SceneLoader.decode(Array("""
      {"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [200, 100]},
       "viewAnnotations": [
         {"id": "a", "coordinate": [0, 0], "text": "\(long)", "allowOverlap": true, "size": [20, 20]},
         {"id": "b", "coordinate": [0, 0], "text": "\(long)", "allowOverlap": true, "size": [20, 20]},
         {"id": "c", "coordinate": [0, 0], "text": "ok", "allowOverlap": true, "size": [20, 20]}]}
      """.utf8), file: "t.json", baseDirectory: "")
    let plan = try FramePlan.make(s, fonts: try FontLibrary(directories: [FontLibrary.bundledDirectory]))
    let outcomes = plan.viewAnnotations.outcomes
    #expect(outcomes.map(\.isPlaced) == [true, false, true])
    #expect(outcomes[1].hiddenReason == .overBudget)
    #expect(plan.warnings.contains { $0.hasPrefix("1 view annotation not drawn: the frame's budget of 250000 characters") })
  }
}

extension FrameBudgetTests {
  /// A stroke whose outline alone could pass the edge budget is never made:
  /// the feature is left out and counted, the others drawn; the same for
  /// any thread count.
  @Test func aStrokeThatAloneWouldOverspendTheEdgesIsNotBuilt() throws {
    var wiggle: [String] = []
    for i in 0...2_000 { wiggle.append("[\(-0.0004 + 0.0008 * Double(i) / 2_000), \(i % 2 == 0 ? -0.0001 : 0.0001)]") }
    let s = try scene(
      """
      "map": {"center": [0, 0], "scale": 1000, "size": [200, 200]},
      "layers": [{"id": "l", "type": "graphics", "graphics": [
        {"id": "small", "geometry": {"type": "LineString", "coordinates": [[-0.0002, 0.00015], [0.0002, 0.00015]]}, "style": {"stroke": "#000000", "strokeWidth": 2}},
        {"id": "huge", "geometry": {"type": "LineString", "coordinates": [\(wiggle.joined(separator: ","))]},
         "style": {"stroke": "#ff0000", "strokeWidth": 200, "lineJoin": "round"}}]}]
      """)
    let plan = try FramePlan.make(s, fonts: fonts, threads: 1)
    for threads in [1, 4] {
      var b = DisplayListBuilder(state: plan.state, inputs: plan.inputs, text: plan.text, boxes: [], fonts: nil, threads: threads)
      b.budget = FrameBudget(dashes: 1_000_000, textCharacters: 1, edges: 20_000, imagePixels: 1 << 26)
      let (list, coverage) = b.build()
      #expect(coverage.drawables[0] == [true, false])
      #expect(coverage.overBudget[0]?[.edges] == 1)
      #expect(list.edgeCount > 0 && list.edgeCount < 100)
      // The same with the geometry built ahead (`buildGeometry`).
      let (ahead, aheadCoverage) = b.build(geometry: DisplayListBuilder.buildGeometry(state: plan.state, inputs: plan.inputs, threads: threads, budget: b.budget))
      #expect(aheadCoverage.drawables[0] == [true, false] && aheadCoverage.overBudget[0]?[.edges] == 1)
      #expect(ahead.edgeCount == list.edgeCount)
    }
  }
}

/// The display list's geometry is built on a worker while the text is
/// placed (`DisplayListBuilder.GeometryBuild`): many frames planned at once, so
/// that every worker is busy, still finish (the thread that takes the
/// geometry builds it when no worker has started on it) and plan what one
/// thread plans.
@Suite struct GeometryAheadTests {
  @Test func framesPlannedAtOnceOnBusyWorkersAreTheSerialOnes() throws {
    let golden = try #require(GoldenCase.all().first { $0.name == "helsinki" })
    let scene = try SceneLoader.load(path: golden.scenePath)
    let overrides = ViewOverrides(scale: golden.scale)
    let fonts = try FontLibrary(directories: [FontLibrary.bundledDirectory])
    let serial = try FramePlan.make(scene, overrides: overrides, fonts: fonts, threads: 1)
    let expected = JSONWriter().write(serial.report)
    let frames = 12
    let results = Mutex<[Int: (String, Int, Int)]>([:])
    DispatchQueue.concurrentPerform(iterations: frames) { i in
      // Each frame with fonts of its own: a font library is not thread-safe.
      guard let fonts = try? FontLibrary(directories: [FontLibrary.bundledDirectory]),
        let plan = try? FramePlan.make(scene, overrides: overrides, fonts: fonts, threads: 2)
      else { return }
      let r = (JSONWriter().write(plan.report), plan.displayList.edgeCount, plan.displayList.fillCount)
      results.withLock { $0[i] = r }
    }
    let all = results.withLock { $0 }
    #expect(all.count == frames)
    for (i, r) in all {
      #expect(r.0 == expected && r.1 == serial.displayList.edgeCount && r.2 == serial.displayList.fillCount, "frame \(i)")
    }
  }
}
