import MapSnap
import Testing

// What a layer shows and why (scene format sections 2, 3, 5 and 6): scale
// ranges, `visible`, style rules, floors, the frame, and opacity.

// MARK: - Helpers

private let visibilitySceneFile = "scenes/visibility.json"

/// A Point feature at the map centre (0, 0) with these properties (JSON object text).
private func pointFeature(_ properties: String, lon: Double = 0, lat: Double = 0) -> String {
  #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
}

private func inlineData(_ features: [String]) -> String {
  #"{"data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ", "))]}}"#
}

/// A features layer over inline features; `rest` holds style or rules and any other members.
private func layerJSON(_ id: String, features: [String], _ rest: String = #""style": {"marker": {}, "stroke": "black"}"#) -> String {
  #"{"id": "\#(id)", "type": "features", "source": \#(inlineData(features)), \#(rest)}"#
}

/// A scene centred on (0, 0), 800×600 logical pixels, no scale unless `mapExtra` gives one.
private func visibilityScene(_ layers: [String], mapExtra: String = "") throws -> Scene {
  let json = #"{"version": 1, "map": {"center": [0, 0], "size": [800, 600]\#(mapExtra)}, "layers": [\#(layers.joined(separator: ", "))]}"#
  return try SceneLoader.decode(Array(json.utf8), file: visibilitySceneFile, baseDirectory: "scenes")
}

/// Plans `scene` at `scale` on the scene's floor, or on `floor` when given:
/// its frame record, each layer with the display list's `drawn` counts.
private func resolveAt(_ scene: Scene, scale: Double, floor: FloorValue?? = .none) throws -> FramePlan {
  var scene = scene
  if let floor { scene.map.floor = floor }
  return try FramePlan.make(scene, overrides: ViewOverrides(scale: scale))
}

