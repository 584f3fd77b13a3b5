import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// The style's sprite (`StyleSprite`): index and sheet, @2x by pixel ratio
/// with the 1x fallback, arrays of sprites (`id:name`), every problem a
/// finding; and pattern names resolved per feature, a missing image a
/// warning that names it.
@Suite struct StyleSpriteTests {
  /// Writes `name.png` (a `width` × `height` sheet, pixel (x, y) opaque
  /// (x·40, y·40, tag)) and `name.json` (`index`) into `dir`.
  private func writeSprite(_ dir: String, _ name: String, width: Int, height: Int, tag: UInt8, index: String) throws {
    var pixels: [UInt32] = []
    for y in 0..<height {
      for x in 0..<width { pixels.append(UInt32(x * 40) | UInt32(y * 40) << 8 | UInt32(tag) << 16 | 0xFF00_0000) }
    }
    let png = try pixels.withUnsafeBufferPointer { try PNGEncoder.encode(rgbaAsStored: $0, width: width, height: height) }
    try Files.write(png, to: dir + "/" + name + ".png")
    try Files.write(index, to: dir + "/" + name + ".json")
  }

  private let index = #"{"a": {"x": 0, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}, "b": {"x": 2, "y": 1, "width": 1, "height": 1, "pixelRatio": 2, "sdf": true, "stretchX": [[0, 1]], "content": [0, 0, 1, 1]}}"#

