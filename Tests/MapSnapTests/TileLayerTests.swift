import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// `tiles` layers (scene format 3.4) over the real Mapnik-rendered tile sets
/// in `Examples/data/tiles/`: level choice, exact copies, parent fallback,
/// missing and undecodable tiles, JPEG, the spatial reference check, bad
/// sources, and the per-process cache.
@Suite struct TileLayerTests {
  static let tiles = Repository.root + "/Examples/data/tiles"
  /// The corner of tiles (37308…37309, 18968…18969) at zoom 16.
  static let corner = (lon: 24.9444580078125, lat: 60.17157405145976)

  private func scene(_ layers: [String], map: String? = nil, base: String = TileLayerTests.tiles) throws -> Scene {
    let m = map ?? #""center": [\#(Self.corner.lon), \#(Self.corner.lat)], "zoom": 16, "size": [512, 512]"#
    let json = #"{"version": 1, "map": {\#(m)}, "layers": [\#(layers.joined(separator: ","))]}"#
    return try SceneLoader.decode(Array(json.utf8), file: "tiles.json", baseDirectory: base)
  }

  private func layer(_ source: String, _ rest: String = "") -> String {
    #"{"id": "base", "type": "tiles", "source": \#(source)\#(rest)}"#
  }

  private func decodeTile(_ path: String) throws -> DecodedImage {
    try PNGDecoder.decode(contentsOf: path)
  }

  /// Pixels of the rendered frame that differ from the tiles they show.
  private func differences(_ s: Snapshot, zoom: Int, x0: Int, y0: Int, folder: String) throws -> Int {
    let png = try PNGDecoder.decode(try s.pngData())
    var differing = 0
    let across = png.width / 256
    for ty in 0..<(png.height / 256) {
      for tx in 0..<across {
        let tile = try decodeTile("\(folder)/\(zoom)/\(x0 + tx)/\(y0 + ty).png")
        for y in 0..<256 {
          for x in 0..<256 {
            let o = ((ty * 256 + y) * png.width + tx * 256 + x) * 4
            let t = (y * 256 + x) * 4
            if png.pixels[o..<(o + 3)] != tile.pixels[t..<(t + 3)] { differing += 1 }
          }
        }
      }
    }
    return differing
  }

