import Testing
import _MapSnapRaster

@testable import MapSnap

/// The style front end's geometry: the camera's tile transform and cover,
/// cutting to a tile's square, line offsets, and URL resolution.
@Suite struct StyleGeometryTests {
  /// A 512² frame at MapLibre zoom `z` over (0, 0).
  private func camera(zoom z: Double, bearing: Double = 0, size: Int = 512, ratio: Double = 1) -> StyleCamera {
    let v = Viewport(center: (0, 0), scale: Viewport.scale(forZoom: z + 1)!, width: size, height: size, pixelRatio: ratio)
    return StyleCamera(viewport: v, bearing: bearing)
  }

  @Test func zoomIsMapLibresOneLessThanTheScenes() {
    let c = camera(zoom: 3)
    #expect(abs(c.zoom - 3) < 1e-9)
  }

  @Test func tileZeroFillsA512FrameAtZoomZero() {
    let t = camera(zoom: 0).transform(StyleTileID(z: 0, x: 0, y: 0), extent: 4096)
    let nw = t.apply(0, 0), se = t.apply(4096, 4096)
    #expect(abs(nw.x) < 1e-6 && abs(nw.y) < 1e-6)
    #expect(abs(se.x - 512) < 1e-6 && abs(se.y - 512) < 1e-6)
  }

  @Test func pixelRatioScalesDevicePixels() {
    let t = camera(zoom: 0, ratio: 2).transform(StyleTileID(z: 0, x: 0, y: 0), extent: 4096)
    let se = t.apply(4096, 4096)
    #expect(abs(se.x - 1024) < 1e-6)
  }

  @Test func bearingTurnsTheMapAboutTheFrameCentre() {
    // Bearing 90: east is up, so a tile east of the centre lands above it.
    let c = camera(zoom: 1, bearing: 90)
    let east = c.device(WebMercator.project(lon: 90, lat: 0))
    #expect(abs(east.x - 256) < 1e-6)
    #expect(east.y < 256)
  }

  @Test func coverAtZoomOneIsTheFourTiles() throws {
    let ids = try #require(camera(zoom: 1).coveringTiles(zoom: 1, bounds: (-180, -85.05, 180, 85.05)))
    #expect(ids == [StyleTileID(z: 1, x: 0, y: 0), StyleTileID(z: 1, x: 1, y: 0), StyleTileID(z: 1, x: 0, y: 1), StyleTileID(z: 1, x: 1, y: 1)])
  }

  @Test func coverLeavesOutTilesOutsideTheSourceBounds() throws {
    let ids = try #require(camera(zoom: 1).coveringTiles(zoom: 1, bounds: (0, 0, 180, 85)))
    #expect(ids == [StyleTileID(z: 1, x: 1, y: 0)])
  }

  @Test func coverRepeatsTheWorldBeyondItsEdges() throws {
    // A 2048-pixel frame at zoom 1 (1024-pixel world) shows it about twice.
    let ids = try #require(camera(zoom: 1, size: 2048).coveringTiles(zoom: 1, bounds: (-180, -85.05, 180, 85.05)))
    #expect(ids.contains(StyleTileID(z: 1, x: -1, y: 0)))
    #expect(ids.contains(StyleTileID(z: 1, x: 2, y: 1)))
    #expect(StyleTileID(z: 1, x: -1, y: 0).wrappedX == 1)
  }

  @Test func tileZoomFollowsTheSourceRange() {
    #expect(StyleSourceData.tileZoom(for: 14.7, minzoom: 0, maxzoom: 14) == 14)
    #expect(StyleSourceData.tileZoom(for: 16.2, minzoom: 0, maxzoom: 14) == 14)
    #expect(StyleSourceData.tileZoom(for: 3.9, minzoom: 4, maxzoom: 14) == nil)
  }

  @Test func clipKeepsWhatIsInsideTheSquare() {
    var p = Path()
    p.addContour([Point(-10, -10), Point(10, -10), Point(10, 10), Point(-10, 10)], closed: true)
    let square = [Point(0, 0), Point(20, 0), Point(20, 20), Point(0, 20)]
    let cut = ConvexClip.clip(p, to: square)
    #expect(cut.contours.count == 1)
    let b = cut.bounds
    #expect(b.minX == 0 && b.minY == 0 && b.maxX == 10 && b.maxY == 10)
  }

  @Test func clipDropsWhatIsOutside() {
    var p = Path()
    p.addContour([Point(30, 30), Point(40, 30), Point(40, 40)], closed: true)
    #expect(ConvexClip.clip(p, to: [Point(0, 0), Point(20, 0), Point(20, 20), Point(0, 20)]).isEmpty)
  }

  @Test func offsetMovesALineToTheRightOfItsDirection() {
    var p = Path()
    p.addContour([Point(0, 0), Point(10, 0)], closed: false)
    let moved = LineOffset.offset(p, by: 2, miterLimit: 2)
    // Heading east with y down: right is +y.
    #expect(moved.points == [Point(0, 2), Point(10, 2)])
  }

  @Test func offsetKeepsSegmentsParallelAtRightAngles() {
    var p = Path()
    p.addContour([Point(0, 0), Point(10, 0), Point(10, 10)], closed: false)
    let moved = LineOffset.offset(p, by: 1, miterLimit: 4)
    // The corner moves inside the turn by the miter: (9, 1).
    #expect(abs(moved.points[1].x - 9) < 1e-9 && abs(moved.points[1].y - 1) < 1e-9)
  }

  @Test func resourcesResolveAgainstTheStyleFolder() throws {
    #expect(try StyleResource.resolve("mbtiles://tiles/a.mbtiles", styleFolder: "/s", localRoot: nil) == .mbtiles("/s/tiles/a.mbtiles"))
    #expect(try StyleResource.resolve("mbtiles:///abs/a.mbtiles", styleFolder: "/s", localRoot: nil) == .mbtiles("/abs/a.mbtiles"))
    #expect(try StyleResource.resolve("pmtiles://https://h/a.pmtiles", styleFolder: "/s", localRoot: nil) == .pmtiles("https://h/a.pmtiles"))
    #expect(try StyleResource.resolve("file:///t/{z}/{x}/{y}.pbf", styleFolder: "/s", localRoot: nil) == .file("/t/{z}/{x}/{y}.pbf"))
    #expect(try StyleResource.resolve("t/{z}.pbf", styleFolder: "/s", localRoot: nil) == .file("/s/t/{z}.pbf"))
    #expect(try StyleResource.resolve("local://tiles/a.mvt", styleFolder: "/s", localRoot: "/suite") == .file("/suite/tiles/a.mvt"))
    #expect(try StyleResource.resolve("https://h/t.json", styleFolder: "/s", localRoot: nil) == .http("https://h/t.json"))
  }

  @Test func mapboxAndUnknownSchemesAreClearErrors() {
    #expect(throws: StyleSourceError.mapboxURL("mapbox://mapbox.streets")) {
      try StyleResource.resolve("mapbox://mapbox.streets", styleFolder: "", localRoot: nil)
    }
    #expect(throws: StyleSourceError.localWithoutRoot("local://a")) { try StyleResource.resolve("local://a", styleFolder: "", localRoot: nil) }
    #expect(throws: StyleSourceError.unsupportedScheme("ftp://h/a")) { try StyleResource.resolve("ftp://h/a", styleFolder: "", localRoot: nil) }
  }
}
