import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Sources in other spatial references (scene format 1.1, `"crs"`),
/// re-projected through PROJ: the Helsinki POIs in ETRS-TM35FIN (EPSG:3067),
/// made by PROJ's own cs2cs (`scripts/make-helsinki-3067.py`), land on the
/// same pixels as the WGS84 originals, on a Web Mercator and on a geographic
/// map.
@Suite struct CRSTests {
  static let data = Repository.root + "/Examples/data"

  private func scene(_ source: String, map: String = #""center": [24.9414, 60.1696], "scale": 2000, "size": [800, 600]"#) throws -> Scene {
    let json = #"{"version": 1, "map": {\#(map)}, "layers": [{"id": "p", "type": "features", "source": \#(source), "style": {"marker": {}}}]}"#
    return try SceneLoader.decode(Array(json.utf8), file: "crs.json", baseDirectory: Self.data)
  }

  @Test(arguments: [3857, 4326])
  func aNationalGridLandsOnTheSamePixels(_ reference: Int) throws {
    let map = #""center": [24.9414, 60.1696], "scale": 2000, "size": [800, 600], "spatialReference": \#(reference)"#
    let wgsPlan = try FramePlan.make(try scene(#"{"geojson": "helsinki_pois.geojson"}"#, map: map))
    let tm35Plan = try FramePlan.make(try scene(#"{"geojson": "helsinki_pois_3067.geojson", "crs": "EPSG:3067"}"#, map: map))
    let (wgs, tm35) = (wgsPlan.state, tm35Plan.state)
    let (wgsDrawn, tm35Drawn) = (wgsPlan.layers[0].drawnFeatures, tm35Plan.layers[0].drawnFeatures)
    #expect(tm35.layers[0].status == [.active])
    #expect(wgs.layers[0].drawables.count == tm35.layers[0].drawables.count)
    #expect(wgs.layers[0].drawables.count > 50)
    var worst = 0.0
    for (a, b) in zip(wgs.layers[0].drawables, tm35.layers[0].drawables) {
      let p = wgs.viewport.toDevice(a.geometry.points[0])
      let q = tm35.viewport.toDevice(b.geometry.points[0])
      worst = max(worst, abs(p.x - q.x), abs(p.y - q.y))
    }
    #expect(worst < 0.01, "largest difference \(worst) px on EPSG:\(reference)")
    #expect(tm35Drawn == wgsDrawn)
  }

  @Test func anUnknownReferenceIsAnInputError() throws {
    let s = try scene(#"{"geojson": "helsinki_pois_3067.geojson", "crs": "EPSG:999999"}"#)
    do {
      _ = try FramePlan.make(s)
      Issue.record("EPSG:999999 was accepted")
    } catch {
      #expect(error.path == "layers[0].source.crs")
      #expect(error.description.contains("EPSG:999999"), "\(error)")
    }
    #expect(throws: SceneError.self) { try scene(#"{"geojson": "helsinki_pois_3067.geojson", "crs": "3067"}"#) }
  }

  /// A feature PROJ cannot transform is skipped and counted: `warning`.
  @Test func featuresThatCannotBeReprojectedAreSkipped() throws {
    let data = #"{"data": {"type": "FeatureCollection", "features": ["#
      + #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [385785.8054, 6672271.1616]}},"#
      + #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1e30, -1e30]}}]}, "crs": "EPSG:3067"}"#
    // Centred on the first point (the POI "Helsinki" at 24.9414566, 60.1713198).
    let state = try FramePlan.make(try scene(data, map: #""center": [24.9414566, 60.1713198], "scale": 2000, "size": [100, 100]"#))
    #expect(state.layers[0].status == [.active, .warning])
    #expect(state.layers[0].problems == [.unprojectable(count: 1, crs: "EPSG:3067")])
    #expect(state.layers[0].features.total == 2 && state.layers[0].drawnFeatures == 1)
    // The skipped feature keeps its properties for name checks and ids.
    #expect(state.layers[0].problems.count == 1)
  }
}
