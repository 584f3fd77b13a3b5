import MapSnap
import Testing

@testable import _MapSnapServe

/// Overlays of the URL and the body: pins, encoded polylines, GeoJSON with
/// simplestyle, and the list's splitting.
@Suite struct StaticOverlayTests {
  let parser = StaticOverlayParser()

  @Test func googlesPolylineExample() throws {
    // The example of Google's format documentation.
    let p = try #require(Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@"))
    #expect(p.count == 3)
    #expect(abs(p[0].lat - 38.5) < 1e-9 && abs(p[0].lon + 120.2) < 1e-9)
    #expect(abs(p[1].lat - 40.7) < 1e-9 && abs(p[1].lon + 120.95) < 1e-9)
    #expect(abs(p[2].lat - 43.252) < 1e-9 && abs(p[2].lon + 126.453) < 1e-9)
    #expect(Polyline.encode(p) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    #expect(Polyline.decode("_p~iF~ps|U_") == nil)
    #expect(Polyline.decode("abc ") == nil)
  }

  @Test func pins() throws {
    let s = try parser.parse(list: "pin-s(1,2),pin-l-a+f00(3,4),pin-s-42+00ff00(5,6)")
    #expect(s.count == 3)
    #expect(s[0].json == ["marker": [1, 2], "size": 14])
    #expect(s[1].json == ["marker": [3, 4], "size": 20, "label": "a", "color": "#ff0000"])
    #expect(s[2].json == ["marker": [5, 6], "size": 14, "label": "42", "color": "#00ff00"])
  }

  @Test func pathsAreLinesOrFilledPolygons() throws {
    let line = Polyline.encode([(24.93, 60.165), (24.945, 60.172)])
    let l = try parser.parse("path-3+f00-0.5(\(line))")[0].json
    guard case .object(let o) = l, case .object(let style)? = o["style"] else { Issue.record("not an overlay"); return }
    #expect(style["stroke"] == .string("rgba(255, 0, 0, 0.5)"))
    #expect(style["strokeWidth"] == .number(3))
    #expect(style["fill"] == nil)
    let ring = Polyline.encode([(24.93, 60.165), (24.945, 60.172), (24.95, 60.16)])
    let f = try parser.parse("path+00f+0f0-0.25(\(ring))")[0].json
    guard case .object(let fo) = f, case .object(let g)? = fo["geojson"], case .object(let geometry)? = g["geometry"],
      case .object(let fs)? = fo["style"]
    else { Issue.record("not an overlay"); return }
    #expect(geometry["type"] == .string("Polygon"))
    #expect(fs["fill"] == .string("rgba(0, 255, 0, 0.25)"))
    #expect(fs["strokeWidth"] == .number(5))
  }

  @Test func geojsonWithSimplestyleGivesOneOverlayPerFeature() throws {
    let json = ##"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"marker-color":"#0a0","marker-symbol":"b","marker-size":"large"},"geometry":{"type":"Point","coordinates":[1,2]}},{"type":"Feature","properties":{"stroke":"#00f","stroke-width":4,"fill-opacity":0.2},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}"##
    let s = try parser.parse(list: "geojson(\(json)),pin-s(5,6)")
    #expect(s.count == 3)
    #expect(s[0].json == ["marker": [1, 2], "size": 20, "color": "rgba(0, 170, 0, 1.0)", "label": "b"])
    guard case .object(let o) = s[1].json, case .object(let style)? = o["style"] else { Issue.record("not an overlay"); return }
    #expect(style["stroke"] == .string("rgba(0, 0, 255, 1.0)"))
    #expect(style["fill"] == .string("rgba(85, 85, 85, 0.2)"))
  }

  @Test func commasInsideGeoJSONStringsDoNotSplit() throws {
    let items = try StaticOverlayParser.split(#"geojson({"type":"Point","coordinates":[1,2],"x":"a),b"}),pin-s(1,2)"#)
    #expect(items.count == 2)
    #expect(throws: ServeError.self) { try StaticOverlayParser.split("pin-s(1,2),,pin-s(1,2)") }
    #expect(throws: ServeError.self) { try StaticOverlayParser.split("pin-s(1,2))") }
  }

  @Test func theBodyTakesBothOverlayForms() throws {
    let body = #"{"center": [24.94, 60.17], "zoom": 12, "size": [300, 200], "retina": true, "overlays": ["pin-s(24.94,60.17)", {"marker": [24.95, 60.16], "label": "x"}], "padding": [1, 2], "format": "webp"}"#
    let r = try StaticBodyDecoder().decode(Array(body.utf8), scene: "m", product: .image)
    #expect(r.overlays.count == 2 && r.overlayParts == ["$.overlays[0]", "$.overlays[1]"])
    #expect(r.view == .center(lon: 24.94, lat: 60.17, zoom: 12, bearing: 0))
    #expect(r.width == 300 && r.retina && r.format == .webp)
    #expect(r.padding == Padding(top: 1, right: 2, bottom: 1, left: 2))
  }

  @Test(arguments: [
    (#"{"center": [1, 2], "zoom": 3}"#, "$"),
    (#"{"center": [1, 2], "zoom": 3, "size": [10, 10], "colour": 1}"#, "$.colour"),
    (#"{"center": [1, 2], "bounds": [0, 0, 1, 1], "size": [10, 10]}"#, "$"),
    (#"{"center": [1], "zoom": 3, "size": [10, 10]}"#, "$.center"),
    (#"{"auto": true, "size": [10, 10], "overlays": [7]}"#, "$.overlays[0]"),
    (#"[1]"#, "$"),
    (#"{"#, "body"),
  ])
  func badBodiesNameTheirPath(_ body: String, _ part: String) {
    do {
      _ = try StaticBodyDecoder().decode(Array(body.utf8), scene: "m", product: .image)
      Issue.record("no error for \(body)")
    } catch {
      #expect(error.status == 400)
      #expect(error.part == part, "\(body): \(error)")
    }
  }

  @Test func bodiesOverTheLimitAre413() {
    var d = StaticBodyDecoder()
    d.limits.maxBodyBytes = 10
    #expect(throws: ServeError.self) { try d.decode(Array(repeating: 0x20, count: 11), scene: "m", product: .image) }
  }
}
