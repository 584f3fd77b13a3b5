import Testing

@testable import MapSnap

/// Raster-dem decoding and border backfill, hillshading and colour relief, against values
/// worked out by hand from MapLibre's `dem_data.ts` and its hillshade and colour-relief shaders.
@Suite struct StyleRasterDEMTests {
  /// A `dim × dim` tile of one repeated RGB pixel.
  private func tile(_ dim: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) -> [UInt8] {
    [UInt8]((0..<dim * dim).flatMap { _ in [r, g, b, 255] })
  }

  /// A custom-encoded tile (`R − 1000` metres) from per-pixel values.
  private func dem(_ values: [[Int]], neighbours: [[DEMData?]] = []) throws -> DEMData {
    let dim = values.count
    let rgba: [UInt8] = values.flatMap { row in row.flatMap { v -> [UInt8] in [UInt8(v), 0, 0, 255] } }
    return try DEMData(
      rgba: rgba, width: dim, height: dim, encoding: .custom(red: 1, green: 0, blue: 0, baseShift: 1000),
      neighbours: neighbours)
  }

  @Test func mapboxDecodesSeaLevel() throws {
    #expect(DEMEncoding.mapbox.elevation(r: 1, g: 134, b: 160) == 0)
    let d = try DEMData(rgba: tile(2, 1, 134, 170), width: 2, height: 2, encoding: .mapbox)
    #expect(d.elevation(x: 0, y: 0) == 1)
    #expect(d.minimum == 1 && d.maximum == 1)
  }

  @Test func terrariumDecodes() {
    #expect(DEMEncoding.terrarium.elevation(r: 128, g: 0, b: 0) == 0)
    #expect(DEMEncoding.terrarium.elevation(r: 128, g: 100, b: 128) == 100.5)
    #expect(DEMEncoding.terrarium.elevation(r: 0, g: 0, b: 0) == -32768)
  }

  @Test func customUsesTheSourcesFactors() {
    let e = DEMEncoding.custom(red: 2, green: 0.5, blue: 0.25, baseShift: 100)
    #expect(e.elevation(r: 100, g: 10, b: 4) == 106)
  }

  @Test func borderRepeatsTheTilesOwnEdge() throws {
    let d = try dem([[1, 2], [3, 4]])
    #expect(d.elevation(x: -1, y: -1) == -999)
    #expect(d.elevation(x: 2, y: -1) == -998)
    #expect(d.elevation(x: -1, y: 2) == -997)
    #expect(d.elevation(x: 2, y: 2) == -996)
    #expect(d.elevation(x: -1, y: 1) == -997)
    #expect(d.elevation(x: 1, y: 2) == -996)
    #expect(d.minimum == -999 && d.maximum == -996)
  }

  @Test func neighboursFillTheirSideOrCorner() throws {
    let east = try dem([[10, 11], [12, 13]])
    let southEast = try dem([[20, 21], [22, 23]])
    let north = try dem([[30, 31], [32, 33]])
    let d = try dem([[1, 2], [3, 4]], neighbours: [[nil, north, nil], [nil, nil, east], [nil, nil, southEast]])
    // East: its west column; south-east: its north-west pixel; north: its south row.
    #expect(d.elevation(x: 2, y: 0) == -990 && d.elevation(x: 2, y: 1) == -988)
    #expect(d.elevation(x: 2, y: 2) == -980)
    #expect(d.elevation(x: 0, y: -1) == -968 && d.elevation(x: 1, y: -1) == -967)
    // No north-east neighbour: that corner keeps the tile's own corner pixel.
    #expect(d.elevation(x: 2, y: -1) == -998)
    // No west neighbour: the west side keeps the tile's own edge.
    #expect(d.elevation(x: -1, y: 1) == -997)
  }

