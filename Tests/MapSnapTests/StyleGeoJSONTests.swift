import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// GeoJSON sources of a style drawn through the frame: tiles at the tile
/// zoom, the source filter, clusters, option notes, line-gradient.
@Suite struct StyleGeoJSONTests {
  private func frame(_ sources: String, _ layers: String, zoom: Double = 1, center: String = "[0, 0]") throws -> StyleFrameState {
    let json = #"{"version": 8, "center": \#(center), "zoom": \#(zoom), "sources": \#(sources), "layers": \#(layers)}"#
    let scene = try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: "")
    // 512 pixels: the whole of the points' spread at zoom 1 (a feature outside the frame is not drawn).
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(size: (512, 512)))
    return try #require(plan.state.layers.first?.style)
  }

  private let points = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"k": "a"}, "geometry": {"type": "Point", "coordinates": [1, 1]}}, {"type": "Feature", "properties": {"k": "b"}, "geometry": {"type": "Point", "coordinates": [1.5, 1]}}, {"type": "Feature", "properties": {"k": "a"}, "geometry": {"type": "Point", "coordinates": [-60, -40]}}]}"#

  @Test func theSourceFilterComesFirst() throws {
    let s = try frame(
      #"{"p": {"type": "geojson", "filter": ["==", ["get", "k"], "a"], "data": \#(points)}}"#,
      #"[{"id": "c", "type": "circle", "source": "p"}]"#)
    #expect(s.layers[0].featuresDrawn == 2)
    #expect(s.sources[0].tileZoom == 1)
  }

  @Test func nearPointsClusterAtLowZoom() throws {
    let layers = #"[{"id": "c", "type": "circle", "source": "p", "filter": ["has", "point_count"]}, {"id": "u", "type": "circle", "source": "p", "filter": ["!", ["has", "point_count"]]}]"#
    let low = try frame(#"{"p": {"type": "geojson", "cluster": true, "data": \#(points)}}"#, layers)
    #expect(low.layers.map(\.featuresDrawn) == [1, 1])
    let high = try frame(#"{"p": {"type": "geojson", "cluster": true, "clusterMaxZoom": 5, "data": \#(points)}}"#, layers, zoom: 8, center: "[1.25, 1]")
    #expect(high.layers.map(\.featuresDrawn) == [0, 2], "past clusterMaxZoom the points are drawn as they are")
  }

  @Test func wrongOptionsAreNotesWithTheirPaths() throws {
    let s = try frame(#"{"p": {"type": "geojson", "tolerance": "x", "data": \#(points)}}"#, #"[{"id": "c", "type": "circle", "source": "p"}]"#)
    #expect(s.notes.contains { $0.hasPrefix("sources.p.tolerance: expected a number") })
    #expect(s.layers[0].featuresDrawn == 3)
  }

  @Test func aGradientLineIsDrawnInRunsOfItsRamp() throws {
    let line = #"{"type": "LineString", "coordinates": [[-80, 0], [80, 0]]}"#
    let layer = #"[{"id": "l", "type": "line", "source": "l", "paint": {"line-width": 8, "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]}}]"#
    let s = try frame(#"{"l": {"type": "geojson", "lineMetrics": true, "data": \#(line)}}"#, layer)
    let colors = s.commands.map(\.color)
    #expect(s.layers[0].featuresDrawn > 0)
    #expect(colors.count > 100, "one run per sample the line crosses")
    #expect(colors.first?.b ?? 0 > 200 && colors.last?.r ?? 0 > 200)
    let plain = try frame(#"{"l": {"type": "geojson", "data": \#(line)}}"#, layer)
    #expect(plain.commands.count <= 4, "without lineMetrics the gradient is ignored, as MapLibre ignores it")
  }
}
