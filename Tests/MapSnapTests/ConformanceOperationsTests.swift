import Testing

@testable import MapSnap

/// `StyleOperations`: each run-time edit of the render suite applied to a
/// style's JSON, the camera edits, the errors, and which operations make a
/// case unsupported.
@Suite struct ConformanceOperationsTests {
  static func parse(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

  static let style = parse(
    #"""
    {"version": 8, "center": [1, 2], "zoom": 3,
     "sources": {"geojson": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
     "layers": [
       {"id": "background", "type": "background", "paint": {"background-color": "red"}},
       {"id": "circle", "type": "circle", "source": "geojson", "filter": ["==", "a", 1], "layout": {"visibility": "visible"}}
     ]}
    """#)

  func apply(_ ops: String, to style: JSONValue = style) throws(StyleOperationError) -> JSONValue {
    guard case .array(let a) = Self.parse(ops) else { fatalError("operations are an array") }
    return try StyleOperations.apply(a, to: style)
  }

  func ids(_ style: JSONValue) -> [String] {
    guard case .array(let layers)? = style["layers"] else { return [] }
    return layers.compactMap { if case .string(let s)? = $0["id"] { s } else { nil } }
  }

  @Test func paintAndLayoutProperties() throws {
    let s = try apply(#"[["setPaintProperty", "background", "background-color", "blue"], ["setLayoutProperty", "circle", "circle-sort-key", 2]]"#)
    #expect(s["layers"]?[0]?["paint"]?["background-color"] == .string("blue"))
    #expect(s["layers"]?[1]?["layout"]?["circle-sort-key"] == .number(2))
    #expect(s["layers"]?[1]?["layout"]?["visibility"] == .string("visible"), "other layout properties stay")
    // null removes the property; a layer without paint gains one.
    let removed = try apply(#"[["setPaintProperty", "background", "background-color", null], ["setPaintProperty", "circle", "circle-radius", 4]]"#)
    #expect(removed["layers"]?[0]?["paint"] == .object([:]))
    #expect(removed["layers"]?[1]?["paint"]?["circle-radius"] == .number(4))
    let hidden = try apply(#"[["setLayoutProperty", "circle", "visibility", null]]"#)
    #expect(hidden["layers"]?[1]?["layout"]?["visibility"] == nil)
  }

  @Test func filters() throws {
    let set = try apply(#"[["setFilter", "circle", ["==", "a", 2]]]"#)
    #expect(set["layers"]?[1]?["filter"] == Self.parse(#"["==", "a", 2]"#))
    for ops in [#"[["setFilter", "circle", null]]"#, #"[["setFilter", "circle"]]"#] {
      #expect(try apply(ops)["layers"]?[1]?["filter"] == nil, "\(ops)")
    }
  }

  @Test func addAndRemoveLayers() throws {
    let added = try apply(#"[["addLayer", {"id": "line", "type": "line", "source": "geojson"}]]"#)
    #expect(ids(added) == ["background", "circle", "line"])
    let before = try apply(#"[["addLayer", {"id": "line", "type": "line", "source": "geojson"}, "circle"]]"#)
    #expect(ids(before) == ["background", "line", "circle"])
    let removed = try apply(#"[["removeLayer", "background"]]"#)
    #expect(ids(removed) == ["circle"])
    // A source given inline is added under the layer's id.
    let inline = try apply(#"[["addLayer", {"id": "dots", "type": "circle", "source": {"type": "geojson", "data": {"type": "Point", "coordinates": [1, 1]}}}]]"#)
    #expect(inline["sources"]?["dots"]?["type"] == .string("geojson"))
    #expect(inline["layers"]?[2]?["source"] == .string("dots"))
  }

  @Test func sourcesAndZoomRange() throws {
    let added = try apply(#"[["addSource", "raster", {"type": "raster", "tiles": ["local://tiles/{z}-{x}-{y}.png"]}]]"#)
    #expect(added["sources"]?["raster"]?["type"] == .string("raster"))
    let removed = try apply(#"[["removeLayer", "circle"], ["removeSource", "geojson"]]"#)
    #expect(removed["sources"] == .object([:]))
    let ranged = try apply(#"[["setLayerZoomRange", "circle", 2, 10], ["setLayerZoomRange", "circle", null, 12]]"#)
    #expect(ranged["layers"]?[1]?["minzoom"] == .number(2))
    #expect(ranged["layers"]?[1]?["maxzoom"] == .number(12), "null keeps minzoom, 12 replaces maxzoom")
  }

  @Test func setStyleKeepsTheCameraItDoesNotGive() throws {
    let s = try apply(#"[["setStyle", {"version": 8, "zoom": 5, "sources": {}, "layers": [{"id": "b", "type": "background"}]}], ["wait"], ["wait", 100]]"#)
    #expect(ids(s) == ["b"])
    #expect(s["zoom"] == .number(5))
    #expect(s["center"] == Self.parse("[1, 2]"), "the camera stays where it was")
    #expect(s["sources"] == .object([:]))
  }

  @Test func cameraEdits() throws {
    let s = try apply(#"[["setCenter", [10, 20]], ["setZoom", 4.5], ["setBearing", 90], ["setPitch", 30]]"#)
    #expect(s["center"] == Self.parse("[10, 20]"))
    #expect(s["zoom"] == .number(4.5))
    #expect(s["bearing"] == .number(90))
    #expect(s["pitch"] == .number(30))
    #expect(ids(s) == ["background", "circle"], "layers untouched")
  }

  @Test func errorsNameTheOperation() {
    func failure(_ ops: String) -> StyleOperationError? {
      do throws(StyleOperationError) {
        _ = try apply(ops)
        return nil
      } catch {
        return error
      }
    }
    #expect(failure(#"[["wait"], ["setPaintProperty", "nope", "fill-color", "red"]]"#)?.description == #"metadata.test.operations[1] (setPaintProperty): no layer "nope" in the style"#)
    #expect(failure(#"[["addLayer", {"id": "circle", "type": "circle"}]]"#)?.kind == .duplicateLayer("circle"))
    #expect(failure(#"[["addLayer", {"id": "x", "type": "circle"}, "nope"]]"#)?.kind == .missingLayer("nope"))
    #expect(failure(#"[["addSource", "geojson", {"type": "geojson"}]]"#)?.kind == .duplicateSource("geojson"))
    #expect(failure(#"[["removeSource", "nope"]]"#)?.kind == .missingSource("nope"))
    #expect(failure(#"[["removeSource", "geojson"]]"#)?.kind == .sourceInUse(source: "geojson", layer: "circle"))
    #expect(failure(#"[["setZoom", "far"]]"#)?.kind == .invalidArgument(position: 1, expected: "a number", found: #"string "far""#))
    #expect(failure(#"[42]"#)?.kind == .notAnOperation)
    #expect(failure(#"[["addImage", "x", {}]]"#) != nil, "an operation not applied is refused, never skipped")
  }

  @Test func unsupportedOperations() {
    #expect(StyleOperations.unsupported(Self.parse(#"["setPaintProperty", "a", "b", 1]"#)) == nil)
    #expect(StyleOperations.unsupported(Self.parse(#"["setPitch", 10]"#)) == nil)
    #expect(StyleOperations.unsupported(Self.parse(#"["setStyle", {"version": 8}]"#)) == nil)
    #expect(StyleOperations.unsupported(Self.parse(#"["addClass", "night"]"#)) == "operation addClass (mapsnap applies the style and camera edits only)")
    #expect(StyleOperations.unsupported(Self.parse(#"["setStyle", "local://styles/x.json"]"#)) != nil)
    #expect(StyleOperations.unsupported(Self.parse(#"["addImage", "marker", "local://image/marker.png"]"#)) != nil)
  }
}