  @Test func badTilesAreErrors() throws {
    #expect(throws: DEMDataError.notSquare(width: 2, height: 1)) {
      try DEMData(rgba: [UInt8](repeating: 0, count: 8), width: 2, height: 1, encoding: .mapbox)
    }
    var d = try dem([[1, 2], [3, 4]])
    let big = try dem([[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    #expect(throws: DEMDataError.dimensionMismatch(tile: 2, neighbour: 3)) {
      try d.backfillBorder(from: big, dx: 1, dy: 0)
    }
    #expect(DEMDataError.notSquare(width: 2, height: 1).message.contains("2×1"))
  }

  @Test func flatGroundIsNotShaded() throws {
    let d = try dem([[5, 5, 5], [5, 5, 5], [5, 5, 5]])
    let out = Hillshade().shade(dem: d, zoom: 10, latitudes: (north: 40, south: 39))
    #expect(out == [UInt8](repeating: 0, count: 9 * 4))
  }

  /// A 4 × 4 tile at zoom 15 rising `step` metres a pixel eastward: the kernel sum is
  /// 8·step and the scale 4 / 2^(28.2562 − 15), so a step of 152.874 m is gradient 0.5.
  private func eastRamp(step: Double) throws -> DEMData {
    let rgba = (0..<4).flatMap { _ in (0..<4).flatMap { x -> [UInt8] in [UInt8(x), 0, 0, 255] } }
    return try DEMData(
      rgba: rgba, width: 4, height: 4, encoding: .custom(red: step, green: 0, blue: 0, baseShift: 0))
  }

  @Test func prepareGivesTheGradient() throws {
    let g = Hillshade.gradients(dem: try eastRamp(step: 152.87407932405188), zoom: 15)
    // Interior pixel (1, 1): east 0.5, south 0.
    #expect(abs(g[(1 * 4 + 1) * 2] - 0.5) < 1e-4)
    #expect(abs(g[(1 * 4 + 1) * 2 + 1]) < 1e-6)
    // Steeper than the limit (gradient 16.4) clamps to 4.
    let steep = Hillshade.gradients(dem: try eastRamp(step: 5000), zoom: 15)
    #expect(steep[(1 * 4 + 1) * 2] == 4)
    // Below zoom 15 slopes are steepened: at zoom 14, by 2^0.3 more than the zoom alone gives.
    #expect(abs(Hillshade.zoomExaggeration(zoom: 14) + 0.3) < 1e-12)
    #expect(abs(Hillshade.zoomExaggeration(zoom: 1) + 5.6) < 1e-12)
  }

  @Test func standardShadeOfAKnownSlope() throws {
    // Gradient (0.5, 0) under the default light (335°), black shadow and accent, white
    // highlight, exaggeration 0.5: slope atan(0.625 · 0.5) = 0.30288, aspect π, shade
    // 0.63889; colour 0.63889·sin(slope) = 0.19057 → 48.6, alpha (1 − cos)·(1 − sin) + sin
    // = 0.33022 → 84.2.
    let out = Hillshade().shade(dem: try eastRamp(step: 152.87407932405188), zoom: 15, latitudes: (0, 0))
    let k = (1 * 4 + 1) * 4
    #expect(Array(out[k..<k + 4]) == [49, 49, 49, 84])
  }

  @Test func slopesFacingTheLightTakeTheHighlight() throws {
    // Rising eastward the slope faces west; lit from the west (270°) it is all highlight
    // (white × sin(slope) = 0.29828 → 76), lit from the east all shadow (black); the black
    // accent under either brings alpha to 0.33022 → 84.
    let d = try eastRamp(step: 152.87407932405188)
    let west = Hillshade(lights: [HillshadeLight(azimuth: 270 * .pi / 180)])
    let east = Hillshade(lights: [HillshadeLight(azimuth: 90 * .pi / 180)])
    let k = (1 * 4 + 1) * 4
    let lit = west.shade(dem: d, zoom: 15, latitudes: (0, 0)), dark = east.shade(dem: d, zoom: 15, latitudes: (0, 0))
    #expect(Array(lit[k..<k + 4]) == [76, 76, 76, 84])
    #expect(Array(dark[k..<k + 4]) == [0, 0, 0, 84])
  }

  @Test func latitudeSteepensTheGradient() throws {
    let d = try eastRamp(step: 100)
    let k = (1 * 4 + 1) * 4
    let equator = Hillshade().shade(dem: d, zoom: 15, latitudes: (0, 0))
    let north = Hillshade().shade(dem: d, zoom: 15, latitudes: (60, 60))
    #expect(north[k + 3] > equator[k + 3])
  }

  @Test func basicMethodOnFlatGroundIsTheAltitudesHighlight() throws {
    // cos to a light at 45° altitude is 0.7071: highlight × (2·0.7071 − 1) = 0.41421 → 106.
    let d = try dem([[5, 5, 5], [5, 5, 5], [5, 5, 5]])
    let out = Hillshade(method: .basic).shade(dem: d, zoom: 10, latitudes: (0, 0))
    #expect(Array(out[0..<4]) == [106, 106, 106, 106])
    let multi = Hillshade(
      method: .multidirectional,
      lights: [HillshadeLight(azimuth: 0), HillshadeLight(azimuth: .pi)])
    #expect(Array(multi.shade(dem: d, zoom: 10, latitudes: (0, 0))[0..<4]) == [106, 106, 106, 106])
    // Combined and Igor weight by the slope: nothing on flat ground.
    #expect(Hillshade(method: .combined).shade(dem: d, zoom: 10, latitudes: (0, 0)).allSatisfy { $0 == 0 })
    #expect(Hillshade(method: .igor).shade(dem: d, zoom: 10, latitudes: (0, 0)).allSatisfy { $0 == 0 })
  }

  @Test func colorReliefInterpolatesBetweenStops() throws {
    let ramp = try #require(ColorRelief(elevations: [0, 100], colors: [255, 0, 0, 255, 0, 0, 255, 255]))
    let c = ramp.color(at: 25)
    #expect(c.0 == 191.25 && c.1 == 0 && c.2 == 63.75 && c.3 == 255)
    #expect(ramp.color(at: -50) == (255, 0, 0, 255))
    #expect(ramp.color(at: 1e6) == (0, 0, 255, 255))
  }

  @Test func colorReliefSearchesManyStops() throws {
    let ramp = try #require(
      ColorRelief(elevations: [0, 10, 1000, 2000], colors: [0, 0, 0, 255, 10, 10, 10, 255, 210, 210, 210, 255, 0, 0, 0, 0]))
    #expect(ramp.color(at: 505).0 == 110)
    #expect(ramp.color(at: 5).0 == 5)
    #expect(ColorRelief(elevations: [10, 0], colors: [UInt8](repeating: 0, count: 8)) == nil)
  }