  @Test(arguments: [#"{"mbtiles": "helsinki-3857.mbtiles"}"#, #"{"xyz": "helsinki-3857/{z}/{x}/{y}.png"}"#])
  func atALevelsOwnScaleTilePixelsAreCopiedExactly(_ source: String) throws {
    let s = try Snapshot.render(try scene([layer(source)]))
    let t = try #require(s.layers[0].tiles)
    #expect(s.layers[0].status == [.active])
    #expect(t.zoom == 16 && t.tileMatrixSet == .webMercatorQuad)
    #expect(t.drawn == 4 && t.fromParent == 0 && t.missing == 0 && t.undecodable == 0)
    #expect(t.attribution == "© OpenStreetMap contributors")
    #expect(try differences(s, zoom: 16, x0: 37308, y0: 18968, folder: Self.tiles + "/helsinki-3857") == 0)
  }

  /// @2x at the same scale: the next level, copied exactly too.
  @Test func pixelRatioTwoTakesTheNextLevel() throws {
    let s = try Snapshot.render(try scene([layer(#"{"mbtiles": "helsinki-3857.mbtiles"}"#)]), overrides: ViewOverrides(pixelRatio: 2))
    let t = try #require(s.layers[0].tiles)
    #expect(t.zoom == 17 && t.drawn == 16)
    #expect(try differences(s, zoom: 17, x0: 37308 * 2, y0: 18968 * 2, folder: Self.tiles + "/helsinki-3857") == 0)
  }

  /// Past maxZoom the last level is enlarged; a fractional scale resamples.
  @Test(arguments: [(2000.0, 17), (12000.0, 16), (30000.0, 14)])
  func theLevelIsTheNearestInLog2(_ scale: Double, _ zoom: Int) throws {
    let map = ##""center": [\##(Self.corner.lon), \##(Self.corner.lat)], "size": [512, 512], "background": "#ff00ff""##
    let s = try Snapshot.render(try scene([layer(#"{"mbtiles": "helsinki-3857.mbtiles"}"#)], map: map), overrides: ViewOverrides(scale: scale))
    let t = try #require(s.layers[0].tiles)
    #expect(t.zoom == zoom, "1:\(scale)")
    #expect(t.drawn > 0)
    guard scale < 30000 else { return }  // wider than the tile set
    // Inside the tile set, resampled tiles cover the whole frame: not one
    // pixel of the magenta background shows (no seam, no gap).
    let png = try PNGDecoder.decode(try s.pngData())
    var magenta = 0
    for i in stride(from: 0, to: png.pixels.count, by: 4) where png.pixels[i] > 200 && png.pixels[i + 1] < 60 && png.pixels[i + 2] > 200 {
      magenta += 1
    }
    #expect(magenta == 0, "1:\(scale): \(magenta) background pixels")
    #expect(t.fromParent == 0 && t.missing == 0)
  }

  /// An absent tile is filled from its parent; one with no ancestor is missing.
  @Test func absentTilesComeFromTheParentLevelOrAreMissing() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let copy = folder.path + "/h"
    try FileManager.default.copyItem(atPath: Self.tiles + "/helsinki-3857", toPath: copy)
    try FileManager.default.removeItem(atPath: copy + "/16/37308/18968.png")
    let s = try Snapshot.render(try scene([layer(#"{"xyz": "h/{z}/{x}/{y}.png"}"#)], base: folder.path))
    let t = try #require(s.layers[0].tiles)
    #expect(t.drawn == 3 && t.fromParent == 1 && t.missing == 0)
    #expect(s.layers[0].status == [.active, .warning])
    #expect(s.layers[0].message == "1 absent tile filled from a parent level")
    // The filled quarter shows the parent's pixels, not the background.
    let png = try PNGDecoder.decode(try s.pngData())
    let parent = try decodeTile(copy + "/15/18654/9484.png")
    let o = (128 * png.width + 128) * 4
    let p = (64 * 256 + 64) * 4
    for c in 0..<3 { #expect(abs(Int(png.pixels[o + c]) - Int(parent.pixels[p + c])) <= 48) }
    // Far west of the tile set: every tile is missing.
    let far = try Snapshot.render(
      try scene([layer(#"{"xyz": "h/{z}/{x}/{y}.png"}"#)], map: #""center": [24.8, 60.17], "zoom": 16, "size": [512, 512]"#, base: folder.path))
    let f = try #require(far.layers[0].tiles)
    #expect(f.drawn == 0 && f.fromParent == 0 && f.missing > 0)
  }

  /// A tile that is not a PNG or JPEG of the tile size is skipped.
  @Test func undecodableTilesAreSkipped() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let copy = folder.path + "/h"
    try FileManager.default.copyItem(atPath: Self.tiles + "/helsinki-3857", toPath: copy)
    try Data("not a tile".utf8).write(to: URL(fileURLWithPath: copy + "/16/37309/18969.png"))
    let truncated = try Data(contentsOf: URL(fileURLWithPath: copy + "/16/37308/18969.png")).prefix(300)
    try truncated.write(to: URL(fileURLWithPath: copy + "/16/37308/18969.png"))
    let s = try Snapshot.render(try scene([layer(#"{"xyz": "h/{z}/{x}/{y}.png"}"#)], base: folder.path))
    let t = try #require(s.layers[0].tiles)
    #expect(t.drawn == 2 && t.undecodable == 2)
    #expect(s.layers[0].status == [.active, .warning])
  }

  @Test func jpegTilesAreDecoded() throws {
    let s = try Snapshot.render(
      try scene([layer(#"{"mbtiles": "world-3857-jpeg.mbtiles"}"#)], map: #""center": [10, 45], "zoom": 2, "size": [512, 512]"#))
    let t = try #require(s.layers[0].tiles)
    #expect(t.zoom == 2 && t.drawn == 9 && t.missing == 0 && t.undecodable == 0)
    #expect(t.attribution == "Made with Natural Earth")
  }

  /// Tiles in another spatial reference than the map's are not drawn:
  /// `error`, naming both. The first layer decides the map's reference
  /// unless `map.spatialReference` says otherwise.
  @Test func tilesInAnotherSpatialReferenceAreAnError() throws {
    let s = try Snapshot.render(
      try scene(
        [layer(#"{"xyz": "world-4326/{z}/{x}/{y}.png"}"#)],
        map: #""center": [10, 45], "zoom": 2, "size": [256, 256], "spatialReference": 3857"#))
    #expect(s.state.viewport.projection == .webMercator)
    #expect(s.layers[0].status == [.error])
    #expect(s.layers[0].problems == [.spatialReference(tiles: "EPSG:4326", map: "EPSG:3857")])
    #expect(s.layers[0].message?.contains("EPSG:4326 but the map is in EPSG:3857") == true)
    // Second to a Web Mercator basemap: the same error.
    let second = try Snapshot.render(
      try scene(
        [layer(#"{"mbtiles": "world-3857-jpeg.mbtiles"}"#), #"{"id": "geo", "type": "tiles", "source": {"xyz": "world-4326/{z}/{x}/{y}.png"}}"#],
        map: #""center": [10, 45], "zoom": 2, "size": [256, 256]"#))
    #expect(second.layers.map(\.status) == [[.active], [.error]])
    // First: the map is in EPSG:4326 and the tiles are drawn.
    let first = try Snapshot.render(
      try scene([layer(#"{"xyz": "world-4326/{z}/{x}/{y}.png"}"#)], map: #""center": [10, 45], "zoom": 2, "size": [256, 256]"#))
    #expect(first.state.viewport.projection == .geographic)
    #expect(first.layers[0].status == [.active])
    #expect((first.layers[0].tiles?.drawn ?? 0) > 0)
  }

  /// Sources that cannot be opened, or are not tile sets, are `error`.
  @Test func badSourcesAreErrors() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    try Data("just text\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/text.mbtiles"))
    // An SQLite file without the MBTiles tables (Tests/Fixtures/not-mbtiles.sqlite).
    let sqlite = Repository.root + "/Tests/Fixtures/not-mbtiles.sqlite"
    let before = try Data(contentsOf: URL(fileURLWithPath: sqlite))
    let cases: [(String, String)] = [
      (#"{"mbtiles": "nothing.mbtiles"}"#, "nothing.mbtiles: no such file"),
      (#"{"mbtiles": "text.mbtiles"}"#, "text.mbtiles: not a tile set"),
      (#"{"mbtiles": "\#(sqlite)"}"#, "\(sqlite): not a tile set: no MBTiles metadata table"),
      (#"{"xyz": "nowhere/{z}/{x}/{y}.png"}"#, "nowhere: no such file"),
    ]
    for (source, message) in cases {
      let s = try Snapshot.render(try scene([layer(source)], base: folder.path))
      #expect(s.layers[0].status == [.error], "\(source)")
      #expect(s.layers[0].message?.hasPrefix(message) == true, "\(source): \(s.layers[0].message ?? "nil")")
    }
    // Opened read-only: the file is untouched.
    #expect(try Data(contentsOf: URL(fileURLWithPath: sqlite)) == before)
  }

  /// Far below the tile set's coarsest level the layer gives up (warning).
  @Test func farBelowTheCoarsestLevelTheLayerIsNotDrawn() throws {
    let s = try Snapshot.render(try scene([layer(#"{"mbtiles": "helsinki-3857.mbtiles"}"#)]), overrides: ViewOverrides(zoom: 10))
    #expect(s.layers[0].status == [.active, .warning])
    #expect(s.layers[0].tiles?.drawn == 0)
    // Two levels below still draws (reduced 4×).
    let near = try Snapshot.render(try scene([layer(#"{"mbtiles": "helsinki-3857.mbtiles"}"#)]), overrides: ViewOverrides(zoom: 11))
    #expect(near.layers[0].tiles?.zoom == 13)
    #expect((near.layers[0].tiles?.drawn ?? 0) > 0)
  }

  /// The cache keeps at most its byte limit of decoded tiles: with room for
  /// two 256-px tiles, two of the first frame's four are dropped, so a
  /// larger frame around it decodes two more than with an ample cache.
  @Test func theCacheKeepsAtMostItsLimit() throws {
    let sc = try scene([layer(#"{"mbtiles": "helsinki-3857.mbtiles"}"#)])
    func decodes(limit: Int) throws -> Int {
      let cache = TileCache(limitBytes: limit)
      _ = try FramePlan.make(sc, tiles: cache)
      let before = cache.decodeCount
      let larger = try FramePlan.make(sc, overrides: ViewOverrides(size: (1024, 1024)), tiles: cache)
      #expect((larger.layers[0].tiles?.drawn ?? 0) > 4)
      return cache.decodeCount - before
    }
    let ample = try decodes(limit: TileCache.defaultLimitBytes)
    let tight = try decodes(limit: 2 * (256 * 256 * 4 + 128))
    #expect(tight == ample + 2, "two of the first frame's tiles were dropped and read again")
  }

  /// One cache for many frames: each tile is decoded once.
  @Test func aSharedCacheDecodesEachTileOnce() throws {
    let cache = TileCache()
    let sc = try scene([layer(#"{"mbtiles": "helsinki-3857.mbtiles"}"#)])
    let a = try FramePlan.make(sc, tiles: cache)
    let first = cache.decodeCount
    let b = try FramePlan.make(sc, tiles: cache)
    #expect(first == 4)
    #expect(cache.decodeCount == first)
    // The same tile range: the stitched mosaic is reused, with its counts.
    #expect(a.inputs.layers[0].tiles?.mosaic != nil && a.inputs.layers[0].tiles?.mosaic === b.inputs.layers[0].tiles?.mosaic)
    #expect(b.state.layers[0].tiles?.drawn == 4)
    // Another range (a different pixel ratio: the next level) stitches its own.
    let c = try FramePlan.make(sc, overrides: ViewOverrides(pixelRatio: 2), tiles: cache)
    #expect(c.inputs.layers[0].tiles?.mosaic !== a.inputs.layers[0].tiles?.mosaic)
  }

  @Test func tileLayerScenesAreChecked() throws {
    let bad = [
      (#"{"mbtiles": "a.mbtiles", "xyz": "t/{z}/{x}/{y}.png"}"#, "layers[0].source"),
      (#"{"xyz": "t/{z}/{x}.png"}"#, "layers[0].source.xyz"),
      (#"{"mbtiles": "a.mbtiles", "scheme": "tms"}"#, "layers[0].source.scheme"),
    ]
    for (source, path) in bad {
      #expect(throws: SceneError.self, "\(source)") { try scene([layer(source)]) }
      do {
        _ = try scene([layer(source)])
      } catch let error as SceneError {
        #expect(error.path.hasPrefix(path), "\(source): \(error)")
      }
    }
    #expect(throws: SceneError.self) { try scene([layer(#"{"mbtiles": "a.mbtiles"}"#, #", "minZoom": 5, "maxZoom": 3"#)]) }
    #expect(throws: SceneError.self) { try scene([layer(#"{"mbtiles": "a.mbtiles"}"#, #", "tileMatrixSet": "GoogleMapsCompatible""#)]) }
  }

  // MARK: - Maps in EPSG:4326

  /// A WorldCRS84Quad basemap first: the map is plate carrée, zoom follows
  /// WorldCRS84Quad (0.17578° per pixel at zoom 2), and at a level's own
  /// scale the tiles are copied exactly.
  @Test func aGeographicBasemapCopiesExactlyAtItsLevel() throws {
    let s = try Snapshot.render(
      try scene([layer(#"{"xyz": "world-4326/{z}/{x}/{y}.png"}"#)], map: #""center": [0, 0], "zoom": 2, "size": [512, 512]"#))
    let v = s.state.viewport
    #expect(v.projection == .geographic)
    #expect(abs(v.unitsPerPixel - 180.0 / 1024) < 1e-12)
    #expect(abs(v.extent.minX - -45) < 1e-9 && abs(v.extent.maxY - 45) < 1e-9)
    let t = try #require(s.layers[0].tiles)
    #expect(t.tileMatrixSet == .worldCRS84Quad && t.zoom == 2 && t.drawn == 4)
    #expect(try differences(s, zoom: 2, x0: 3, y0: 1, folder: Self.tiles + "/world-4326") == 0)
    let report = s.report
    #expect(report["map"]?["spatialReference"] == .number(4326))
    #expect(report["map"]?["zoom"] == .number(2))
  }

  /// Vector data, labels and view annotations on a 4326 map land where
  /// longitude and latitude say: x = (lon − centre lon) / degrees per pixel.
  @Test func vectorDataOnAGeographicMapLandsWhereLongitudeAndLatitudeSay() throws {
    let points = #"{"id": "p", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": ["#
      + #"{"type": "Feature", "id": "a", "properties": {}, "geometry": {"type": "Point", "coordinates": [10, 20]}},"#
      + #"{"type": "Feature", "id": "b", "properties": {}, "geometry": {"type": "Point", "coordinates": [-30, -40]}}]}},"#
      + ##""style": {"marker": {"size": 6, "fill": "#ff0000"}}}"##
    let s = try Snapshot.render(
      try scene(
        [layer(#"{"xyz": "world-4326/{z}/{x}/{y}.png"}"#), points],
        map: ##""center": [0, 0], "zoom": 2, "size": [512, 512], "background": "#ffffff""##))
    let v = s.state.viewport
    let perPixel = 180.0 / 1024
    for (lon, lat) in [(10.0, 20.0), (-30.0, -40.0)] {
      let d = v.toDevice(s.layers[1].drawables.first { $0.geometry.points[0] == Point(lon, lat) }!.geometry.points[0])
      #expect(abs(d.x - (256 + lon / perPixel)) < 1e-9 && abs(d.y - (256 - lat / perPixel)) < 1e-9)
      // The marker's centre pixel is red.
      let px = s.canvas.buffer[Int(d.y) * 512 + Int(d.x)]
      #expect(px & 0xFF == 255 && (px >> 8) & 0xFF == 0, "marker at \(lon), \(lat)")
    }
    #expect(s.layers[1].drawnFeatures == 2)
  }

  /// `map.spatialReference` overrides the first layer; without tiles it
  /// sets the map's reference by itself.
  @Test func theMapsSpatialReferenceCanBeGiven() throws {
    let s = try FramePlan.make(try scene([], map: #""center": [24.94, 60.17], "scale": 2000, "size": [100, 100], "spatialReference": 4326"#))
    #expect(s.state.viewport.projection == .geographic)
    #expect(abs(s.state.viewport.extent.width - 100 * 2000 / (96 * 39.37) / 111_319.490_793_273_57) < 1e-12)
    // Not a reference by its form: refused when the scene is read.
    for bad in ["-1", "3.5", "\"\"", "true"] {
      #expect(throws: SceneError.self) { try scene([], map: #""center": [0, 0], "scale": 2000, "size": [10, 10], "spatialReference": \#(bad)"#) }
    }
    // A reference PROJ does not know: refused when the map is resolved, at its key.
    let unknown = try scene([], map: #""center": [0, 0], "scale": 2000, "size": [10, 10], "spatialReference": "EPSG:999999""#)
    let error = #expect(throws: SceneError.self) { try FramePlan.make(unknown) }
    #expect(error?.path == "map.spatialReference")
  }

  // MARK: - Hostile sources (found in review)

  /// A tile whose header claims more pixels than the tile size is refused
  /// from its header, before any pixel memory is allocated.
  @Test func oversizedTilesAreRefusedFromTheirHeader() throws {
    let big = [UInt32](repeating: 0xFF00_00FF, count: 1024 * 1024)
    let png = try big.withUnsafeBufferPointer { try PNGEncoder.encode(premultipliedRGBA: $0, width: 1024, height: 1024, options: .fast) }
    #expect(throws: PNGError.imageTooLarge(width: 1024, height: 1024, limit: 256 * 256)) { try PNGDecoder.decode(png, maximumPixels: 256 * 256) }
    if case .undecodable = TileCache.decode(png, size: 256) {} else { Issue.record("a 1024-px PNG was taken as a 256-px tile") }
    let jpeg = try #require(try? Data(contentsOf: URL(fileURLWithPath: Self.tiles + "/world-3857-jpeg.mbtiles")))
    _ = jpeg  // the JPEG tiles are read through MBTiles below
    let world = try Snapshot.render(
      try scene([layer(#"{"mbtiles": "world-3857-jpeg.mbtiles"}"#, #", "tileSize": 128"#)], map: #""center": [10, 45], "zoom": 2, "size": [256, 256]"#))
    let t = try #require(world.layers[0].tiles)
    #expect(t.drawn == 0 && t.undecodable > 0, "256-px JPEG tiles in a 128-px tile set")
  }

  /// Special files are refused at once, never read (a FIFO would block).
  @Test func specialFilesAreRefused() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    #expect(mkfifo(folder.path + "/fifo.mbtiles", 0o600) == 0)
    try FileManager.default.createDirectory(atPath: folder.path + "/f/16/37308", withIntermediateDirectories: true)
    #expect(mkfifo(folder.path + "/f/tiles.json", 0o600) == 0)
    let a = try Snapshot.render(try scene([layer(#"{"mbtiles": "fifo.mbtiles"}"#)], base: folder.path))
    #expect(a.layers[0].status == [.error])
    #expect(a.layers[0].message?.contains("not a regular file") == true, "\(a.layers[0].message ?? "")")
    let b = try Snapshot.render(try scene([layer(#"{"xyz": "f/{z}/{x}/{y}.png"}"#)], base: folder.path))
    #expect(b.layers[0].status == [.error])
    #expect(throws: FileError.self) { try FileIO.read(folder.path + "/fifo.mbtiles") }
  }

  /// A corrupt MBTiles page makes its tiles undecodable, not absent.
  @Test func corruptMBTilesPagesAreUndecodable() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.tiles + "/helsinki-3857.mbtiles"))
    let half = bytes.count / 2
    bytes.replaceSubrange(half..<bytes.count, with: Data(repeating: 0x5A, count: bytes.count - half))
    try bytes.write(to: URL(fileURLWithPath: folder.path + "/c.mbtiles"))
    let s = try Snapshot.render(try scene([layer(#"{"mbtiles": "c.mbtiles"}"#)], base: folder.path), overrides: ViewOverrides(zoom: 17))
    let t = try #require(s.layers[0].tiles)
    #expect(t.drawn + t.fromParent + t.missing + t.undecodable == 4)
    #expect(t.undecodable > 0, "\(t)")
    #expect(t.fromParent == 0, "read errors are not absent tiles")
  }

  /// tiles.json's `scheme` is the default for an XYZ folder without one.
  @Test func tilesJSONSchemeIsTheDefault() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    for (x, y) in [(37308, 18968), (37309, 18968), (37308, 18969), (37309, 18969)] {
      let dir = folder.path + "/t/16/\(x)"
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: Self.tiles + "/helsinki-3857/16/\(x)/\(y).png", toPath: dir + "/\((1 << 16) - 1 - y).png")
    }
    try Data(#"{"tilejson": "3.0.0", "scheme": "tms", "minzoom": 16, "maxzoom": 16}"#.utf8).write(
      to: URL(fileURLWithPath: folder.path + "/t/tiles.json"))
    let s = try Snapshot.render(try scene([layer(#"{"xyz": "t/{z}/{x}/{y}.png"}"#)], base: folder.path))
    #expect(s.layers[0].tiles?.drawn == 4)
    #expect(try differences(s, zoom: 16, x0: 37308, y0: 18968, folder: Self.tiles + "/helsinki-3857") == 0)
    // A misspelt tile matrix set in tiles.json is an error, not a guess.
    try Data(#"{"tileMatrixSet": "WebMercator"}"#.utf8).write(to: URL(fileURLWithPath: folder.path + "/t/tiles.json"))
    let bad = try Snapshot.render(try scene([layer(#"{"xyz": "t/{z}/{x}/{y}.png"}"#)], base: folder.path))
    #expect(bad.layers[0].status == [.error])
  }
}
