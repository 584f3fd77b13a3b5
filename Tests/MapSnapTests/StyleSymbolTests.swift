import Glibc
import Testing
import _MapSnapJSON
import _MapSnapRaster
import _MapSnapStyle
import _MapSnapTestSupport

@testable import MapSnap

/// A style's symbol layers: glyph ranges read and bounded, text shaped and
/// broken into lines as MapLibre does, symbols placed with collision and
/// reported one by one, view annotations tied to a style's features.
@Suite struct StyleSymbolTests {
  /// A folder of its own under /tmp, removed by `remove`.
  final class Folder {
    let path: String
    init() {
      var template = Array("/tmp/mapsnap-symbols-XXXXXX".utf8CString)
      path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    func write(_ bytes: [UInt8], to name: String) {
      if let slash = name.lastIndex(of: "/") { mkdir(path + "/" + name[..<slash], 0o755) }
      let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      precondition(fd >= 0)
      _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      close(fd)
    }
    func remove() { _ = system("rm -rf '\(path)'") }
  }

  static let validRange = Repository.root + "/Fuzz/corpus/glyphs/valid.pbf"

  /// The frame a style (JSON text) draws, its files in `folder`.
  static func plan(_ style: String, in folder: String, size: Int = 256) throws -> FramePlan {
    let json = try JSONParser.parse(Array(style.utf8))
    let scene = try StyleScene.scene(json, file: folder + "/style.json", baseDirectory: folder)
    return try FramePlan.make(scene, overrides: ViewOverrides(size: (size, size)), threads: 1)
  }

  static func points(_ features: [(String, Double, Double)]) -> String {
    let list = features.enumerated().map { i, f in
      #"{"type": "Feature", "id": \#(i + 1), "properties": {"t": "\#(f.0)"}, "geometry": {"type": "Point", "coordinates": [\#(f.1), \#(f.2)]}}"#
    }
    return #"{"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(list.joined(separator: ","))]}}"#
  }

  @Test func aGlyphRangeIsReadGlyphByGlyph() throws {
    let range = try GlyphRange(FileIO.read(Self.validRange, maximumBytes: 1 << 20))
    #expect(range.name == "F")
    let a = try #require(range.glyphs[65])
    #expect(a.width == 12 && a.height == 16 && a.left == 1 && a.top == -9 && a.advance == 14)
    #expect(a.field.count == (12 + 6) * (16 + 6))
    #expect(range.glyphs[32]?.field.isEmpty == true, "a space has metrics and no field")
    let bad = try GlyphRange(FileIO.read(Repository.root + "/Fuzz/corpus/glyphs/bitmap-wrong-size.pbf", maximumBytes: 1 << 20))
    #expect(bad.glyphs[65] == nil && bad.dropped == 1, "a field of the wrong size is dropped, the rest kept")
    #expect(throws: VectorTileError.self) { try GlyphRange(Array("<html>404</html>".utf8)) }
  }

  @Test func balancedLineBreaksAndAlignment() {
    let glyph = SDFGlyph(id: 0, field: [], width: 0, height: 0, left: 0, top: 0, advance: 10)
    func chars(_ s: String) -> [SymbolShaping.Character] {
      s.unicodeScalars.map { SymbolShaping.Character(code: $0.value, glyph: glyph, scale: 1, color: nil) }
    }
    // 12 letters at 10 px with a 60 px width: two lines of six, not 11 + 1.
    #expect(SymbolShaping.lineBreaks(chars("aaaaa bbbbbb"), spacing: 0, maxWidth: 60) == [6])
    #expect(SymbolShaping.lineBreaks(chars("a\nb"), spacing: 0, maxWidth: 0) == [2], "a newline breaks without a width")
    // CJK breaks between ideographs.
    #expect(!SymbolShaping.lineBreaks(chars("中文中文中文中文"), spacing: 0, maxWidth: 30).isEmpty)
    let s = SymbolShaping.shape(chars("ab"), maxWidth: 0, lineHeight: 24, justify: 0.5, align: SymbolShaping.alignment("top-left"), spacing: 0, translate: Point(0, 0))
    #expect(s.left == 0 && s.right == 20 && s.top == 0 && s.bottom == 24 && s.lineCount == 1)
    #expect(s.glyphs.map(\.x) == [0, 10])
  }

