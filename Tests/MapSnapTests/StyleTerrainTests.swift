import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// raster-dem sources, hillshade, colour-relief and heatmap layers drawn
/// through the style renderer: a frame of 128² pixels at MapLibre zoom 2
/// over (0, 0), whose four DEM tiles (zoom 5, columns and rows 15 and 16,
/// 64 px with `tileSize` 64) each cover a quarter of the frame pixel for
/// pixel.
@Suite struct StyleTerrainTests {
  static let side = 64
  static let tiles = [(15, 15), (16, 15), (15, 16), (16, 16)]

  /// Elevation `e` (metres) as the pixel bytes of `encoding`.
  private static func encode(_ e: Double, _ encoding: String) -> [UInt8] {
    switch encoding {
    case "terrarium":
      let v = e + 32768
      let whole = Int(v.rounded(.down))
      return [UInt8(whole >> 8), UInt8(whole & 255), UInt8(((v - Double(whole)) * 256).rounded()), 255]
    case "custom":  // redFactor 10, the others 0: red is tens of metres.
      return [UInt8((e / 10).rounded()), 0, 0, 255]
    default:
      let v = Int(((e + 10000) * 10).rounded())
      return [UInt8(v >> 16), UInt8((v >> 8) & 255), UInt8(v & 255), 255]
    }
  }

  /// Writes the four tiles under `dem/5/X/Y.png`, elevations by the
  /// frame's pixel (`gx`, `gy` from the frame's north-west corner).
  private func writeTiles(_ folder: TemporaryFolder, encoding: String = "mapbox", _ elevation: (Int, Int) -> Double) throws {
    for (x, y) in Self.tiles {
      var rgba: [UInt8] = []
      for py in 0..<Self.side {
        for px in 0..<Self.side {
          rgba += Self.encode(elevation((x - 15) * Self.side + px, (y - 15) * Self.side + py), encoding)
        }
      }
      try Files.write("", to: folder.path + "/dem/5/\(x)/.keep")
      try writePNG(rgba, width: Self.side, height: Self.side, to: folder.path + "/dem/5/\(x)/\(y).png")
    }
  }

  private func style(source: String = #""encoding": "mapbox""#, layers: String) -> String {
    #"{"version": 8, "center": [0, 0], "zoom": 2, "sources": {"dem": {"type": "raster-dem", "tiles": ["dem/{z}/{x}/{y}.png"], "tileSize": 64, "maxzoom": 5, \#(source)}, "pts": {"type": "geojson", "data": {"type": "Feature", "properties": {"w": 1}, "geometry": {"type": "Point", "coordinates": [0, 0]}}}}, "layers": [\#(layers)]}"#
  }

