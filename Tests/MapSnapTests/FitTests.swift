import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Fitting the view to a box (scene format 7): `map.bounds` with `padding`,
/// the overrides `--bounds`, `--padding` and `--fit LAYER:ID`, on Web
/// Mercator and geographic maps.
@Suite struct FitTests {
  private func scene(_ map: String, layers: String = "") throws -> Scene {
    let json = #"{"version": 1, "map": {\#(map)}, "layers": [\#(layers)]}"#
    return try SceneLoader.decode(Array(json.utf8), file: "fit.json", baseDirectory: Repository.root + "/Examples/data")
  }

  /// The box's projected extent, and the frame's.
  private func box(_ b: MapBounds, _ p: MapProjection) -> Rect {
    var r = Rect.empty
    r.include(p.project(lon: b.west, lat: b.south))
    r.include(p.project(lon: b.east, lat: b.north))
    return r
  }

  @Test(arguments: [MapProjection.webMercator, .geographic])
  func theBoxFitsExactlyAlongOneSide(_ projection: MapProjection) throws {
    let b = MapBounds(west: 24.93, south: 60.165, east: 24.95, north: 60.172)
    let s = try scene(#""bounds": [24.93, 60.165, 24.95, 60.172], "size": [800, 600], "spatialReference": \#(projection.epsgCode!)"#)
    let v = try ViewOverrides().viewport(for: s, projection: projection)
    let r = box(b, projection)
    let e = v.extent
    #expect(abs((e.minX + e.maxX) / 2 - (r.minX + r.maxX) / 2) < 1e-9 * max(1, abs(r.minX)))
    #expect(abs((e.minY + e.maxY) / 2 - (r.minY + r.maxY) / 2) < 1e-9 * max(1, abs(r.minY)))
    // Inside, and touching on the limiting side.
    #expect(e.width >= r.width * (1 - 1e-12) && e.height >= r.height * (1 - 1e-12))
    #expect(abs(e.width - r.width) < 1e-9 * r.width || abs(e.height - r.height) < 1e-9 * r.height)
  }

  @Test func paddingLeavesRoomOnEachSide() throws {
    let s = try scene(#""bounds": [24.93, 60.165, 24.95, 60.172], "padding": [10, 20, 30, 40], "size": [800, 600]"#)
    let v = try ViewOverrides().viewport(for: s)
    let r = box(MapBounds(west: 24.93, south: 60.165, east: 24.95, north: 60.172), .webMercator)
    // The box spans the image less the padding on its limiting side: 740 × 560 px.
    let across = r.width / v.unitsPerPixel
    let down = r.height / v.unitsPerPixel
    #expect(abs(across - 740) < 1e-6 || abs(down - 560) < 1e-6, "\(across) × \(down)")
    #expect(across <= 740 + 1e-6 && down <= 560 + 1e-6)
    // Overrides win over the scene's padding.
    let w = try ViewOverrides(padding: Padding(0)).viewport(for: s)
    #expect(w.scale < v.scale)
  }

  /// A scale given with the box is kept; only the centre comes from the box.
  /// A single point keeps the given scale, and without one is an error.
  @Test func aGivenScaleIsKeptAndAPointNeedsOne() throws {
    let s = try scene(#""bounds": [24.93, 60.165, 24.95, 60.172], "scale": 2000, "size": [800, 600]"#)
    let v = try ViewOverrides().viewport(for: s)
    #expect(v.scale == 2000)
    #expect(abs(v.center.lon - 24.94) < 1e-9)
    let point = try scene(#""bounds": [24.94, 60.17, 24.94, 60.17], "size": [100, 100]"#)
    #expect(throws: SceneError.self) { try ViewOverrides().viewport(for: point) }
    let withScale = try ViewOverrides(scale: 5000).viewport(for: point)
    #expect(withScale.scale == 5000 && abs(withScale.center.lon - 24.94) < 1e-12 && abs(withScale.center.lat - 60.17) < 1e-9)
    // --center moves the view instead of the scene's box.
    let moved = try ViewOverrides(scale: 5000, center: (25, 60)).viewport(for: s)
    #expect(moved.center.lon == 25)
  }

  /// --fit LAYER:ID: one feature's bounds, from a features or graphics layer.
  @Test func fitToOneFeature() throws {
    let layers = ##"{"id": "boroughs", "type": "features", "idField": "boro_name", "source": {"geojson": "nyc_boroughs.geojson"}, "style": {"stroke": "#000"}},"##
      + ##"{"id": "route", "type": "graphics", "graphics": [{"id": "g1", "geometry": {"type": "LineString", "coordinates": [[24.93, 60.16], [24.95, 60.17]]}, "style": {"stroke": "#000"}}]}"##
    let s = try scene(#""center": [0, 0], "scale": 1000, "size": [400, 400]"#, layers: layers)
    // A fit the overrides give fits the scale too, whatever the scene's (section 7).
    let refitted = try FramePlan.make(s, overrides: ViewOverrides(scale: nil, fit: ("boroughs", FloorValue("Manhattan"))))
    #expect(refitted.state.viewport.scale > 50_000 && refitted.state.viewport.fitting?.scaleFitted == true)
    // With a scale on the same line it is kept: only the centre moves.
    let fitted = try FramePlan.make(s, overrides: ViewOverrides(scale: 1000, fit: ("boroughs", FloorValue("Manhattan"))))
    #expect(fitted.state.viewport.scale == 1000 && fitted.state.viewport.fitting?.keptBecause == .sameLineGivesScale)
    #expect(abs(fitted.state.viewport.center.lon - -73.97) < 0.05 && abs(fitted.state.viewport.center.lat - 40.78) < 0.05)
    var noScale = s
    noScale.map.scale = nil
    let whole = try FramePlan.make(noScale, overrides: ViewOverrides(padding: Padding(10), fit: ("boroughs", FloorValue("Manhattan"))))
    #expect(whole.layers[0].drawnFeatures >= 1)
    #expect(whole.state.viewport.scale > 50_000 && whole.state.viewport.scale < 500_000)
    let line = try ViewOverrides(fit: ("route", FloorValue("g1"))).viewport(for: noScale)
    #expect(abs(line.center.lon - 24.94) < 1e-9)
    #expect(throws: SceneError.self) { try FramePlan.make(s, overrides: ViewOverrides(fit: ("boroughz", FloorValue("Manhattan")))) }
    #expect(throws: SceneError.self) { try FramePlan.make(s, overrides: ViewOverrides(fit: ("boroughs", FloorValue("Atlantis")))) }
  }

  @Test func badBoxesAreInputErrors() throws {
    #expect(throws: SceneError.self) { try scene(#""bounds": [25, 60, 24, 61], "scale": 1, "size": [10, 10]"#) }
    #expect(throws: SceneError.self) { try scene(#""bounds": [24, 60, 25], "size": [10, 10]"#) }
    #expect(throws: SceneError.self) { try scene(#""bounds": [24, 60, 25, 61], "padding": -1, "size": [10, 10]"#) }
    let tooMuch = try scene(#""bounds": [24, 60, 25, 61], "padding": 60, "size": [100, 100]"#)
    #expect(throws: SceneError.self) { try ViewOverrides().viewport(for: tooMuch) }
  }
}