  @Test func pointLabelsCollideTopLayerFirst() throws {
    let folder = Folder()
    defer { folder.remove() }
    let style = """
      {"version": 8, "center": [0, 0], "zoom": 2, "glyphs": "{fontstack}/{range}.pbf",
       "sources": {"g": \(Self.points([("AAAA", 0, 0), ("BBBB", 1, 0), ("CCCC", 20, 10)]))},
       "layers": [{"id": "low", "type": "symbol", "source": "g", "filter": ["==", ["id"], 2], "layout": {"text-field": ["get", "t"]}},
                  {"id": "high", "type": "symbol", "source": "g", "filter": ["!=", ["id"], 2], "layout": {"text-field": ["get", "t"]}}]}
      """
    let plan = try Self.plan(style, in: folder.path)
    let placed = try #require(plan.styleSymbols[0])
    let st = try #require(plan.state.layers[0].style)
    #expect(st.symbolLayers.map(\.id) == ["low", "high"])
    #expect(placed.layers[1].outcomes.filter(\.isShown).count == 2, "the top layer places first")
    let low = placed.layers[0].outcomes[0]
    #expect(!low.isShown && low.reason == .collision && low.blockedBy == "high id:1")
    #expect(st.symbolLayers[1].symbols.map(\.key).sorted() == ["id:1", "id:3"])
    // The report lists each symbol; a second frame where the low label shows is a diff.
    let report = plan.report()
    guard case .array(let layers)? = report["layers"]?[0]?["style"]?["layers"] else { Issue.record("no style layers"); return }
    #expect(layers[0]["symbols"]?["hidden"]?["collision"] == .number(1))
    #expect(layers[0]["symbols"]?["entries"]?[0]?["blockedBy"] == .string("high id:1"))
    let moved = try Self.plan(style.replacingOccurrences("[1.0, 0.0]", "[-20.0, -10.0]"), in: folder.path)
    let diff = try ReportDiff.compare(report, moved.report())
    #expect(diff.changes.contains { $0.item == .styleSymbol(layer: plan.state.layers[0].id, styleLayer: "low", key: "id:2", text: "BBBB") })
  }

  @Test func allowOverlapAndOptionalParts() throws {
    let folder = Folder()
    defer { folder.remove() }
    let style = """
      {"version": 8, "center": [0, 0], "zoom": 2,
       "sources": {"g": \(Self.points([("AAAA", 0, 0), ("BBBB", 1, 0)]))},
       "layers": [{"id": "s", "type": "symbol", "source": "g", "layout": {"text-field": ["get", "t"], "text-allow-overlap": true}}]}
      """
    let plan = try Self.plan(style, in: folder.path)
    #expect(plan.styleSymbols[0]?.layers[0].outcomes.filter(\.isShown).count == 2)
    #expect(plan.state.layers[0].style?.notes.contains { $0.contains("drawn from the bundled fonts") } == true)
  }

  @Test func variableAnchorsTryEachPlaceInTurn() throws {
    let folder = Folder()
    defer { folder.remove() }
    let style = """
      {"version": 8, "center": [0, 0], "zoom": 2,
       "sources": {"g": \(Self.points([("AAAA", 0, 0), ("BBBB", 0, 0), ("CCCC", 0, 0)]))},
       "layers": [{"id": "s", "type": "symbol", "source": "g",
                   "layout": {"text-field": ["get", "t"], "text-variable-anchor": ["top", "bottom"], "text-radial-offset": 0.5}}]}
      """
    let plan = try Self.plan(style, in: folder.path)
    let outcomes = try #require(plan.styleSymbols[0]?.layers[0].outcomes)
    #expect(outcomes.map(\.isShown) == [true, true, false], "below, above, then no room")
    #expect(outcomes.map(\.textVariant).prefix(2) == [0, 1])
    #expect(outcomes[2].reason == .collision)
    // A radial offset moves the box away from the anchor, less MapLibre's baseline allowance.
    #expect(StyleSymbolLayout.variableOffset("top", radial: 12) == Point(0, 5))
    #expect(StyleSymbolLayout.variableOffset("left", textOffset: Point(-24, 3)) == Point(24, 0))
  }

