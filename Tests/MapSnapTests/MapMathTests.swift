import _MapSnapRaster
import MapSnap
import Testing

/// Scale, zoom and pixel mapping exactly as section 1 of the scene format says.
@Suite struct MapMathTests {
  /// The ArcGIS Online / Google / Bing 256-px tiling scheme at 96 DPI.
  @Test(arguments: [
    (0.0, 591_657_527.591555), (1, 295_828_763.795777), (2, 147_914_381.897889), (5, 18_489_297.737236),
    (10, 577_790.554289), (15, 18_055.954822), (17, 4_513.988705), (18, 2_256.994353), (19, 1_128.497176),
    (20, 564.248588),
  ])
  func zoomLevelsMatchTheTilingSchemeTable(zoom: Double, scale: Double) {
    #expect(abs(Viewport.scale(forZoom: zoom)! - scale) < 1e-6 * max(1, scale / 1e6))
    let v = Viewport(center: (0, 0), scale: scale, width: 256, height: 256)
    #expect(abs(v.zoom! - zoom) < 1e-9)
  }

  @Test func resolutionUsesThirtyNineThirtySevenInchesPerMetre() {
    let v = Viewport(center: (24.94, 60.17), scale: 2000, width: 800, height: 600)
    #expect(abs(v.metersPerPixel - 0.529_167_5) < 1e-6)  // 2000 / (96 × 39.37), no latitude correction
    let z0 = Viewport(center: (0, 0), scale: Viewport.zoom0Scale, width: 256, height: 256)
    #expect(abs(z0.metersPerPixel - 156_543.033_928_000_14) < 1e-6)
    #expect(abs(Viewport(center: (0, 0), scale: 2000, width: 1, height: 1).zoom! - 18.174_402_8) < 1e-6)
  }

  @Test func dpiChangesMetresPerPixel() {
    let v = Viewport(center: (0, 0), scale: 2000, width: 10, height: 10, dpi: 192)
    #expect(abs(v.metersPerPixel - 2000 / (192 * 39.37)) < 1e-12)
  }

  @Test func pixelRatioKeepsTheAreaAndRoundsTheImageSize() {
    let one = Viewport(center: (10, 50), scale: 5000, width: 301, height: 201, pixelRatio: 1)
    let two = Viewport(center: (10, 50), scale: 5000, width: 301, height: 201, pixelRatio: 1.5)
    #expect(two.deviceWidth == 452 && two.deviceHeight == 302)  // round(301.5), round(301.5)
    #expect(abs(one.extent.width - 301 * one.metersPerPixel) < 1e-6)
    #expect(abs(two.extent.width - 452 / 1.5 * two.metersPerPixel) < 1e-6)
  }

  @Test func centreMapsToTheMiddleOfTheImageAndYGrowsDown() {
    let v = Viewport(center: (24.9412, 60.1704), scale: 8000, width: 1024, height: 512)
    let c = v.toDevice(v.centerMap)
    #expect(c == Point(512, 256))
    let north = v.toDevice(v.centerMap + Point(0, 100))
    #expect(north.y < 256 && abs(north.y - (256 - 100 / v.metersPerPixel)) < 1e-9)
  }

  @Test func latitudesAreClampedBeforeProjecting() {
    let south = WebMercator.project(lon: 0, lat: -90)
    #expect(abs(south.y + 20_037_508.342_789_244) < 1e-3)
    #expect(abs(WebMercator.project(lon: 180, lat: 0).x - WebMercator.halfWorld) < 1e-6)
    let back = WebMercator.unproject(WebMercator.project(lon: 24.9412, lat: 60.1704))
    #expect(abs(back.lon - 24.9412) < 1e-12 && abs(back.lat - 60.1704) < 1e-12)
  }

  @Test func boundsAndExtentDescribeTheSameFrame() {
    let v = Viewport(center: (24.9412, 60.1704), scale: 2000, width: 1024, height: 1024)
    let e = v.extent
    #expect(abs(e.minX - 2_776_170.75) < 0.01 && abs(e.maxY - 8_438_044.61) < 0.01)  // shared/bench facts
    let b = v.bounds
    #expect(abs(b.west - 24.938766) < 1e-6 && abs(b.north - 60.171611) < 1e-6)
  }

  /// The target: at 1:2000 an edge 50 m east of the centre lands 94.49
  /// px from it (±0.5 px), checked on rendered coverage.
  @Test func anEdgeFiftyMetresFromTheCentreLands94Point49PixelsAway() throws {
    let center = (lon: 24.9412, lat: 60.1704)
    let c = WebMercator.project(lon: center.lon, lat: center.lat)
    func ll(_ dx: Double, _ dy: Double) -> String {
      let p = WebMercator.unproject(c + Point(dx, dy))
      return "[\(p.lon), \(p.lat)]"
    }
    let scene = """
      {"version": 1, "map": {"center": [\(center.lon), \(center.lat)], "scale": 2000, "size": [400, 100], "background": "#00000000"},
       "layers": [{"id": "box", "type": "graphics", "graphics": [{"geometry": {"type": "Polygon", "coordinates":
         [[\(ll(50, -100)), \(ll(500, -100)), \(ll(500, 100)), \(ll(50, 100)), \(ll(50, -100))]]}, "style": {"fill": "#000"}}]}]}
      """
    let s = try SceneLoader.decode(Array(scene.utf8), file: "edge.json", baseDirectory: "")
    let snap = try Snapshot.render(s)
    let edge = 200 + 50 / snap.state.viewport.metersPerPixel
    #expect(abs(edge - 294.49) < 0.005)
    // Coverage of the column holding the edge is the covered fraction.
    let alpha = Double(snap.canvas.rgba(x: 294, y: 50).a) / 255
    #expect(abs(alpha - (295 - edge)) < 0.01)
    #expect(snap.canvas.rgba(x: 293, y: 50).a == 0 && snap.canvas.rgba(x: 295, y: 50).a == 255)
  }
}
