import MapSnap
import Testing

@testable import _MapSnapServe

/// The Mapbox Static Images URL grammar and mapsnap's forms beside it
/// (docs/serve.md): what each URL asks for, and the status and part named
/// for each bad one.
@Suite struct StaticURLParserTests {
  let parser = StaticURLParser()

  func parse(_ url: String) throws(ServeError) -> StaticRequest {
    let parts = url.split(separator: "?", maxSplits: 1)
    return try parser.parse(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil)
  }

  func failure(_ url: String) -> ServeError? {
    do { _ = try parse(url); return nil } catch { return error }
  }

  @Test func theMapboxFormAndTheShortFormAreOneRequest() throws {
    let a = try parse("/styles/v1/someone/bright/static/24.94,60.17,13.5/600x400@2x")
    let b = try parse("/bright/static/24.94,60.17,13.5/600x400@2x")
    for r in [a, b] {
      #expect(r.scene == "bright")
      #expect(r.view == .center(lon: 24.94, lat: 60.17, zoom: 13.5, bearing: 0))
      #expect(r.width == 600 && r.height == 400 && r.retina)
      #expect(r.format == .png && r.product == .image && r.overlays.isEmpty)
    }
  }

  @Test func viewsAndSuffixes() throws {
    #expect(try parse("/m/static/1,2,3,45/10x20.jpg").view == .center(lon: 1, lat: 2, zoom: 3, bearing: 45))
    #expect(try parse("/m/static/1,2,3,45/10x20.jpg").format == .jpeg)
    #expect(try parse("/m/static/1,2,3,0,0/10x20.webp").format == .webp)
    #expect(try parse("/m/static/%5B1,2,3,4%5D/10x20").view == .bounds(MapBounds(west: 1, south: 2, east: 3, north: 4)))
    #expect(try parse("/m/static/pin-s(1,2)/auto/10x20").view == .auto)
    #expect(try parse("/m/scale/24.9,60.1,8000/300x200").view == .scale(lon: 24.9, lat: 60.1, scale: 8000))
    #expect(try parse("/m/static/1,2,3/10x20?format=png8").format == .png8)
  }

  @Test func reportsAndExplanationsTakeTheImageTail() throws {
    #expect(try parse("/m/report/1,2,3/10x20").product == .report)
    #expect(try parse("/m/report/static/1,2,3/10x20").product == .report)
    let e = try parse("/m/explain/scale/1,2,3000/10x20")
    #expect(e.product == .explain && e.view == .scale(lon: 1, lat: 2, scale: 3000))
  }

  @Test func queryParameters() throws {
    let r = try parse("/m/static/%5B1,2,3,4%5D/10x20?padding=1,2,3&access_token=pk.x&attribution=false&logo=false&_cb=7")
    #expect(r.padding == Padding(top: 1, right: 2, bottom: 3, left: 2))
    #expect(failure("/m/static/1,2,3/10x20?paddng=1")?.status == 400)
    #expect(failure("/m/static/1,2,3/10x20?paddng=1")?.hint == "did you mean \"padding\"?")
    #expect(failure("/m/static/1,2,3/10x20?before_layer=x")?.status == 422)
    #expect(failure("/m/static/1,2,3/10x20?padding=-1")?.status == 400)
    #expect(failure("/m/static/1,2,3/10x20?padding=1&padding=2")?.status == 400)
    #expect(failure("/m/static/1,2,3/10x20?logo=maybe")?.status == 400)
  }

  @Test(arguments: [
    ("/m/static/1,2,3/10x20x", 400, "10x20x"),
    ("/m/static/1,2/10x20", 400, "1,2"),
    ("/m/static/200,2,3/10x20", 400, "200,2,3"),
    ("/m/static/1,2,30/10x20", 400, "1,2,30"),
    ("/m/static/1,2,nan/10x20", 400, "1,2,nan"),
    ("/m/static/1,2,3,0,20/10x20", 422, "1,2,3,0,20"),
    ("/m/static/1,2,3/0x20", 400, "0x20"),
    ("/m/static/1,2,3/2000x20", 413, "2000x20"),
    ("/m/static/1,2,3/10x20.gif", 400, "10x20.gif"),
    ("/m/static/%5B3,2,1,4%5D/10x20", 400, "[3,2,1,4]"),
    ("/m/static/pin-s-cafe(1,2)/1,2,3/10x20", 422, "cafe"),
    ("/m/static/url-http%3A%2F%2Fa(1,2)/1,2,3/10x20", 422, "url-http://a(1,2)"),
    ("/m/static/pin-x(1,2)/1,2,3/10x20", 400, "pin-x(1,2)"),
    ("/m/static/pin-s+ggg(1,2)/1,2,3/10x20", 400, "pin-s+ggg(1,2)"),
    ("/m/static/pin-s(1,2/1,2,3/10x20", 400, "pin-s(1,2"),
    ("/m/static/path-5(%24)/1,2,3/10x20", 400, "path-5($)"),
    ("/m/static/geojson(%7B)/1,2,3/10x20", 400, "geojson({)"),
    ("/.hidden/static/1,2,3/10x20", 400, ".hidden"),
    ("/m/static/%ZZ/10x20", 400, "%ZZ"),
    ("/m/tiles/1,2,3/10x20", 404, "/m/tiles/1,2,3/10x20"),
    ("/m", 404, "/m"),
  ])
  func badURLsNameTheirPart(_ url: String, _ status: Int, _ part: String) {
    let e = failure(url)
    #expect(e?.status == status, "\(url): \(String(describing: e))")
    #expect(e?.part == part, "\(url): \(String(describing: e))")
  }

  @Test func longURLsAre414() {
    let url = "/m/static/" + String(repeating: "pin-s(1,2),", count: 1000) + "pin-s(1,2)/1,2,3/10x20"
    #expect(failure(url)?.status == 414)
  }

  @Test func tooManyOverlaysAre413() {
    var p = StaticURLParser()
    p.limits.maxOverlays = 3
    do {
      _ = try p.parse(path: "/m/static/pin-s(1,2),pin-s(1,2),pin-s(1,2),pin-s(1,2)/1,2,3/10x20", query: nil)
      Issue.record("no error")
    } catch { #expect(error.status == 413) }
  }

  @Test func errorsAreJSONWithOneShape() throws {
    let e = try #require(failure("/m/static/1,2,3/10x20x"))
    guard case .object(let o) = e.json, case .object(let inner)? = o["error"] else { Issue.record("not an error object"); return }
    #expect(inner["status"] == .number(400))
    #expect(inner["part"] == .string("10x20x"))
    #expect(inner["reason"] == .string("Bad Request"))
  }
}