  @Test func colorReliefRendersTheTileWithOpacity() throws {
    let ramp = try #require(ColorRelief(elevations: [0, 100], colors: [255, 0, 0, 255, 0, 0, 255, 255]))
    let d = try DEMData(
      rgba: [25, 0, 0, 255], width: 1, height: 1, encoding: .custom(red: 1, green: 0, blue: 0, baseShift: 0))
    #expect(ramp.render(dem: d, opacity: 1) == [191, 0, 64, 255])
    #expect(ramp.render(dem: d, opacity: 0.5) == [96, 0, 32, 128])
  }

  @Test func sampledRampEvaluatesEvenlySpacedStops() throws {
    let ramp = try #require(ColorRelief.sampled(minimum: 0, maximum: 100, count: 3) { e in (Double(e) / 100, 0, 0, 1) })
    #expect(ramp.elevations == [0, 50, 100])
    #expect(ramp.colors == [0, 0, 0, 255, 127, 0, 0, 255, 255, 0, 0, 255])
  }

  @Test func interpolatingRampFollowsMapLibresFallbacks() throws {
    let none = try #require(ColorRelief.interpolating([]))
    #expect(none.elevations == [0, 1] && none.colors == [UInt8](repeating: 0, count: 8))
    let one = try #require(ColorRelief.interpolating([(elevation: 50, color: (1, 0, 0, 0.5))]))
    #expect(one.elevations == [50, 51])
    #expect(one.colors == [127, 0, 0, 127, 127, 0, 0, 127])
    #expect(ColorRelief.interpolating([(elevation: 10, color: (0, 0, 0, 1)), (elevation: 0, color: (0, 0, 0, 1))]) == nil)
  }
}
