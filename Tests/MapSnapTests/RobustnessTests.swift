import Testing

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
    #expect(snap.state.layers[0].features.drawn == 0)  // beyond FontLibrary.maxTextSize: not drawn, not counted
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
    #expect(snap.state.layers[0].features.drawn == 0)
    #expect(snap.state.layers[0].sublayers[0].features.drawn == 0)
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
