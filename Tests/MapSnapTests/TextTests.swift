import Testing

@testable import MapSnap
@testable import _MapSnapRaster

/// The text engine: bundled fonts, fallback, layout rules, the glyph caches.
@Suite struct TextTests {
  /// A library per test: tests run in parallel and FreeType faces must not
  /// be shared between threads.
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  @Test func bundledFontsLoad() {
    let names = Set(fonts.names)
    #expect(names.isSuperset(of: ["DejaVu Sans", "DejaVu Sans Bold", "Droid Sans Fallback"]))
    #expect(fonts.faceIndex(named: "dejavu sans") == fonts.faceIndex(named: "DejaVu Sans"))
    #expect(fonts.faceIndex(named: "DejaVu Sans Bold") != fonts.faceIndex(named: "DejaVu Sans"))
  }

  @Test func chineseFallsBackToDroidSansFallback() throws {
    let block = fonts.layout("Café 咖啡厅", font: "DejaVu Sans", size: 16)
    #expect(block.missing.isEmpty)
    let faces = block.glyphs.map { fonts.faces[$0.face].fullName }
    #expect(faces.prefix(5).allSatisfy { $0 == "DejaVu Sans" })
    #expect(faces.suffix(3).allSatisfy { $0 == "Droid Sans Fallback" })
  }

  @Test func codePointsNoFontCoversAreReported() {
    // Cuneiform: in none of the bundled fonts.
    let block = fonts.layout("a\u{12000}b\u{12000}", font: nil, size: 12)
    #expect(block.missing == ["\u{12000}"])
    #expect(block.glyphs.count == 2)
  }

  @Test func kerningTightensPairs() {
    let av = fonts.layout("AV", font: nil, size: 100).width
    let a = fonts.layout("A", font: nil, size: 100).width
    let v = fonts.layout("V", font: nil, size: 100).width
    #expect(av < a + v - 1)
  }

  @Test func linesBreakAtNewlinesAndAlign() {
    let left = fonts.layout("wide line\nx", font: nil, size: 10, align: .left)
    let centre = fonts.layout("wide line\nx", font: nil, size: 10, align: .center)
    let right = fonts.layout("wide line\nx", font: nil, size: 10, align: .right)
    #expect(abs(left.height - 2 * left.lineHeight) < 1e-9)
    #expect(abs(left.lineHeight - 11.64) < 0.01)  // DejaVu Sans: (ascender − descender) / em = 1.164
    let xWidth = fonts.layout("x", font: nil, size: 10).width
    let last = { (b: TextBlock) in b.glyphs.last!.x }
    #expect(last(left) == 0)
    #expect(abs(last(centre) - (left.width - xWidth) / 2) < 1e-9)
    #expect(abs(last(right) - (left.width - xWidth)) < 1e-9)
    #expect(left.glyphs.last!.y - left.glyphs.first!.y == left.lineHeight)
  }

  @Test func textSizeFollowsTheEmSize() {
    // The ink of "H" is DejaVu Sans' cap height, 0.729 em, at any size.
    for size in [5.0, 10, 20, 37.5] {
      let b = fonts.layout("H", font: nil, size: size)
      let path = fonts.path(for: b, at: Point(0, 0))
      #expect(abs(path.bounds.height - 0.729 * size) < 0.01 * size, "size \(size)")
    }
  }

  @Test func glyphMasksAreMadeOncePerGlyphSizeAndOffset() {
    let block = fonts.layout("anna", font: nil, size: 12)
    let first = fonts.masks(for: block, at: Point(10, 10))
    let atlasSize = fonts.atlas.count
    let again = fonts.masks(for: block, at: Point(10, 10))
    #expect(first.map(\.mask) == again.map(\.mask))
    #expect(fonts.atlas.count == atlasSize)
    // Two glyphs ('a', 'n') in at most 4 sub-pixel offsets each.
    #expect(atlasSize <= 8)
    // A quarter pixel further right is a different offset bucket of the same glyph.
    let shifted = fonts.masks(for: block, at: Point(10.25, 10))
    #expect(shifted[0].x == first[0].x && shifted[0].mask != first[0].mask)
  }

  /// Masks made side by side ahead (`prepareMasks`) fill the atlas exactly
  /// as the serial pass does: the same masks, bytes and indices.
  @Test func masksMadeSideBySideEqualTheSerialAtlas() throws {
    let texts = ["Kauppatori", "Esplanadi", "Senaatintori", "Ateneum", "Kiasma", "Ruttopuisto", "Ωμέγα", "Москва"]
    func run(parallel: Bool) throws -> (masks: [[Int]], bytes: [UInt8], count: Int) {
      let library = try FontLibrary(directories: [FontLibrary.bundledDirectory])
      let runs = texts.enumerated().map { k, t in
        (block: library.layout(t, font: nil, size: 11 + Double(k % 3)), origin: Point(3.1 * Double(k) + 0.3, 20 * Double(k)), halo: k % 2 == 0 ? 1.5 : 0)
      }
      if parallel { library.prepareMasks(runs, threads: 2) }
      let made = library.atlas.count
      var out: [[Int]] = []
      for r in runs {
        out.append(library.masks(for: r.block, at: r.origin).map(\.mask))
        if r.halo > 0 { out.append(library.masks(for: r.block, at: r.origin, halo: r.halo).map(\.mask)) }
      }
      if parallel { #expect(library.atlas.count == made, "every mask was made ahead") }
      return (out, library.atlas.bytes, library.atlas.count)
    }
    let serial = try run(parallel: false)
    let parallel = try run(parallel: true)
    #expect(serial.count >= FontLibrary.parallelMasks, "enough masks to be made side by side: \(serial.count)")
    #expect(parallel.masks == serial.masks)
    #expect(parallel.bytes == serial.bytes)
  }

  @Test func anUnknownFontIsASceneErrorWithAHint() throws {
    let json = """
      {"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [100, 100]},
       "layers": [{"id": "p", "type": "features",
         "source": {"data": {"type": "Feature", "properties": {"n": "x"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}},
         "style": {"label": {"field": "n", "font": "DejaVu Snas"}}}]}
      """
    let scene = try SceneLoader.decode(Array(json.utf8), file: "f.json", baseDirectory: "")
    #expect(scene.fontReferences.map(\.path) == ["layers[0].style.label.font"])
    let error = #expect(throws: SceneError.self) { try Snapshot.render(scene, fonts: fonts) }
    #expect(error?.path == "layers[0].style.label.font")
    #expect(error?.hint == "did you mean \"DejaVu Sans\"?")
    #expect(error?.message.contains("no font named \"DejaVu Snas\"") == true)
  }

  @Test func missingCodePointsReachTheReport() throws {
    let json = """
      {"version": 1, "map": {"center": [0, 0], "scale": 1000, "size": [100, 100]},
       "layers": [{"id": "p", "type": "features",
         "source": {"data": {"type": "Feature", "properties": {"n": "ok \\u2603\\ud808\\udc00"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}},
         "style": {"label": {"field": "n"}}}]}
      """
    let scene = try SceneLoader.decode(Array(json.utf8), file: "f.json", baseDirectory: "")
    let snap = try Snapshot.render(scene, fonts: fonts)
    #expect(snap.text.missingCodePoints == ["\u{12000}"])
    guard case .object(let report) = snap.report, case .object(let text)? = report["text"] else {
      Issue.record("no text block in the report")
      return
    }
    #expect(text["missingCodePoints"] == .array([.string("U+12000")]))
  }
}
