import Testing
import _MapSnapRaster
import _MapSnapStyle

@testable import MapSnap

/// `fill-extrusion` seen from straight above (scene format section 11.5):
/// roofs lit as MapLibre lights an upward face, the taller roof on top,
/// the layer composed as a whole with its opacity.
@Suite struct StyleExtrusionTests {
  /// Two overlapping squares (the first 30 m tall and orange, the second
  /// 10 m and blue) and a flat black one, at zoom 17 over (0, 0).
  private func render(opacity: Double, secondHeight: Int = 10) throws -> Snapshot {
    func square(_ x0: Double, _ y0: Double, _ size: Double, height: Int, color: String) -> String {
      let r = "[[\(x0),\(y0)],[\(x0),\(y0 + size)],[\(x0 + size),\(y0 + size)],[\(x0 + size),\(y0)],[\(x0),\(y0)]]"
      return #"{"type": "Feature", "properties": {"h": \#(height), "c": "\#(color)"}, "geometry": {"type": "Polygon", "coordinates": [\#(r)]}}"#
    }
    let features = [
      square(-0.0004, -0.0004, 0.0006, height: 30, color: "#e0a060"), square(-0.0002, -0.0002, 0.0006, height: secondHeight, color: "#6080e0"),
      square(0.0005, 0.0005, 0.0002, height: 0, color: "#000000"),
    ].joined(separator: ",")
    let style = #"""
      {"version": 8, "center": [0, 0], "zoom": 17, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(features)]}}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                  {"id": "b", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": ["get", "c"], "fill-extrusion-height": ["get", "h"], "fill-extrusion-opacity": \#(opacity)}}]}
      """#
    let scene = try SceneLoader.decode(Array(style.utf8), file: "s.json", baseDirectory: "")
    return Snapshot.render(try FramePlan.make(scene, overrides: ViewOverrides(size: (256, 256))))
  }

  @Test func theTallerRoofHidesTheLowerOne() throws {
    let s = try render(opacity: 1)
    let layer = try #require(s.state.layers.first?.style?.layers.last)
    #expect(layer.status == .drawn && layer.featuresDrawn == 3)
    let orange = ExtrusionLight.standard.roofColor(StyleColor(r: 0xe0 / 255.0, g: 0xa0 / 255.0, b: 0x60 / 255.0))
    let overlap = s.canvas.rgba(x: 128, y: 128)
    #expect(overlap.r == orange.r && overlap.g == orange.g && overlap.b == orange.b)
  }

  @Test func ofEqualHeightsTheLaterFeatureIsOnTop() throws {
    let s = try render(opacity: 1, secondHeight: 30)
    let blue = ExtrusionLight.standard.roofColor(StyleColor(r: 0x60 / 255.0, g: 0x80 / 255.0, b: 0xe0 / 255.0))
    let overlap = s.canvas.rgba(x: 128, y: 128)
    #expect(overlap.r == blue.r && overlap.b == blue.b)
  }

  @Test func theLayerIsComposedAsAWholeWithItsOpacity() throws {
    let s = try render(opacity: 0.5)
    // Where the roofs overlap, only the orange roof shows through, at half opacity over white.
    let orange = ExtrusionLight.standard.roofColor(StyleColor(r: 0xe0 / 255.0, g: 0xa0 / 255.0, b: 0x60 / 255.0))
    let overlap = s.canvas.rgba(x: 128, y: 128), alone = s.canvas.rgba(x: 100, y: 150)
    #expect(overlap == alone)
    #expect(abs(Int(overlap.b) - (Int(orange.b) + 255 + 1) / 2) <= 1)
  }

  @Test func roofsAreLitAsMapLibreLightsAnUpwardFace() throws {
    // Black: only the ambient 0.03, brightened by the dark colour's wider range.
    let black = ExtrusionLight.standard.roofColor(StyleColor(r: 0, g: 0, b: 0))
    #expect(black == Color(r: 11, g: 11, b: 11, a: 255))
    // White stays white; the colour's alpha is not used.
    #expect(ExtrusionLight.standard.roofColor(StyleColor(r: 1, g: 1, b: 1, a: 1)) == Color(r: 255, g: 255, b: 255, a: 255))
    // A red light tints: channels it lacks keep the floor 0.3 · (1 − light).
    let red = ExtrusionLight(try JSONParser.parse(##"{"color": "#ff0000"}"##), zoom: 10)
    #expect(red.roofColor(StyleColor(r: 1, g: 1, b: 1)) == Color(r: 255, g: 77, b: 77, a: 255))
    #expect(red.roofColor(StyleColor(r: 0, g: 0, b: 1)) == Color(r: 11, g: 77, b: 77, a: 255))
    // A light low over the horizon (polar 90°) narrows the range to 1 − intensity.
    let low = ExtrusionLight(try JSONParser.parse(#"{"position": [1, 0, 90], "intensity": 0.4}"#), zoom: 10)
    #expect(low.roofColor(StyleColor(r: 1, g: 1, b: 1)) == Color(r: 158, g: 158, b: 158, a: 255))
  }
}
