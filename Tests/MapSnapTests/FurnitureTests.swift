import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Map furniture (scene format 1.3): the scale bar's true length at the
/// centre, the north arrow's turn to true north, their units, positions,
/// report and errors.
@Suite struct FurnitureTests {
  static let data = Repository.root + "/Examples/data"

  private func plan(_ map: String) throws -> FramePlan {
    let json = #"{"version": 1, "map": {\#(map)}, "layers": []}"#
    return try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "furniture.json", baseDirectory: Self.data))
  }

  /// Vincenty's own test line, Flinders Peak to Buninyong: 54972.271 m.
  @Test func geodesicDistancesAreVincentys() throws {
    let flinders = (lon: 144 + 25 / 60.0 + 29.5244 / 3600, lat: -(37 + 57 / 60.0 + 3.7203 / 3600))
    let buninyong = (lon: 143 + 55 / 60.0 + 35.3839 / 3600, lat: -(37 + 39 / 60.0 + 10.1561 / 3600))
    let d = try #require(Geodesic.distance(flinders, buninyong))
    #expect(abs(d - 54_972.271) < 0.001)
    #expect(Geodesic.distance((10, 20), (10, 20)) == 0)
    // One degree of longitude on the equator: 2π · 6378137 / 360.
    #expect(abs(try #require(Geodesic.distance((0, 0), (1, 0))) - 111_319.490_793) < 1e-3)
  }

  @Test(arguments: [(0.9, 0.5), (1, 1), (3, 2), (7.5, 5), (120, 100), (0.0123, 0.01), (199.99, 100)])
  func barsAreOneTwoOrFiveTimesAPowerOfTen(_ x: Double, _ expected: Double) {
    #expect(abs(FurniturePlacer.roundDown(x) - expected) < 1e-12 * expected)
  }

  /// On Web Mercator at 60° north a pixel covers half its nominal ground.
  @Test func theBarMeasuresTrueLengthAtTheCentre() throws {
    let p = try plan(#""center": [24.94, 60], "scale": 10000, "size": [400, 300], "scaleBar": true, "northArrow": true"#)
    let b = try #require(p.furniture.scaleBar)
    let nominal = 10000 / (96 * 39.37)
    #expect(abs(b.groundMetersPerPixel / (nominal * cos(60 * Double.pi / 180)) - 1) < 0.004)
    #expect(b.units == "m" && b.length == 100 && b.label == "100 m")
    #expect(abs(b.widthPixels - 100 / b.groundMetersPerPixel) < 1e-9)
    #expect(b.widthPixels <= 100)
    #expect(try #require(p.furniture.northArrow).angle == 0)
  }

  /// UTM 35N's central meridian is 27° E: Helsinki (24.94° E) lies west of
  /// it, where true north leans right by about Δλ · sin φ.
  @Test(arguments: [(24.94, 1), (29.5, -1)])
  func theArrowTurnsByTheGridConvergence(_ lon: Double, _ sign: Double) throws {
    let p = try plan(#""spatialReference": "EPSG:32635", "center": [\#(lon), 60.17], "scale": 10000, "size": [200, 200], "northArrow": true"#)
    let a = try #require(p.furniture.northArrow).angle
    let expected = (27 - lon) * sin(60.17 * Double.pi / 180)
    #expect(a * sign > 0)
    #expect(abs(a - expected) < 0.02, "\(a)° against \(expected)°")
  }

  @Test func aMapInFeetCountsInFeetAndMiles() throws {
    let p = try plan(#""spatialReference": 2263, "center": [-73.98, 40.75], "scale": 2400, "size": [400, 300], "scaleBar": true"#)
    let b = try #require(p.furniture.scaleBar)
    #expect(b.units == "ft" && b.label == "200 ft")  // 100 px of 2.083 ft
    let far = try plan(#""spatialReference": 2263, "center": [-73.98, 40.75], "scale": 250000, "size": [400, 300], "scaleBar": true"#)
    #expect(try #require(far.furniture.scaleBar).units == "mi")
    let sea = try plan(#""center": [24.94, 60], "scale": 500000, "size": [400, 300], "scaleBar": {"units": "nautical", "maxWidth": 200}"#)
    let n = try #require(sea.furniture.scaleBar)
    #expect(n.units == "nmi" && n.widthPixels <= 200 && n.widthPixels > 80)
  }

  @Test func theReportGivesBoth() throws {
    let p = try plan(#""center": [24.94, 60], "scale": 10000, "size": [400, 300], "scaleBar": {"position": "topLeft"}, "northArrow": {"position": "bottomRight", "size": 40}"#)
    guard case .object(let root) = ReportBuilder(plan: p).build(), case .object(let m)? = root["map"],
      case .object(let bar)? = m["scaleBar"], case .object(let arrow)? = m["northArrow"]
    else {
      Issue.record("no furniture in the report")
      return
    }
    #expect(bar["label"] == .string("100 m") && bar["position"] == .string("topLeft"))
    #expect(arrow["angle"] == .number(0) && arrow["position"] == .string("bottomRight"))
    // Without them, no keys.
    guard case .object(let bare) = ReportBuilder(plan: try plan(#""center": [0, 0], "scale": 1000, "size": [10, 10]"#)).build(),
      case .object(let bareMap)? = bare["map"]
    else { return }
    #expect(bareMap["scaleBar"] == nil && bareMap["northArrow"] == nil)
  }

  @Test(arguments: [
    (#""scaleBar": "yes""#, "map.scaleBar"), (#""scaleBar": {"position": "middle"}"#, "map.scaleBar.position"),
    (#""scaleBar": {"maxWidth": 5}"#, "map.scaleBar.maxWidth"), (#""scaleBar": {"units": "furlongs"}"#, "map.scaleBar.units"),
    (#""scaleBar": {"size": 3}"#, "map.scaleBar.size"), (#""northArrow": 1"#, "map.northArrow"),
    (#""northArrow": {"size": 2}"#, "map.northArrow.size"), (#""northArrow": {"color": "nope"}"#, "map.northArrow.color"),
  ])
  func badFurnitureIsAnInputError(_ key: String, _ path: String) {
    let json = #"{"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [10, 10], \#(key)}, "layers": []}"#
    let error = #expect(throws: SceneError.self) { try SceneLoader.decode(Array(json.utf8), file: "f.json", baseDirectory: "") }
    #expect(error?.path == path)
  }
}