  @Test func lineLabelsFollowTheLineOncePerSpacing() throws {
    let folder = Folder()
    defer { folder.remove() }
    let style = """
      {"version": 8, "center": [0, 0], "zoom": 4,
       "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "properties": {"t": "Main Street"},
         "geometry": {"type": "LineString", "coordinates": [[-10, -2], [0, 2], [10, -2]]}}}},
       "layers": [{"id": "s", "type": "symbol", "source": "g", "layout": {"text-field": ["get", "t"], "symbol-placement": "line", "symbol-spacing": 120}}]}
      """
    let plan = try Self.plan(style, in: folder.path, size: 512)
    let layer = try #require(plan.state.layers[0].style?.symbolLayers.first)
    #expect(layer.symbols.count >= 2)
    let glyphs = try #require(layer.symbols.first?.text?.quads)
    // Glyphs on the two slopes turn opposite ways.
    let angles = glyphs.map { atan2($0.xAxis.y, $0.xAxis.x) }
    #expect(angles.contains { $0 > 0.05 } || angles.contains { $0 < -0.05 })
  }

  @Test func cjkStandsUprightDownSteepLinesAndInVerticalPointLabels() throws {
    let folder = Folder()
    defer { folder.remove() }
    func line(_ t: String, _ x: Double) -> String {
      #"{"type": "Feature", "properties": {"t": "\#(t)"}, "geometry": {"type": "LineString", "coordinates": [[\#(x), -20], [\#(x), 20]]}}"#
    }
    let style = """
      {"version": 8, "center": [0, 0], "zoom": 3,
       "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(line("東京タワー", -10)), \(line("Tokyo", 10))]}},
                   "p": \(Self.points([("東京", 0, 0)]))},
       "layers": [{"id": "s", "type": "symbol", "source": "g", "layout": {"text-field": ["get", "t"], "symbol-placement": "line", "symbol-spacing": 1000}},
                  {"id": "v", "type": "symbol", "source": "p", "layout": {"text-field": ["get", "t"], "text-writing-mode": ["vertical"]}}]}
      """
    let plan = try Self.plan(style, in: folder.path, size: 512)
    let layers = try #require(plan.state.layers[0].style?.symbolLayers)
    func turn(_ q: SDFQuad) -> Double { abs(atan2(q.xAxis.y, q.xAxis.x)) }
    let cjk = try #require(layers[0].symbols.first { $0.text?.string == "東京タワー" }?.text)
    let latin = try #require(layers[0].symbols.first { $0.text?.string == "Tokyo" }?.text)
    #expect(
      cjk.quads.map { (turn($0) * 100).rounded() / 100 } == [0, 0, 0, 0, 1.57],
      "ideographs and kana stand upright down a vertical line; the long vowel mark ー turns with it")
    #expect(latin.quads.allSatisfy { abs(turn($0) - .pi / 2) < 0.01 }, "Latin letters lie along it")
    let ys = cjk.quads.map(\.origin.y)
    #expect(ys == ys.sorted(), "read from the top down")
    // A vertical point label: a column, its glyphs upright.
    let column = try #require(layers[1].symbols.first?.text)
    #expect(column.quads.count == 2 && column.quads.allSatisfy { turn($0) < 0.01 })
    #expect(column.quads[1].origin.y > column.quads[0].origin.y + 10 && abs(column.quads[1].origin.x - column.quads[0].origin.x) < 1)
    #expect(SymbolVertical.punctuated(Array("東京：タワー".unicodeScalars.map(\.value)))[2] == 0xFE13)
    #expect(SymbolVertical.punctuated(Array("a:b".unicodeScalars.map(\.value)))[1] == 0x3A, "punctuation between Latin letters keeps its form")
  }