/// Rules tagged by stroke width: rule `i` of `rules` draws with strokeWidth `i + 1`
/// (and a marker, so that the points put pixels into the frame).
private func taggedRules(_ rules: [(where: String?, scale: String?)]) -> String {
  let items = rules.enumerated().map { i, r in
    var members: [String] = []
    if let w = r.where { members.append(#""where": \#(w)"#) }
    if let s = r.scale { members.append(s) }
    members.append(#""style": {"marker": {}, "stroke": "black", "strokeWidth": \#(i + 1)}"#)
    return "{" + members.joined(separator: ", ") + "}"
  }
  return #""rules": [\#(items.joined(separator: ", "))]"#
}

/// One rule-matching case: rules, one feature's properties, the scale, and
/// the rule (1-based) that must draw it, or nil when no rule takes it.
private struct RuleCase: Sendable, CustomTestStringConvertible {
  var name: String
  var rules: [(where: String?, scale: String?)]
  var properties: String
  var scale: Double = 2000
  var expectedRule: Int?
  var testDescription: String { name }
}

private let ruleCases: [RuleCase] = [
  RuleCase(
    name: "first match wins", rules: [(#"{"kind": "a"}"#, nil), (nil, nil)], properties: #"{"kind": "a"}"#,
    expectedRule: 1),
  RuleCase(
    name: "later rule takes what earlier ones do not", rules: [(#"{"kind": "a"}"#, nil), (nil, nil)],
    properties: #"{"kind": "b"}"#, expectedRule: 2),
  RuleCase(
    name: "first of two matching rules", rules: [(#"{"kind": ["a", "b"]}"#, nil), (#"{"kind": "b"}"#, nil)],
    properties: #"{"kind": "b"}"#, expectedRule: 1),
  RuleCase(
    name: "rule out of scale range is skipped", rules: [(#"{"kind": "a"}"#, #""minScale": 1000"#), (#"{"kind": "a"}"#, nil)],
    properties: #"{"kind": "a"}"#, scale: 2000, expectedRule: 2),
  RuleCase(
    name: "rule in scale range applies", rules: [(#"{"kind": "a"}"#, #""minScale": 1000"#), (#"{"kind": "a"}"#, nil)],
    properties: #"{"kind": "a"}"#, scale: 1000, expectedRule: 1),
  RuleCase(
    name: "rule below maxScale is skipped", rules: [(nil, #""maxScale": 2001"#), (nil, nil)], properties: "{}",
    scale: 2000, expectedRule: 2),
  RuleCase(
    name: "every rule out of range: not drawn", rules: [(nil, #""minScale": 1000"#)], properties: "{}",
    expectedRule: nil),
  RuleCase(
    name: "where with an array matches any element", rules: [(#"{"kind": ["a", "b", "c"]}"#, nil)],
    properties: #"{"kind": "c"}"#, expectedRule: 1),
  RuleCase(
    name: "where with an array, no element equal", rules: [(#"{"kind": ["a", "b"]}"#, nil)],
    properties: #"{"kind": "d"}"#, expectedRule: nil),
  RuleCase(name: "1 equals 1.0", rules: [(#"{"n": 1}"#, nil)], properties: #"{"n": 1.0}"#, expectedRule: 1),
  RuleCase(name: "1.0 equals 1", rules: [(#"{"n": 1.0}"#, nil)], properties: #"{"n": 1}"#, expectedRule: 1),
  RuleCase(name: "1 equals 1e0", rules: [(#"{"n": [0, 1]}"#, nil)], properties: #"{"n": 1e0}"#, expectedRule: 1),
  RuleCase(name: "string \"1\" is not number 1", rules: [(#"{"n": 1}"#, nil)], properties: #"{"n": "1"}"#, expectedRule: nil),
  RuleCase(name: "number 1 is not string \"1\"", rules: [(#"{"n": "1"}"#, nil)], properties: #"{"n": 1}"#, expectedRule: nil),
  RuleCase(name: "true matches true", rules: [(#"{"f": true}"#, nil)], properties: #"{"f": true}"#, expectedRule: 1),
  RuleCase(name: "true is not \"true\"", rules: [(#"{"f": true}"#, nil)], properties: #"{"f": "true"}"#, expectedRule: nil),
  RuleCase(name: "true is not 1", rules: [(#"{"f": true}"#, nil)], properties: #"{"f": 1}"#, expectedRule: nil),
  RuleCase(name: "missing property matches null", rules: [(#"{"x": null}"#, nil)], properties: "{}", expectedRule: 1),
  RuleCase(name: "null property matches null", rules: [(#"{"x": null}"#, nil)], properties: #"{"x": null}"#, expectedRule: 1),
  RuleCase(
    name: "missing property matches null in an array", rules: [(#"{"x": ["a", null]}"#, nil)], properties: "{}",
    expectedRule: 1),
  RuleCase(name: "missing property is not false", rules: [(#"{"x": false}"#, nil)], properties: "{}", expectedRule: nil),
  RuleCase(name: "missing property is not 0", rules: [(#"{"x": 0}"#, nil)], properties: "{}", expectedRule: nil),
  RuleCase(name: "missing property is not \"\"", rules: [(#"{"x": ""}"#, nil)], properties: "{}", expectedRule: nil),
  RuleCase(name: "0 is not null", rules: [(#"{"x": null}"#, nil)], properties: #"{"x": 0}"#, expectedRule: nil),
  RuleCase(
    name: "all keys match", rules: [(#"{"a": 1, "b": "x"}"#, nil)], properties: #"{"a": 1, "b": "x", "c": 3}"#,
    expectedRule: 1),
  RuleCase(
    name: "one key of two differs", rules: [(#"{"a": 1, "b": "x"}"#, nil)], properties: #"{"a": 1, "b": "y"}"#,
    expectedRule: nil),
  RuleCase(
    name: "one key of two missing", rules: [(#"{"a": 1, "b": "x"}"#, nil)], properties: #"{"a": 1}"#, expectedRule: nil),
  RuleCase(name: "comparison is case-sensitive", rules: [(#"{"k": "Open"}"#, nil)], properties: #"{"k": "open"}"#, expectedRule: nil),
  RuleCase(name: "empty where matches everything", rules: [("{}", nil)], properties: #"{"k": 1}"#, expectedRule: 1),
]

// MARK: - Tests

@Suite struct VisibilityTests {
  // MARK: Scale ranges (section 2)

  @Test(arguments: [500.0, 1000, 2000, 500.000_001, 1999.999_999])
  func openValveShowsInsideItsRange(scale: Double) {
    #expect(ScaleRange(minScale: 2000, maxScale: 500).contains(scale))
  }

  @Test(arguments: [499.0, 2001, 499.999_999, 2000.000_001, 1, 1e9])
  func openValveHiddenOutsideItsRange(scale: Double) {
    #expect(!ScaleRange(minScale: 2000, maxScale: 500).contains(scale))
  }

  @Test func zeroMeansNoLimit() {
    #expect(ScaleRange.unlimited.contains(1e-9) && ScaleRange.unlimited.contains(1e12))
    #expect(ScaleRange.unlimited.isUnlimited)
    let onlyMin = ScaleRange(minScale: 2000, maxScale: 0)
    #expect(onlyMin.contains(1) && onlyMin.contains(2000) && !onlyMin.contains(2001))
    let onlyMax = ScaleRange(minScale: 0, maxScale: 500)
    #expect(onlyMax.contains(500) && onlyMax.contains(1e12) && !onlyMax.contains(499))
    #expect(!onlyMin.isUnlimited && !onlyMax.isUnlimited)
  }

  @Test(arguments: [(499.0, false), (500, true), (1000, true), (2000, true), (2001, false)])
  func layerScaleRangeGivesStatus(scale: Double, inRange: Bool) throws {
    let scene = try visibilityScene([
      layerJSON("open", features: [pointFeature("{}")], #""style": {"marker": {}, "stroke": "black"}, "minScale": 2000, "maxScale": 500"#)
    ])
    let state = try resolveAt(scene, scale: scale).layers[0]
    #expect(state.status == (inRange ? [.active] : [.outOfScale]))
    #expect(state.status.names == (inRange ? ["active"] : ["outOfScale"]))
    #expect(state.features.total == 1)
    #expect(state.drawnFeatures == (inRange ? 1 : 0))
    #expect(state.drawables.count == (inRange ? 1 : 0))
  }

  // MARK: visible

  @Test func invisibleLayerIsNotVisible() throws {
    let scene = try visibilityScene([
      layerJSON("hidden", features: [pointFeature("{}")], #""style": {"marker": {}, "stroke": "black"}, "visible": false"#),
      layerJSON("shown", features: [pointFeature("{}")], #""style": {"marker": {}, "stroke": "black"}, "visible": true"#),
    ])
    let state = try resolveAt(scene, scale: 2000)
    #expect(state.layers[0].status == [.notVisible])
    #expect(state.layers[0].drawnFeatures == 0)
    #expect(state.layers[0].drawables.isEmpty)
    #expect(state.layers[0].features.total == 1)
    #expect(state.layers[1].status == [.active])
    #expect(state.layers[1].drawnFeatures == 1)
  }

  @Test func notVisibleAndOutOfScaleTogether() throws {
    let scene = try visibilityScene([
      layerJSON("both", features: [pointFeature("{}")], #""style": {}, "visible": false, "minScale": 1000"#)
    ])
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.status == [.notVisible, .outOfScale])
    #expect(!state.status.contains(.active))
    #expect(state.status.names == ["notVisible", "outOfScale"])
    #expect(state.drawnFeatures == 0)
  }

  @Test func graphicsLayerFollowsScaleAndVisibility() throws {
    let graphics = #""graphics": [{"id": "g1", "geometry": {"type": "Point", "coordinates": [0, 0]}, "style": {"marker": {}, "stroke": "red"}}]"#
    let scene = try visibilityScene([
      #"{"id": "a", "type": "graphics", \#(graphics), "maxScale": 500}"#,
      #"{"id": "b", "type": "graphics", \#(graphics), "visible": false}"#,
      #"{"id": "c", "type": "graphics", \#(graphics)}"#,
    ])
    let state = try resolveAt(scene, scale: 499)
    #expect(state.layers.map(\.status) == [[.outOfScale], [.notVisible], [.active]])
    #expect(state.layers.map(\.drawnFeatures) == [0, 0, 1])
    #expect(state.layers.map(\.features.total) == [1, 1, 1])
  }

  // MARK: Rules

  @Test(arguments: ruleCases)
  fileprivate func ruleMatching(_ c: RuleCase) throws {
    let scene = try visibilityScene([layerJSON("l", features: [pointFeature(c.properties)], taggedRules(c.rules))])
    let state = try resolveAt(scene, scale: c.scale).layers[0]
    // A `where` key that no feature has, or a value none holds, is a warning, nothing more.
    let onlyUnknownNames = state.problems.allSatisfy {
      switch $0 {
      case .unknownProperty, .unmatchedValue: true
      default: false
      }
    }
    #expect(state.status.subtracting(.warning) == [.active] && onlyUnknownNames)
    #expect(state.features.total == 1)
    if let rule = c.expectedRule {
      #expect(state.drawnFeatures == 1)
      #expect(state.drawables.map(\.style.strokeWidth) == [Double(rule)])
    } else {
      #expect(state.drawnFeatures == 0)
      #expect(state.drawables.isEmpty)
    }
  }

  @Test func featuresNoRuleTakesAreNotDrawn() throws {
    let features = [
      pointFeature(#"{"kind": "road"}"#), pointFeature(#"{"kind": "rail"}"#), pointFeature(#"{"kind": "river"}"#),
      pointFeature(#"{"kind": "road"}"#),
    ]
    let scene = try visibilityScene([
      layerJSON("l", features: features, taggedRules([(#"{"kind": "road"}"#, nil), (#"{"kind": "rail"}"#, nil)]))
    ])
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.features.total == 4)
    #expect(state.drawnFeatures == 3)
    // Feature order is kept, each with its rule's style.
    #expect(state.drawables.map(\.style.strokeWidth) == [1, 2, 1])
    #expect(state.status == [.active])
    #expect(state.message == nil)
  }

  @Test func singleStyleDrawsEveryFeature() throws {
    let scene = try visibilityScene([
      layerJSON("l", features: [pointFeature(#"{"a": 1}"#), pointFeature("null")], #""style": {"marker": {}, "stroke": "black", "strokeWidth": 7}"#)
    ])
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.drawnFeatures == 2)
    #expect(state.drawables.map(\.style.strokeWidth) == [7, 7])
  }

  // MARK: Floors (section 5)

  private static let floorFeatures = [
    pointFeature(#"{"level": "2", "n": 1}"#), pointFeature(#"{"level": 2, "n": 2}"#), pointFeature(#"{"level": 2.0, "n": 3}"#),
    pointFeature(#"{"level": 3, "n": 4}"#), pointFeature(#"{"level": "3", "n": 5}"#), pointFeature(#"{"n": 6}"#),
    pointFeature(#"{"level": null, "n": 7}"#),
  ]

  /// strokeWidth = property n, so drawables say which features were drawn.
  private static let floorRules: String = {
    let rules = (1...7).map { n in #"{"where": {"n": \#(n)}, "style": {"marker": {}, "stroke": "black", "strokeWidth": \#(n)}}"# }
    return #""floorField": "level", "rules": ["# + rules.joined(separator: ", ") + "]"
  }()

  @Test(arguments: [#", "floor": 2"#, #", "floor": "2""#, #", "floor": 2.0"#])
  func mapFloorTwoEqualsPropertyTwo(mapFloor: String) throws {
    let scene = try visibilityScene([layerJSON("rooms", features: Self.floorFeatures, Self.floorRules)], mapExtra: mapFloor)
    #expect(scene.map.floor == FloorValue("2"))
    let state = try resolveAt(scene, scale: 2000).layers[0]
    // "2", 2, 2.0 match; 3 and "3" are on another floor; no value and null are on every floor.
    #expect(state.drawables.map(\.style.strokeWidth) == [1, 2, 3, 6, 7])
    #expect(state.drawnFeatures == 5)
    #expect(state.features.otherFloor == 2)
    #expect(state.features.total == 7)
    #expect(state.status == [.active])
  }

  @Test func otherFloorShowsTheOtherFeatures() throws {
    let scene = try visibilityScene([layerJSON("rooms", features: Self.floorFeatures, Self.floorRules)], mapExtra: #", "floor": 2"#)
    let state = try resolveAt(scene, scale: 2000, floor: FloorValue(3)).layers[0]
    #expect(state.drawables.map(\.style.strokeWidth) == [4, 5, 6, 7])
    #expect(state.features.otherFloor == 3)
  }

  @Test func withoutAMapFloorEverythingIsDrawn() throws {
    let scene = try visibilityScene([layerJSON("rooms", features: Self.floorFeatures, Self.floorRules)])
    #expect(scene.map.floor == nil)
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.drawnFeatures == 7)
    #expect(state.features.otherFloor == 0)
  }

  @Test func layerWithoutFloorFieldIsOnEveryFloor() throws {
    let rulesWithoutFloorField = Self.floorRules.replacingOccurrences(of: #""floorField": "level", "#, with: "")
    let scene = try visibilityScene([layerJSON("rooms", features: Self.floorFeatures, rulesWithoutFloorField)], mapExtra: #", "floor": 2"#)
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.drawnFeatures == 7)
    #expect(state.features.otherFloor == 0)
  }

  @Test func floorValuesCompareByValue() {
    #expect(FloorValue(2) == FloorValue("2"))
    #expect(FloorValue(2.0) == FloorValue("2"))
    #expect(FloorValue(2.5) == FloorValue("2.5"))
    #expect(FloorValue(-1) == FloorValue("-1"))
    #expect(FloorValue(2) != FloorValue("3"))
    #expect(FloorValue(json: .number(2)) == FloorValue("2"))
    #expect(FloorValue(json: .null) == nil)
    #expect(FloorValue(json: .bool(true)) == nil)
  }

  @Test func graphicsOnOtherFloorsAreLeftOut() throws {
    let point = #""geometry": {"type": "Point", "coordinates": [0, 0]}"#
    let scene = try visibilityScene(
      [
        #"""
        {"id": "route", "type": "graphics", "graphics": [
          {"id": "a", \#(point), "style": {"marker": {}, "stroke": "red", "strokeWidth": 1}, "floor": 2},
          {"id": "b", \#(point), "style": {"marker": {}, "stroke": "red", "strokeWidth": 2}, "floor": "2"},
          {"id": "c", \#(point), "style": {"marker": {}, "stroke": "red", "strokeWidth": 3}, "floor": 3},
          {"id": "d", \#(point), "style": {"marker": {}, "stroke": "red", "strokeWidth": 4}}]}
        """#
      ], mapExtra: #", "floor": "2""#)
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.drawables.map(\.style.strokeWidth) == [1, 2, 4])
    #expect(state.drawnFeatures == 3)
    #expect(state.features.otherFloor == 1)
    #expect(state.features.total == 4)
    let noFloor = try resolveAt(scene, scale: 2000, floor: .some(nil)).layers[0]
    #expect(noFloor.drawnFeatures == 4)
    #expect(noFloor.features.otherFloor == 0)
  }

  // MARK: The frame

  @Test func featuresOutsideTheFrameAreNotDrawn() throws {
    // At 1:2000 and 800×600 the frame spans about ±211.7 m × ±158.8 m around (0, 0).
    let scene = try visibilityScene([
      layerJSON(
        "l",
        features: [
          pointFeature(#"{"n": 1}"#),  // centre
          pointFeature(#"{"n": 2}"#, lon: 24.94, lat: 60.17),  // far away
          pointFeature(#"{"n": 3}"#, lon: 0.01, lat: 0),  // ~1113 m east: outside
          pointFeature(#"{"n": 4}"#, lon: 0, lat: -0.0014),  // ~156 m south: inside
        ], #""style": {"marker": {}, "stroke": "black"}"#)
    ])
    let viewport = try ViewOverrides(scale: 2000).viewport(for: scene)
    #expect(abs(viewport.extent.maxX - 400 * 2000 / (96 * 39.37)) < 1e-6)
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.features.total == 4)
    #expect(state.drawnFeatures == 2)
    #expect(state.drawables.count == 2)
    #expect(state.status == [.active])
  }

  @Test func aPolygonAroundTheFrameIsDrawn() throws {
    let around = #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]]]}}"#
    let crossing = #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-1, 0.0001], [1, 0.0001]]}}"#
    let beside = #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-1, 0.01], [1, 0.01]]}}"#
    let scene = try visibilityScene([layerJSON("l", features: [around, crossing, beside], #""style": {"marker": {}, "stroke": "black", "fill": "red"}"#)])
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.drawnFeatures == 2)
  }

  @Test func aMarkerJustOutsideTheFrameThatReachesInIsDrawn() throws {
    let viewport = Viewport(center: (0, 0), scale: 2000, width: 800, height: 600)
    // 2 logical pixels beyond the right edge, and 200 pixels beyond it.
    let near = WebMercator.unproject(Point(viewport.extent.maxX + 2 * viewport.metersPerPixel, 0))
    let far = WebMercator.unproject(Point(viewport.extent.maxX + 200 * viewport.metersPerPixel, 0))
    let scene = try visibilityScene([
      layerJSON(
        "l", features: [pointFeature("{}", lon: near.lon, lat: 0), pointFeature("{}", lon: far.lon, lat: 0)],
        #""style": {"marker": {"shape": "circle", "size": 10}}"#)
    ])
    let state = try resolveAt(scene, scale: 2000).layers[0]
    #expect(state.drawnFeatures == 1)
  }

  // MARK: Opacity

  @Test func opacityZeroDrawsNothingButKeepsItsStatus() throws {
    let scene = try visibilityScene([
      layerJSON("ghost", features: [pointFeature("{}"), pointFeature("{}")], #""style": {"marker": {}, "stroke": "black"}, "opacity": 0"#),
      layerJSON("half", features: [pointFeature("{}")], #""style": {"marker": {}, "stroke": "black"}, "opacity": 0.5"#),
    ])
    let state = try resolveAt(scene, scale: 2000)
    let ghost = state.layers[0]
    #expect(ghost.opacity == 0)
    #expect(ghost.drawables.isEmpty)
    #expect(ghost.drawnFeatures == 0)
    #expect(ghost.features.total == 2)
    // Still `active`, like an ArcGIS layer at opacity 0: visible and in scale.
    #expect(ghost.status == [.active])
    #expect(state.layers[1].opacity == 0.5)
    #expect(state.layers[1].status == [.active])
    #expect(state.layers[1].drawnFeatures == 1)
  }

  @Test func opacityZeroOutOfScaleIsStillOutOfScale() throws {
    let scene = try visibilityScene([
      layerJSON("ghost", features: [pointFeature("{}")], #""style": {}, "opacity": 0, "maxScale": 5000"#)
    ])
    #expect(try resolveAt(scene, scale: 2000).layers[0].status == [.outOfScale])
  }
}
