import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// What GeoJSONFastReader leaves to the reference way: documents it gives up on.
extension GeoJSONFastReaderTests {
  @Test func repeatedKeysFallBack() {
    expectFallBack(#"{"type": "FeatureCollection", "features": [], "type": "FeatureCollection"}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [], "features": []}"#)
    expectFallBack(#"{"type": "FeatureCollection", "name": "a", "features": [], "name": "b"}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null, "geometry": null}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": 1, "id": 2, "geometry": null}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "type": "Feature", "geometry": null}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "properties": null}]}"#)
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, 2], "coordinates": [1, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "type": "Point", "coordinates": [1, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, 2]}"#, properties: #"{"a": 1, "a": 2}"#))
    // An escaped spelling is the same key.
    expectFallBack(#"{"type": "FeatureCollection", "features": [], "t\u0079pe": "FeatureCollection"}"#)
    // Past the linear search of ignored keys.
    let many = (0..<12).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
    expectRead(#"{"type": "FeatureCollection", \#(many), "features": []}"#)
    expectFallBack(#"{"type": "FeatureCollection", \#(many), "features": [], "k3": 0}"#)
    // JSONObject keeps a repeated key's last value, but the parser rejects it:
    // the fallback reports the syntax error.
    guard case .failure(let error) = reference(Array(#"{"type": "FeatureCollection", "features": [], "features": []}"#.utf8)) else {
      Issue.record("the reference read a repeated key")
      return
    }
    #expect(error.description.contains("duplicate key"))
  }

  @Test func documentsOtherThanACollectionFallBack() {
    expectFallBack(#"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#)
    expectFallBack(#"{"type": "Point", "coordinates": [1, 2]}"#)
    expectFallBack(#"{"type": "FeatureCollection"}"#)
    expectFallBack(#"{"features": []}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": {}}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": null}"#)
    expectFallBack(#"{"features": [], "type": "Feature"}"#)
    expectFallBack(#"{"type": 1, "features": []}"#)
    expectFallBack("[]")
    expectFallBack("{}")
    expectFallBack("null")
    expectFallBack("")
    expectFallBack([0xEF, 0xBB, 0xBF], "a byte-order mark alone")
  }

  @Test func syntaxErrorsFallBack() {
    let good = one(#"{"type": "Point", "coordinates": [1, 2]}"#)
    expectFallBack(good + " x")
    expectFallBack(good + "}")
    expectFallBack(good + " // done")
    expectFallBack(one(#"{"type": "Point", "coordinates": [NaN, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [Infinity, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, -Infinity]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1e400, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [+1, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [01, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1., 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [.5, 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, 2,]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1 2]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, 2], }"#))
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null},]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": nul}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": nullx}]}"#)
    expectFallBack(#"{'type': "FeatureCollection", "features": []}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": []"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [], "x": "\ud800"}"#)
    expectFallBack(Array(#"{"type": "FeatureCollection", "features": [], "x": ""#.utf8) + [0xFF, 0x22, 0x7D], "invalid UTF-8")
    // Nesting past JSONParser.maxDepth inside an ignored member or properties.
    let deep = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
    expectFallBack(#"{"type": "FeatureCollection", "features": [], "x": \#(deep)}"#)
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, 2]}"#, properties: #"{"x": \#(deep)}"#))
    // Just within the limit: the collection (depth 1) holds 511 more.
    let deepest = String(repeating: "[", count: JSONParser.maxDepth - 1) + String(repeating: "]", count: JSONParser.maxDepth - 1)
    expectRead(#"{"type": "FeatureCollection", "features": [], "x": \#(deepest)}"#)
  }

  @Test func invalidFeaturesFallBack() {
    // Each of these the decoder skips and counts: the fast reader gives up.
    for g in [
      #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [1, 2]}]}"#,
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#,
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}"#,
      #"{"type": "Polygon", "coordinates": [[[0, 0, 1], [1, 0], [1, 1], [0, 0, 2]]]}"#,
      #"{"type": "Polygon", "coordinates": [[[0, 0, 1], [1, 0], [1, 1], [0, 0]]]}"#,
      #"{"type": "Polygon", "coordinates": []}"#,
      #"{"type": "MultiPolygon", "coordinates": [[]]}"#,
      #"{"type": "LineString", "coordinates": [[1, 2]]}"#,
      #"{"type": "LineString", "coordinates": []}"#,
      #"{"type": "Point", "coordinates": [1]}"#,
      #"{"type": "Point", "coordinates": []}"#,
      #"{"type": "Point", "coordinates": [[1, 2]]}"#,
      #"{"type": "Point", "coordinates": ["1", 2]}"#,
      #"{"type": "Point", "coordinates": null}"#,
      #"{"type": "Point"}"#,
      #"{"coordinates": [1, 2]}"#,
      #"{"type": "Pointe", "coordinates": [1, 2]}"#,
      #"{"coordinates": [[1, 2]], "type": "Point"}"#,
      #"{"coordinates": [1, 2], "type": "GeometryCollection"}"#,
      #"{"type": "MultiPoint", "coordinates": [[1, 2], [3]]}"#,
      #"[1, 2]"#,
      #"true"#,
    ] {
      expectFallBack(one(g))
    }
    expectFallBack(#"{"type": "FeatureCollection", "features": [null]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"geometry": null}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "feature", "geometry": null}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": [], "geometry": null}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": true, "geometry": null}]}"#)
    expectFallBack(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": {}, "geometry": null}]}"#)
    // The decoder takes a position with a non-number after lon and lat; the
    // fast reader leaves it to it.
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, 2, null]}"#))
    expectFallBack(one(#"{"type": "Point", "coordinates": [1, 2, "m"]}"#))
  }
}