  private func render(_ json: String, in folder: TemporaryFolder, bearing: Double? = nil) throws -> (Canvas, StyleFrameState) {
    let scene = try SceneLoader.decode(Array(json.utf8), file: "style.json", baseDirectory: folder.path)
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(size: (128, 128), bearing: bearing))
    let state = try #require(plan.state.layers.first?.style)
    return (Snapshot.render(plan).canvas, state)
  }

  @Test func hillshadeBordersComeFromTheNeighbouringTiles() throws {
    let folder = try TemporaryFolder()
    // A slope climbing east across both columns of tiles: every pixel has
    // the same gradient only when the tiles' borders hold their neighbours'.
    try writeTiles(folder) { gx, _ in Double(gx) * 300 }
    let (canvas, state) = try render(style(layers: #"{"id": "h", "type": "hillshade", "source": "dem"}"#), in: folder)
    #expect(state.sources.first?.tilesRead == 4)
    #expect(state.sources.first?.tileZoom == 5)
    #expect(state.layers.first?.featuresRead == 4 && state.layers.first?.featuresDrawn == 4)
    for y in [10, 60, 70, 120] {
      let inside = canvas.rgba(x: 32, y: y)
      #expect(inside.a > 0)
      for x in [63, 64, 96] {
        let p = canvas.rgba(x: x, y: y)
        #expect(abs(Int(p.a) - Int(inside.a)) <= 1 && abs(Int(p.r) - Int(inside.r)) <= 1, "(\(x), \(y)): \(p) against \(inside)")
      }
    }
    // The frame's west edge has no neighbour: its border repeats the edge, halving the slope there.
    #expect(canvas.rgba(x: 0, y: 60) != canvas.rgba(x: 32, y: 60))
  }

  @Test func anOverzoomedTileKeepsItsSlopes() throws {
    let folder = try TemporaryFolder()
    try writeTiles(folder) { gx, _ in Double(gx) * 300 }
    let json = style(layers: #"{"id": "h", "type": "hillshade", "source": "dem"}"#)
    let (native, _) = try render(json, in: folder)
    let scene = try SceneLoader.decode(Array(json.utf8), file: "style.json", baseDirectory: folder.path)
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(zoom: 3, size: (128, 128)))
    let source = try #require(plan.state.layers.first?.style?.sources.first)
    #expect(source.tileZoom == 5 && source.overzoomed)
    let deeper = Snapshot.render(plan).canvas
    let a = native.rgba(x: 32, y: 32), b = deeper.rgba(x: 32, y: 32)
    #expect(abs(Int(a.a) - Int(b.a)) <= 1 && abs(Int(a.r) - Int(b.r)) <= 1, "\(a) against \(b)")
  }

  @Test func theLightFollowsItsDirectionAndAnchor() throws {
    let folder = try TemporaryFolder()
    try writeTiles(folder) { gx, _ in Double(gx) * 300 }  // faces west
    func shade(_ paint: String, bearing: Double? = nil) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
      let layer = #"{"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-method": "basic", \#(paint)}}"#
      return try render(style(layers: layer), in: folder, bearing: bearing).0.rgba(x: 40, y: 40)
    }
    let fromWest = try shade(#""hillshade-illumination-direction": 270, "hillshade-illumination-anchor": "map""#)
    let fromEast = try shade(#""hillshade-illumination-direction": 90, "hillshade-illumination-anchor": "map""#)
    // The basic method lights flat ground at 45° above half, so both are
    // highlights (white); the slope facing the light is the brighter.
    #expect(fromWest.r == fromWest.a && fromEast.r == fromEast.a, "\(fromWest) \(fromEast)")
    #expect(Int(fromWest.a) > Int(fromEast.a) + 20, "\(fromWest) against \(fromEast)")
    // From the east of the screen, with the map turned half round: the light comes from the map's west.
    let viewport = try shade(#""hillshade-illumination-direction": 90"#, bearing: 180)
    let map = try shade(#""hillshade-illumination-direction": 90, "hillshade-illumination-anchor": "map""#, bearing: 180)
    // Within one step: the tile under the pixel is another, at another latitude.
    #expect(abs(Int(viewport.a) - Int(fromWest.a)) <= 1 && viewport.r == viewport.a, "\(viewport) against \(fromWest)")
    #expect(abs(Int(map.a) - Int(fromEast.a)) <= 1 && map.r == map.a, "\(map) against \(fromEast)")
  }

  @Test(arguments: [
    (#""encoding": "mapbox""#, "mapbox"), (#""encoding": "terrarium""#, "terrarium"),
    (#""encoding": "custom", "redFactor": 10, "greenFactor": 0, "blueFactor": 0"#, "custom"),
  ])
  func colourReliefColoursAKnownElevation(source: String, encoding: String) throws {
    let folder = try TemporaryFolder()
    try writeTiles(folder, encoding: encoding) { gx, _ in gx < 64 ? 500 : 1000 }
    let layer = ##"{"id": "r", "type": "color-relief", "source": "dem", "paint": {"color-relief-color": ["interpolate", ["linear"], ["elevation"], 0, "#000000", 1000, "#ff0000", 2000, "#0000ff"]}}"##
    let (canvas, state) = try render(style(source: source, layers: layer), in: folder)
    #expect(state.layers.first?.featuresDrawn == 4)
    let half = canvas.rgba(x: 20, y: 90), full = canvas.rgba(x: 100, y: 30)
    #expect(abs(Int(half.r) - 128) <= 1 && half.g == 0 && half.b == 0 && half.a == 255, "500 m: \(half)")
    #expect(full == (255, 0, 0, 255), "1000 m: \(full)")
  }

  @Test func turnedTilesTurnWithTheMapAndMeetWithoutSeams() throws {
    let folder = try TemporaryFolder()
    try writeTiles(folder) { gx, _ in gx < 64 ? 500 : 1000 }
    let layer = ##"{"id": "r", "type": "color-relief", "source": "dem", "paint": {"color-relief-color": ["interpolate", ["linear"], ["elevation"], 0, "#000000", 1000, "#ff0000"]}}"##
    // Bearing 90: east is up, so the higher eastern half is the top of the frame.
    let (turned, _) = try render(style(layers: layer), in: folder, bearing: 90)
    #expect(turned.rgba(x: 64, y: 20) == (255, 0, 0, 255), "\(turned.rgba(x: 64, y: 20))")
    #expect(abs(Int(turned.rgba(x: 64, y: 108).r) - 128) <= 1, "\(turned.rgba(x: 64, y: 108))")
    // Bearing 45 over one elevation: every pixel of the frame's middle is covered once, none twice.
    try writeTiles(folder) { _, _ in 1000 }
    let (diagonal, _) = try render(style(layers: layer), in: folder, bearing: 45)
    for y in stride(from: 30, to: 98, by: 1) {
      for x in stride(from: 30, to: 98, by: 1) where diagonal.rgba(x: x, y: y) != (255, 0, 0, 255) {
        Issue.record("(\(x), \(y)): \(diagonal.rgba(x: x, y: y))")
        return
      }
    }
  }

  @Test func aGeoJSONHeatmapRepeatsAcrossTheAntimeridian() throws {
    let folder = try TemporaryFolder()
    let json = ##"{"version": 8, "center": [180, 0], "zoom": 2, "sources": {"pts": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [-170, 0]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [170, 0]}}]}}}, "layers": [{"id": "heat", "type": "heatmap", "source": "pts", "paint": {"heatmap-radius": 10, "heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "#000000", 1, "#ffffff"]}}]}"##
    let (canvas, _) = try render(json, in: folder)
    // 10° of longitude is 2048 / 36 ≈ 57 px at zoom 2: the points lie either side of the middle.
    let west = canvas.rgba(x: 64 - 57, y: 64), east = canvas.rgba(x: 64 + 57, y: 64), middle = canvas.rgba(x: 64, y: 64)
    #expect(west.r > 60 && east.r > 60 && middle.r == 0, "\(west) \(east) \(middle)")
  }

  @Test func colourReliefOpacityAndAStepRamp() throws {
    let folder = try TemporaryFolder()
    try writeTiles(folder) { gx, _ in gx < 64 ? 100 : 900 }
    // A step is not an interpolation: the ramp is sampled over the frame's elevations.
    let layer = ##"{"id": "r", "type": "color-relief", "source": "dem", "paint": {"color-relief-opacity": 0.5, "color-relief-color": ["step", ["elevation"], "#00ff00", 500, "#0000ff"]}}"##
    let (canvas, _) = try render(style(layers: layer), in: folder)
    let low = canvas.rgba(x: 10, y: 10), high = canvas.rgba(x: 110, y: 110)
    #expect(low.g >= 126 && low.g <= 129 && low.r == 0 && low.b == 0 && abs(Int(low.a) - 128) <= 1, "\(low)")
    #expect(high.b >= 126 && high.b <= 129 && high.g == 0 && abs(Int(high.a) - 128) <= 1, "\(high)")
  }

  @Test func heatmapDensityIsColouredAtEachPixel() throws {
    let folder = try TemporaryFolder()
    func centre(_ paint: String) throws -> ((r: UInt8, g: UInt8, b: UInt8, a: UInt8), (r: UInt8, g: UInt8, b: UInt8, a: UInt8), StyleFrameState) {
      let layer = ##"{"id": "heat", "type": "heatmap", "source": "pts", "paint": {"heatmap-radius": 20, "heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "#000000", 1, "#ffffff"], \##(paint)}}"##
      let (canvas, state) = try render(style(layers: layer), in: folder)
      return (canvas.rgba(x: 64, y: 64), canvas.rgba(x: 2, y: 2), state)
    }
    // One point of weight 1 at the frame's centre, where four density texels
    // meet half a texel from it (radius 20 px is 5 texels): 1/√(2π)·e^(−4.5·0.5/25) ≈ 0.365,
    // grey 0.365 · 256 − ½ ≈ 93 on a ramp of 256 entries.
    let (peak, corner, state) = try centre(#""heatmap-intensity": 1"#)
    #expect(peak.r >= 91 && peak.r <= 95 && peak.r == peak.g && peak.a == 255, "\(peak)")
    #expect(corner == (0, 0, 0, 255))
    #expect(state.layers.first?.featuresRead == 1 && state.layers.first?.featuresDrawn == 1)
    let (doubled, _, _) = try centre(#""heatmap-intensity": 2"#)
    #expect(abs(Int(doubled.r) - 2 * Int(peak.r)) <= 2, "\(doubled) against \(peak)")
    // The weight reads the feature.
    let (weighted, _, _) = try centre(#""heatmap-weight": ["*", 2, ["get", "w"]]"#)
    #expect(weighted == doubled, "\(weighted) against \(doubled)")
    let (none, _, hidden) = try centre(#""heatmap-opacity": 0"#)
    #expect(none == (0, 0, 0, 0) && hidden.layers.first?.featuresDrawn == 0)
  }

  @Test func undecodableDEMTilesAreCountedWithWhy() throws {
    let folder = try TemporaryFolder()
    try writeTiles(folder) { _, _ in 100 }
    try writePNG([UInt8](repeating: 255, count: 64 * 32 * 4), width: 64, height: 32, to: folder.path + "/dem/5/16/16.png")
    try Files.write("not an image", to: folder.path + "/dem/5/15/16.png")
    let (_, state) = try render(style(layers: #"{"id": "h", "type": "hillshade", "source": "dem"}"#), in: folder)
    let source = try #require(state.sources.first)
    #expect(source.tilesRead == 2 && source.tilesUndecodable == 2)
    #expect(source.firstUndecodable?.contains("not a PNG or JPEG") == true || source.firstUndecodable?.contains("square") == true)
    let bad = try render(style(source: #""encoding": "rgb""#, layers: #"{"id": "h", "type": "hillshade", "source": "dem"}"#), in: folder).1
    #expect(bad.layers.first?.status == .sourceProblem)
    #expect(bad.layers.first?.problem?.contains("encoding") == true)
  }
}
