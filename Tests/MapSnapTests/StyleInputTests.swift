import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// A MapLibre style as the input and as a scene layer (scene format
/// section 11): the camera and zoom convention, undrawable styles, the
/// batch line's `style`, `--bearing`, and the Web Mercator rule.
@Suite struct StyleInputTests {
  static let styles = Repository.root + "/Tests/Fixtures/styles"

  private func style(_ extra: String = "") -> String {
    ##"{"version": 8, "center": [24.94, 60.17], "zoom": 14, \##(extra) "sources": {"h": {"type": "vector", "url": "mbtiles://helsinki-z14.mbtiles"}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456"}}, {"id": "w", "type": "fill", "source": "h", "source-layer": "water", "paint": {"fill-color": "#00f"}}]}"##
  }

  @Test func aStyleIsASceneWithTheStylesCameraOneZoomDeeper() throws {
    let scene = try SceneLoader.decode(Array(style().utf8), file: "s.json", baseDirectory: Self.styles)
    #expect(scene.isStyle)
    #expect(scene.map.zoom == 15)
    #expect(scene.map.size == StyleScene.defaultSize)
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(zoom: 14))
    #expect(abs(plan.state.viewport.zoom! - 15) < 1e-9)
    let layer = try #require(plan.state.layers.first?.style)
    #expect(layer.layers.map(\.status) == [.drawn, .drawn])
    #expect(layer.sources.first?.tilesRead ?? 0 > 0)
  }

  @Test func anUndrawableStyleIsAnInputError() {
    let bad = #"{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "fill", "source": "nope"}]}"#
    #expect(throws: SceneError.self) { try SceneLoader.decode(Array(bad.utf8), file: "s.json", baseDirectory: "") }
  }

  @Test func pitchIsDrawnFlatWithAWarning() throws {
    let scene = try SceneLoader.decode(Array(style(#""pitch": 30,"#).utf8), file: "s.json", baseDirectory: Self.styles)
    let plan = try FramePlan.make(scene)
    #expect(plan.state.layers[0].problems.contains { $0.message.contains("pitch") })
  }

  @Test func aPropertyTheValidatorWarnsOfIsWarnedOfOnce() throws {
    let bad = #""paint": {"fill-opacity": ["+", 0.5, ["zoom"]]}"#
    let json = style().replacingOccurrences(of: ##""paint": {"fill-color": "#00f"}"##, with: bad)
    let plan = try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: Self.styles))
    let warnings = plan.state.layers[0].problems.filter { $0.message.contains(#"paint["fill-opacity"]"#) }
    #expect(warnings.count == 1, "\(warnings)")
    let record = try #require(plan.state.layers[0].style?.layers[1])
    #expect(record.problem?.hasSuffix("the default is drawn") == true, "the layer's record still says what it drew")
  }

  @Test func bearingTurnsAStyleAndIsRefusedForAScene() throws {
    let scene = try SceneLoader.decode(Array(style().utf8), file: "s.json", baseDirectory: Self.styles)
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(bearing: 30))
    #expect(plan.state.layers[0].style?.bearing == 30)
    let plain = #"{"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [64, 64]}, "layers": []}"#
    let s2 = try SceneLoader.decode(Array(plain.utf8), file: "p.json", baseDirectory: "")
    #expect(throws: SceneError.self) { try FramePlan.make(s2, overrides: ViewOverrides(bearing: 30)) }
  }

  @Test func aVideoSourceIsRefusedWithAWarning() throws {
    let json = #"{"version": 8, "sources": {"v": {"type": "video", "urls": ["a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}}, "layers": [{"id": "r", "type": "raster", "source": "v"}]}"#
    let plan = try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: ""))
    let record = try #require(plan.state.layers[0].style?.layers.first)
    #expect(record.status == .unsupported && !record.problemIsError)
    #expect(record.problem?.contains("video sources are not drawn") == true)
    #expect(plan.state.layers[0].problems.allSatisfy { !$0.isError })
  }

  @Test func aStyleLayerOfAScene() throws {
    let json = #"{"version": 1, "map": {"center": [24.94, 60.17], "zoom": 15, "size": [128, 128]}, "layers": [{"id": "base", "type": "style", "style": "bright.json", "opacity": 0.5}]}"#
    let scene = try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: Self.styles)
    let plan = try FramePlan.make(scene)
    let st = try #require(plan.state.layers[0].style)
    #expect(abs(st.zoom - 14) < 1e-9)
    #expect(st.layers.contains { $0.status == .drawn })
    #expect(st.layers.contains { $0.type == "symbol" } && !st.layers.contains { $0.status == .unsupported && $0.type == "symbol" })
  }

  @Test func aMissingStyleIsALayerError() throws {
    let json = #"{"version": 1, "map": {"center": [0, 0], "zoom": 3, "size": [64, 64]}, "layers": [{"id": "base", "type": "style", "style": "nope.json"}]}"#
    let plan = try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: Self.styles))
    #expect(plan.state.layers[0].status.contains(.error))
    #expect(plan.state.layers[0].message?.contains("no such file") == true)
  }

  @Test func aBatchLineMayNameAStyle() throws {
    try withTemporaryDirectory { dir in
      try Files.write(#"{"style": "s.json", "output": "o.png", "zoom": 3, "bearing": 10}"#, to: dir + "/jobs.jsonl")
      let reader = ManifestReader(path: dir + "/jobs.jsonl")
      let line = try reader.decode(json: try JSONParser.parse(#"{"style": "s.json", "output": "o.png", "zoom": 3, "bearing": 10}"#), number: 1)
      #expect(line.scene == dir + "/s.json")
      #expect(line.overrides.bearing == 10)
      #expect(throws: SceneError.self) {
        try reader.decode(json: try JSONParser.parse(#"{"style": "s.json", "scene": "t.json", "output": "o.png"}"#), number: 2)
      }
    }
  }
}