  @Test func entriesAreCutFromTheSheetWithTheirFields() throws {
    try withTemporaryDirectory { dir in
      try writeSprite(dir, "s", width: 4, height: 2, tag: 7, index: index)
      let sprite = StyleSprite([("default", "s")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(sprite.problems.isEmpty)
      #expect(sprite.names == ["a", "b"])
      let a = try #require(sprite.image("a"))
      #expect(a.image.width == 2 && a.image.height == 2 && a.pixelRatio == 1 && !a.sdf)
      #expect(a.image[1, 1] == (40 | 40 << 8 | 7 << 16 | 0xFF00_0000))
      let b = try #require(sprite.image("b"))
      #expect(b.image[0, 0] == (80 | 40 << 8 | 7 << 16 | 0xFF00_0000))
      #expect(b.pixelRatio == 2 && b.sdf && b.stretchX == [[0, 1]] && b.stretchY.isEmpty && b.content == [0, 0, 1, 1])
    }
  }

  @Test func pixelRatioTwoReadsTheAt2xFilesAndFallsBackTo1x() throws {
    try withTemporaryDirectory { dir in
      try writeSprite(dir, "s", width: 4, height: 2, tag: 1, index: index)
      try writeSprite(dir, "s@2x", width: 4, height: 2, tag: 2, index: index)
      let high = StyleSprite([("default", "s")], pixelRatio: 2, styleFolder: dir, localRoot: nil, offline: true)
      #expect(high.problems.isEmpty)
      #expect((try #require(high.image("a"))).image[0, 0] >> 16 & 255 == 2)
      let low = StyleSprite([("default", "s")], pixelRatio: 1.5, styleFolder: dir, localRoot: nil, offline: true)
      #expect((try #require(low.image("a"))).image[0, 0] >> 16 & 255 == 1)
      try writeSprite(dir, "t", width: 4, height: 2, tag: 3, index: index)
      let fallback = StyleSprite([("default", "t")], pixelRatio: 2, styleFolder: dir, localRoot: nil, offline: true)
      #expect((try #require(fallback.image("a"))).image[0, 0] >> 16 & 255 == 3)
      #expect(fallback.problems.count == 1 && fallback.problems[0].contains("t@2x.json: no such file"))
    }
  }

  @Test func spritesOtherThanDefaultPrefixTheirNames() throws {
    try withTemporaryDirectory { dir in
      try writeSprite(dir, "s", width: 4, height: 2, tag: 1, index: index)
      try writeSprite(dir, "u", width: 4, height: 2, tag: 2, index: index)
      let sprite = StyleSprite([("default", "s"), ("roads", "u")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(sprite.names == ["a", "b", "roads:a", "roads:b"])
      #expect((try #require(sprite.image("roads:a"))).image[0, 0] >> 16 & 255 == 2)
    }
  }

  @Test func problemsAreFindingsWithTheirURLAndPath() throws {
    try withTemporaryDirectory { dir in
      let missing = StyleSprite([("default", "nope")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(missing.names.isEmpty)
      #expect(missing.problems == ["sprite: nope.json: no such file; its images are missing"])
      try writeSprite(dir, "bad", width: 4, height: 2, tag: 1, index: #"{"a": {"x": 0,}"#)
      let bad = StyleSprite([("default", "bad")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(bad.problems.count == 1 && bad.problems[0].hasPrefix("sprite: bad.json: not JSON: line 1, column"))
      let entries = #"{"ok": {"x": 0, "y": 0, "width": 1, "height": 1}, "far": {"x": 3, "y": 1, "width": 2, "height": 1}, "two words": {"x": 0, "y": 0, "height": 1}, "neg": {"x": -1, "y": 0, "width": 1, "height": 1}}"#
      try writeSprite(dir, "some", width: 4, height: 2, tag: 1, index: entries)
      let some = StyleSprite([("default", "x"), ("k", "some")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(some.names == ["k:ok"])
      #expect(some.problems.count == 2)
      #expect(some.problems[0] == "sprite[0]: x.json: no such file; its images are missing")
      let p = some.problems[1]
      #expect(p.hasPrefix("sprite[1]: some.json: far: 2×1 at 3, 1 lies outside the 4×2 sheet; "))
      #expect(p.contains(#"["two words"].width: missing"#))
      #expect(p.contains("neg.x: expected a whole number of at least 0, found -1"))
      #expect(p.hasSuffix("those images are missing"))
      let sheetless = StyleSprite([("default", "http://example.invalid/s")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(sheetless.problems.count == 1 && sheetless.problems[0].contains("http://example.invalid/s.json"))
    }
  }

  @Test func stretchZonesAndContentLieWithinTheImageInOrder() throws {
    try withTemporaryDirectory { dir in
      let entries = #"""
        {"ok": {"x": 0, "y": 0, "width": 4, "height": 2, "stretchX": [[0, 1], [2, 4]], "stretchY": [[0, 2]], "content": [1, 0, 3, 2]},
         "past": {"x": 0, "y": 0, "width": 4, "height": 2, "stretchX": [[2, 5]]},
         "overlap": {"x": 0, "y": 0, "width": 4, "height": 2, "stretchX": [[0, 2], [1, 3]]},
         "backwards": {"x": 0, "y": 0, "width": 4, "height": 2, "stretchY": [[2, 1]]},
         "content": {"x": 0, "y": 0, "width": 4, "height": 2, "content": [3, 0, 1, 2]}}
        """#
      try writeSprite(dir, "s", width: 4, height: 2, tag: 1, index: entries)
      let sprite = StyleSprite([("default", "s")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(sprite.names == ["ok"])
      let p = try #require(sprite.problems.first)
      #expect(p.contains("past.stretchX: expected an array of [from, to] pairs, ascending and within 0…4"))
      #expect(p.contains("overlap.stretchX: expected"))
      #expect(p.contains("backwards.stretchY: expected an array of [from, to] pairs, ascending and within 0…2"))
      #expect(p.contains("content.content: expected [left, top, right, bottom] within the 4×2 image"))
      let many = (0..<40).map { "[\($0), \($0)]" }.joined(separator: ", ")
      try writeSprite(dir, "m", width: 4, height: 2, tag: 1, index: #"{"m": {"x": 0, "y": 0, "width": 4, "height": 2, "stretchX": [\#(many)]}}"#)
      let m = StyleSprite([("default", "m")], pixelRatio: 1, styleFolder: dir, localRoot: nil, offline: true)
      #expect(m.names.isEmpty && m.problems.first?.contains("40 zones, more than the 32 an image may have") == true)
    }
  }

  @Test func at2xGoesBeforeTheQuery() {
    #expect(StyleSprite.url("https://h/s?key=1", suffix: "@2x", ext: "json") == "https://h/s@2x.json?key=1")
    #expect(StyleSprite.url("a/b", suffix: "", ext: "png") == "a/b.png")
  }

  /// A style of one patterned fill layer over GeoJSON polygons whose `img` names the image.
  private func patternStyle(_ pattern: String, images: [String]) -> String {
    let features = images.enumerated().map { i, name in
      let x = Double(i) * 2
      return #"{"type": "Feature", "properties": {"img": "\#(name)"}, "geometry": {"type": "Polygon", "coordinates": [[[\#(x), 0], [\#(x + 1), 0], [\#(x + 1), 1], [\#(x), 1], [\#(x), 0]]]}}"#
    }.joined(separator: ", ")
    return #"{"version": 8, "center": [4.5, 0.5], "zoom": 5, "sprite": "s", "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(features)]}}}, "layers": [{"id": "p", "type": "fill", "source": "g", "paint": {"fill-pattern": \#(pattern)}}]}"#
  }

  @Test func dataDrivenPatternsDrawTheImagesTheSpriteHasAndNameTheOthers() throws {
    try withTemporaryDirectory { dir in
      try writeSprite(dir, "s", width: 4, height: 2, tag: 7, index: index)
      let json = patternStyle(#"["get", "img"]"#, images: ["a", "nope", "b", "nope", "gone"])
      let plan = try FramePlan.make(try SceneLoader.decode(Array(json.utf8), file: "s.json", baseDirectory: dir))
      let style = try #require(plan.state.layers[0].style)
      let layer = style.layers[0]
      #expect(layer.featuresRead == 5 && layer.featuresDrawn == 2)
      #expect(layer.problem == #"layers[0]: the sprite has no image "nope", "gone"; what names them is not drawn"#)
      #expect(style.commands.allSatisfy { $0.pattern != nil })
    }
  }

  @Test func aConstantMissingPatternDrawsNothing() throws {
    try withTemporaryDirectory { dir in
      try writeSprite(dir, "s", width: 4, height: 2, tag: 7, index: index)
      let plan = try FramePlan.make(try SceneLoader.decode(Array(patternStyle(#""zzz""#, images: ["a"]).utf8), file: "s.json", baseDirectory: dir))
      let layer = try #require(plan.state.layers[0].style).layers[0]
      #expect(layer.featuresDrawn == 0 && layer.status == .filteredOut)
      #expect(layer.problem?.contains(#"no image "zzz""#) == true)
    }
  }

  @Test func aStylesFramesReadItsSpriteOnce() throws {
    try withTemporaryDirectory { dir in
      let scene = try SceneLoader.decode(Array(patternStyle(#"["get", "img"]"#, images: ["a", "b"]).utf8), file: "s.json", baseDirectory: dir)
      guard case .style(let source) = scene.layers.first?.content else {
        Issue.record("a style is a scene of one style layer")
        return
      }
      let missing = try #require(try FramePlan.make(scene).state.layers[0].style)
      #expect(missing.layers[0].featuresDrawn == 0 && source.kept.sprites.count == 0, "a sprite that cannot be read is not kept")
      try writeSprite(dir, "s", width: 4, height: 2, tag: 7, index: index)
      let first = try #require(try FramePlan.make(scene).state.layers[0].style)
      #expect(first.layers[0].featuresDrawn == 2 && source.kept.sprites.count == 1)
      // The files gone, the kept sprite still draws the next frames of the style.
      try FileManager.default.removeItem(atPath: dir + "/s.png")
      let again = try #require(try FramePlan.make(scene).state.layers[0].style)
      #expect(again.layers[0].featuresDrawn == 2 && again.commands.count == first.commands.count)
      let second = try #require(try FramePlan.make(scene, overrides: ViewOverrides(pixelRatio: 2)).state.layers[0].style)
      #expect(second.layers[0].featuresDrawn == 0, "another resolution is read on its own")
    }
  }

  @Test func theGridIsTheWorldsPixelGridAtTheTileZoom() {
    // Zoom 2.5 (MapLibre): tile zoom 2, a CSS pixel of the grid drawn 2^0.5 larger.
    let vp = Viewport(center: (0, 0), scale: Viewport.scale(forZoom: 3.5)!, width: 32, height: 32, pixelRatio: 2)
    let grid = StylePatternGrid(camera: StyleCamera(viewport: vp, bearing: 0))
    #expect(abs(grid.zoomScale - 2.0.squareRoot()) < 1e-12)
    #expect(abs(grid.east.x - 2 * 2.0.squareRoot()) < 1e-9 && abs(grid.east.y) < 1e-9)
    #expect(abs(grid.south.y - 2 * 2.0.squareRoot()) < 1e-9)
    // The world's corner: half the world (512 · 2^2.5 CSS px, 2 device px each) up and left of the centre.
    let half = 512 * 4 * 2.0.squareRoot() * 2 / 2
    #expect(abs(grid.origin.x - (32 - half)) < 1e-6, "\(grid.origin)")
    #expect(abs(grid.origin.y - (32 - half)) < 1e-6, "\(grid.origin)")
  }
}
