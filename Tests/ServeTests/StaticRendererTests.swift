import MapSnap
import Testing
import _MapSnapTestSupport

@testable import _MapSnapServe

/// The renderer behind the server, on the Examples folder: formats, ETags
/// and 304, the cache, and the errors of frames that cannot be drawn.
@Suite struct StaticRendererTests {
  static let renderer: StaticRenderer = {
    let catalog = try! SceneCatalog(root: Repository.root + "/Examples")
    return try! StaticRenderer(catalog: catalog, cacheBytes: 8 << 20)
  }()

  func request(_ url: String) throws -> StaticRequest {
    let parts = url.split(separator: "?", maxSplits: 1)
    return try StaticURLParser().parse(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil)
  }

  @Test func theCatalogServesScenesAndStylesByFileName() throws {
    let names = Self.renderer.catalog.entries.map(\.name)
    #expect(names.contains("helsinki") && names.contains("bright") && names.contains("world"))
    #expect(try Self.renderer.catalog.entry("bright").isStyle)
    #expect(try !Self.renderer.catalog.entry("helsinki").isStyle)
    do {
      _ = try Self.renderer.catalog.entry("helsinky")
      Issue.record("no error")
    } catch {
      #expect(error.status == 404 && error.hint == "did you mean \"helsinki\"?")
    }
  }

  @Test(arguments: [("png", [0x89, 0x50, 0x4E, 0x47]), ("jpg", [0xFF, 0xD8, 0xFF]), ("webp", [0x52, 0x49, 0x46, 0x46])] as [(String, [UInt8])])
  func eachFormatIsItsEncoding(_ suffix: String, _ magic: [UInt8]) throws {
    let r = try Self.renderer.respond(try request("/world/static/pin-s-a(10,50)/10,45,1/160x120.\(suffix)"))
    #expect(r.status == 200)
    #expect(Array(r.body.prefix(magic.count)) == magic)
  }

  @Test func theJPEGDecodesToTheFrameOverWhite() throws {
    let r = try Self.renderer.respond(try request("/world/static/0,0,0/64x48.jpg"))
    let image = try JPEGDecoder.decode(r.body)
    #expect(image.width == 64 && image.height == 48)
  }

  @Test func aSecondRequestIsACacheHitAndIfNoneMatchIs304() throws {
    let req = try request("/world/static/12,41,2/100x80")
    let first = try Self.renderer.respond(req)
    let second = try Self.renderer.respond(req)
    #expect(second.cached && second.body == first.body && second.etag == first.etag)
    let notModified = try Self.renderer.respond(req, ifNoneMatch: "\"other\", W/\(first.etag)")
    #expect(notModified.status == 304 && notModified.body.isEmpty)
    // Another format, another tag.
    let jpeg = try Self.renderer.respond(try request("/world/static/12,41,2/100x80.jpg"))
    #expect(jpeg.etag != first.etag)
  }

  @Test func theURLZoomIsMapLibresForScenesToo() throws {
    // Zoom 1 in the URL is the scene format's zoom 2: the same frame as scale addressing at its scale.
    let z = try Self.renderer.respond(try request("/world/report/0,0,1/200x100"))
    let report = try JSONParser.parse(z.body)
    guard case .object(let o) = report, case .object(let map)? = o["map"], case .number(let scale)? = map["scale"] else {
      Issue.record("no map.scale in the report"); return
    }
    #expect(abs(scale - Viewport.scale(forZoom: 2, projection: .webMercator)!) < 1e-6 * scale)
  }

  @Test func autoFitsTheOverlays() throws {
    let r = try Self.renderer.respond(try request("/world/report/pin-s(-10,40),pin-s(30,60)/auto/300x200"))
    #expect(r.status == 200)
    #expect(throws: ServeError.self) { try Self.renderer.respond(try request("/world/static/auto/300x200")) }
  }

  @Test func framesThatCannotBeDrawnAre422() throws {
    do {
      _ = try Self.renderer.respond(try request("/world/static/0,0,1,90/200x100"))
      Issue.record("no error")
    } catch let e as ServeError {
      #expect(e.status == 422 && e.part == "bearing")
    }
    do {
      _ = try Self.renderer.respond(try request("/world/static/0,0,1/200x100?padding=5"))
      Issue.record("no error")
    } catch let e as ServeError {
      #expect(e.status == 422 && e.part == "padding")
    }
    let style = try Self.renderer.respond(try request("/bright/static/24.94,60.17,12,90/200x100"))
    #expect(style.status == 200)
  }

  @Test func anExplanationIsJSONLines() throws {
    let r = try Self.renderer.respond(try request("/world/explain/scale/0,0,50000000/200x100"))
    guard case .object(let o) = try JSONParser.parse(r.body), case .array(let lines)? = o["explanation"] else {
      Issue.record("no explanation"); return
    }
    #expect(!lines.isEmpty)
  }

  @Test func theCacheDropsTheLeastRecentlyUsed() {
    let c = ImageCache(capacity: 80)
    c.put("a", bytes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], contentType: "x")
    for i in 0..<10 { c.put("k\(i)", bytes: Array(repeating: 0, count: 10), contentType: "x") }
    #expect(c.usage.bytes <= 80)
    #expect(c.get("a") == nil && c.get("k9") != nil)
  }
}