  @Test func fontFacesDrawAndShapeTheirCharacters() throws {
    #expect(StyleFontFaces.range("U+0900-097F") == 0x900...0x97F)
    #expect(StyleFontFaces.range("u+26") == 0x26...0x26)
    #expect(StyleFontFaces.range("U+4??") == 0x400...0x4FF)
    #expect(StyleFontFaces.range("U+110000") == nil && StyleFontFaces.range("U+20-10") == nil && StyleFontFaces.range("0900") == nil)
    let faces = StyleFontFaces(try JSONParser.parse(Array(#"{"A": "a.ttf", "B": [{"url": "b.ttf", "unicode-range": ["U+0-7F"]}, {"unicode-range": []}], "C": 3}"#.utf8)))
    #expect(faces.faces("A", covering: 0x4E00).map(\.url) == ["a.ttf"] && faces.faces("B", covering: 0x41).map(\.url) == ["b.ttf"])
    #expect(faces.faces("B", covering: 0x100).isEmpty)
    #expect(faces.problems.count == 2 && faces.problems.contains { $0.hasPrefix(#"font-faces["B"][1]: expected "url""#) })

    // A conjunct (क + ् + ष) is one glyph when HarfBuzz shapes it with the
    // style's Devanagari file, three letters without it.
    let folder = Folder()
    defer { folder.remove() }
    func conjunct(_ faces: String) throws -> (quads: Int, notes: [String]) {
      let style = """
        {"version": 8, "center": [0, 0], "zoom": 2, \(faces)
         "sources": {"g": \(Self.points([("क्ष", 0, 0)]))},
         "layers": [{"id": "s", "type": "symbol", "source": "g", "layout": {"text-field": ["get", "t"], "text-font": ["Noto Sans Regular"]}}]}
        """
      let plan = try Self.plan(style, in: folder.path)
      let state = try #require(plan.state.layers[0].style)
      return (state.symbolLayers.first?.symbols.first?.text?.quads.count ?? 0, state.notes)
    }
    let font = Repository.root + "/Fonts/NotoSansDevanagari-Regular.ttf"
    #expect(try conjunct(#""font-faces": {"Noto Sans Regular": [{"url": "\#(font)", "unicode-range": ["U+0900-097F"]}]},"#).quads == 1)
    #expect(try conjunct("").quads >= 2)
    let missing = try conjunct(#""font-faces": {"Noto Sans Regular": "nowhere.ttf"},"#)
    #expect(missing.notes.contains { $0.contains("font-faces: nowhere.ttf") }, "\(missing.notes)")
    folder.write(Array("not a font".utf8), to: "bad.ttf")
    #expect(try conjunct(#""font-faces": {"Noto Sans Regular": "bad.ttf"},"#).notes.contains { $0.contains("bad.ttf: not a font file FreeType can read") })
  }

  @Test func aStretchableIconKeepsItsFixedPartsAroundItsText() throws {
    // A 30 × 20 image whose middle third stretches across and middle half
    // down, fitted to a 100 × 40 box: three pieces each way, the fixed ones
    // at their own size, the border one texel outside.
    let white = RasterImage(straightRGBA: [UInt8](repeating: 255, count: 30 * 20 * 4), width: 30, height: 20)
    let image = StyleSprite.Image(image: white, pixelRatio: 1, sdf: false, stretchX: [[10, 20]], stretchY: [[5, 15]], content: nil)
    let box = Rect(minX: 0, minY: 0, maxX: 100, maxY: 40)
    let pieces = try #require(IconStretch.pieces(image, box: box))
    #expect(pieces.count == 9)
    #expect(Set(pieces.map(\.box.minX)).sorted() == [-1, 10, 90] && Set(pieces.map(\.box.maxX)).max() == 101)
    #expect(Set(pieces.map(\.box.minY)).sorted() == [-1, 5, 35] && Set(pieces.map(\.box.maxY)).max() == 41)
    #expect(Set(pieces.map(\.texture.minX)).sorted() == [0, 11, 21] && Set(pieces.map(\.texture.maxX)).max() == 32)
    // With content (at pixel ratio 2), the content fits the box and the
    // fixed parts outside it stand beyond, in CSS pixels; the collision box
    // covers them.
    let framed = StyleSprite.Image(image: white, pixelRatio: 2, sdf: false, stretchX: [[10, 20]], stretchY: [], content: [10, 0, 20, 20])
    let around = try #require(IconStretch.pieces(framed, box: box))
    #expect(Set(around.map(\.box.minX)).sorted() == [-5.5, 0, 100] && Set(around.map(\.box.maxX)).max() == 105.5)
    #expect(Set(around.map(\.box.minY)).sorted() == [-0.5, 0, 40])
    #expect(IconStretch.contentPadding(framed) == [0, 5, 0, 5])
    #expect(IconStretch.pieces(StyleSprite.Image(image: white, pixelRatio: 1, sdf: false, stretchX: [], stretchY: [], content: nil), box: box) == nil)

    // Drawn: a red | green | blue image, the green third stretching under
    // a long label, keeps ten red and ten blue columns.
    let folder = Folder()
    defer { folder.remove() }
    var rgba: [UInt32] = []
    for _ in 0..<20 { for x in 0..<30 { rgba.append(x < 10 ? 0xFF00_00FF : x < 20 ? 0xFF00_FF00 : 0xFFFF_0000) } }
    folder.write(try rgba.withUnsafeBufferPointer { try PNGEncoder.encode(rgbaAsStored: $0, width: 30, height: 20) }, to: "sprite.png")
    folder.write(Array(#"{"pill": {"x": 0, "y": 0, "width": 30, "height": 20, "pixelRatio": 1, "stretchX": [[10, 20]]}}"#.utf8), to: "sprite.json")
    let style = """
      {"version": 8, "center": [0, 0], "zoom": 2, "sprite": "sprite",
       "sources": {"g": \(Self.points([("MMMMMMMMMM", 0, 0)]))},
       "layers": [{"id": "s", "type": "symbol", "source": "g",
                   "layout": {"text-field": ["get", "t"], "icon-image": "pill", "icon-text-fit": "both", "icon-text-fit-padding": [4, 4, 4, 4]},
                   "paint": {"text-opacity": 0}}]}
      """
    let canvas = Snapshot.render(try Self.plan(style, in: folder.path)).canvas
    var rows: [(red: Int, green: Int, blue: Int)] = []
    for y in 0..<256 {
      var row = (red: 0, green: 0, blue: 0)
      for x in 0..<256 {
        let p = canvas.rgba(x: x, y: y)
        guard p.a == 255 else { continue }
        if p.r == 255 { row.red += 1 } else if p.g == 255 { row.green += 1 } else if p.b == 255 { row.blue += 1 }
      }
      if row.green > 0 { rows.append(row) }
    }
    #expect(rows.count > 10, "the icon stands as tall as the label and its padding")
    for row in rows {
      #expect(row.green > 60 && (8...11).contains(row.red) && (8...11).contains(row.blue), "\(row)")
    }
  }

  @Test func hostileGlyphsAndSpritesEndInBoundedWarnings() throws {
    let folder = Folder()
    defer { folder.remove() }
    // A 100 MB glyph range (sparse) is refused unread.
    mkdir(folder.path + "/F", 0o755)
    let fd = open(folder.path + "/F/0-255.pbf", O_WRONLY | O_CREAT, 0o644)
    #expect(ftruncate(fd, 100 << 20) == 0)
    close(fd)
    // A sprite sheet whose header claims 60000 × 60000 pixels.
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
    png += [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 6, 0, 0, 0, 0, 0, 0, 0]
    folder.write(png, to: "sprite.png")
    folder.write(Array(#"{"a": {"x": 0, "y": 0, "width": 60000, "height": 60000, "pixelRatio": 1}}"#.utf8), to: "sprite.json")
    // 10,000 fontstacks asked for.
    let features = (0..<10_000).map { i in
      #"{"type": "Feature", "properties": {"f": ["Font \#(i)"]}, "geometry": {"type": "Point", "coordinates": [\#(Double(i % 100) - 50), \#(Double(i / 100) / 4 - 12)]}}"#
    }
    let style = """
      {"version": 8, "center": [0, 0], "zoom": 1, "glyphs": "{fontstack}/{range}.pbf", "sprite": "sprite",
       "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ","))]}}},
       "layers": [{"id": "u", "type": "symbol", "source": "g", "layout": {"text-field": "B", "text-font": ["F"]}},
                  {"id": "t", "type": "symbol", "source": "g", "layout": {"text-field": "A", "text-font": ["get", "f"], "icon-image": "a"}}]}
      """
    let plan = try Self.plan(style, in: folder.path)
    let notes = try #require(plan.state.layers[0].style?.notes)
    #expect(notes.count < 10, "one warning per kind of problem, not per fontstack: \(notes)")
    #expect(notes.contains { $0.contains("fontstacks are asked for") })
    #expect(notes.contains { $0.contains("F/0-255.pbf") }, "the 100 MB range is refused: \(notes)")
    #expect(notes.contains { $0.contains("sprite") } || plan.state.layers[0].problems.contains { $0.message.contains("sprite") })
  }

  @Test func aViewAnnotationStandsOnAStyleFeature() throws {
    let folder = Folder()
    defer { folder.remove() }
    let style = """
      {"version": 8, "sources": {"g": \(Self.points([("Kiosk", 0, 0), ("Café", 10, 10)]))},
       "layers": [{"id": "pois", "type": "symbol", "source": "g", "layout": {"text-field": ["get", "t"]}},
                  {"id": "dots", "type": "circle", "source": "g", "filter": ["==", ["id"], 2]}]}
      """
    folder.write(Array(style.utf8), to: "style.json")
    func annotation(_ styleLayer: String, _ id: Int) -> String {
      #"{"id": "va\#(id)\#(styleLayer)", "feature": {"layer": "base", "styleLayer": "\#(styleLayer)", "id": \#(id)}, "text": "here"}"#
    }
    let scene = """
      {"version": 1, "map": {"center": [0, 0], "zoom": 3, "size": [256, 256]},
       "layers": [{"id": "base", "type": "style", "style": "style.json"}],
       "viewAnnotations": [\(annotation("pois", 1)), \(annotation("dots", 1)), \(annotation("dots", 2)), \(annotation("nope", 1))]}
      """
    let plan = try FramePlan.make(try SceneLoader.decode(Array(scene.utf8), file: folder.path + "/s.json", baseDirectory: folder.path))
    let shown = plan.viewAnnotations.outcomes.map { if case .placed = $0.decision { return true } else { return false } }
    #expect(shown == [true, false, true, false], "on the placed label; hidden with a feature the layer filters out; on the circle; an unknown style layer")
    #expect(plan.viewAnnotations.warnings.contains { $0.contains("has no layer \"nope\"") })
    let bad = #"{"version": 1, "map": {"center": [0, 0], "zoom": 3}, "layers": [{"id": "base", "type": "style", "style": "style.json"}], "viewAnnotations": [{"id": "a", "feature": {"layer": "base", "id": 1}, "text": "x"}]}"#
    #expect(throws: SceneError.self) { try SceneLoader.decode(Array(bad.utf8), file: "s.json", baseDirectory: folder.path) }
  }
}

extension String {
  fileprivate func replacingOccurrences(_ a: String, _ b: String) -> String { replacing(a, with: b) }
}
