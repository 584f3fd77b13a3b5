import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Text templates (`text`), annotation `offset`, `maxWidth` wrapping and
/// `letterSpacing` (issue 14, part 3), each with a known answer.
@Suite struct TextOptionsTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  /// Logical pixels at 1:1000 and 96 DPI, in degrees of longitude at the equator.
  static let pixelDegrees = 1000 / (96 * 39.37) / 111_319.490_793_273_57

  private func plan(_ body: String) throws -> FramePlan {
    let scene = try SceneLoader.decode(Array(("{\"version\": 1, " + body + "}").utf8), file: "t.json", baseDirectory: "")
    return try FramePlan.make(scene, fonts: fonts)
  }

  private func decodeError(_ body: String) -> SceneError? {
    do {
      _ = try SceneLoader.decode(Array(("{\"version\": 1, " + body + "}").utf8), file: "t.json", baseDirectory: "")
      return nil
    } catch { return error }
  }

  private func point(px x: Double, _ y: Double, _ properties: String) -> String {
    #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(x * Self.pixelDegrees), \#(-y * Self.pixelDegrees)]}}"#
  }

  private func scene(_ layer: String) -> String {
    #""map": {"center": [0, 0], "scale": 1000, "size": [400, 200]}, "layers": [\#(layer)]"#
  }

  private func features(_ label: String, _ properties: String = #"{"id": "V-007", "status": "Closed", "dn": 100}"#) -> String {
    #"{"id": "valves", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [\#(point(px: 0, 0, properties))]}}, "style": {"label": \#(label)}}"#
  }

  // MARK: - Templates

  @Test func templatesReadPropertiesAndEscapedBraces() throws {
    let t = try TextTemplate(parsing: "{id} {status} DN{dn} {{mm}} {missing}")
    #expect(t.properties == ["id", "status", "dn", "missing"])
    let props: JSONObject = ["id": .string("V-007"), "status": .string("Closed"), "dn": .number(100), "open": .bool(false)]
    #expect(t.text(props) == "V-007 Closed DN100 {mm} ")
    #expect(try TextTemplate(parsing: "{missing} {other}").text(props) == nil, "only white space is no text")
    #expect(try TextTemplate(parsing: "{open}").text(props) == "false")
    #expect(TextTemplate(field: "id").text(props) == "V-007")
    let parsed = try TextTemplate(parsing: "{id}")
    #expect(TextTemplate(field: "id").isField && !parsed.isField)
  }

  @Test(arguments: [
    ("{id", TemplateError.unclosed(at: 0)),
    ("a {} b", .emptyName(at: 2)),
    ("id}", .loneClose(at: 2)),
    ("{a{b}", .unclosed(at: 0)),
    ("no braces", .noProperty),
    ("{{escaped}}", .noProperty),
  ])
  func badTemplatesAreRefused(_ template: String, _ expected: TemplateError) {
    #expect(throws: expected) { try TextTemplate(parsing: template) }
  }

  @Test func aLabelTemplateComposesTheText() throws {
    let p = try plan(scene(features(#"{"text": "{id} {status} DN{dn}", "size": 10}"#)))
    #expect(p.text.outcomes.map(\.text) == ["V-007 Closed DN100"])
    #expect(p.text.labels.count == 1)
  }

  @Test func fieldAndTextTogetherIsAnError() throws {
    let e = try #require(decodeError(scene(features(#"{"field": "id", "text": "{id}"}"#))))
    #expect(e.kind == .conflictingKeys)
    #expect(e.path.description == "layers[0].style.label.text")
  }

  @Test func neitherFieldNorTextIsAnError() throws {
    let e = try #require(decodeError(scene(features(#"{"size": 10}"#))))
    #expect(e.kind == .missingKey)
    #expect("\(e)".contains("\"text\": a template"), "\(e)")
  }

  @Test func aBadTemplateNamesTheBraceAndHowToEscapeIt() throws {
    let e = try #require(decodeError(scene(features(#"{"text": "{id} }"}"#))))
    #expect(e.path.description == "layers[0].style.label.text")
    #expect("\(e)".contains("character 5") && "\(e)".contains("write }} for a literal brace"), "\(e)")
  }

  @Test func anAnnotationLayerTakesATemplate() throws {
    let layer =
      #"{"id": "anno", "type": "annotation", "text": "{id} {status}", "referenceScale": 1000, "source": {"data": {"type": "FeatureCollection", "features": [\#(point(px: 0, 0, #"{"id": "V-007", "status": "Open"}"#))]}}, "sublayers": [{"id": "all", "style": {"size": 10}}]}"#
    let p = try plan(scene(layer))
    #expect(p.layers[0].annotations.map(\.text) == ["V-007 Open"])
    let both = layer.replacingOccurrences(of: #""text": "{id} {status}""#, with: #""textField": "id", "text": "{id} {status}""#)
    #expect(decodeError(scene(both))?.kind == .conflictingKeys)
  }

  @Test func aTemplatePropertyNoFeatureHasIsAWarningUnderText() throws {
    let p = try plan(scene(features(#"{"text": "{id} {stauts}"}"#)))
    #expect(p.layers[0].problems.contains(.unknownProperty(key: "style.label.text", property: "stauts", suggestion: "status")))
  }

  // MARK: - maxWidth and letterSpacing

  @Test func maxWidthWrapsAtSpacesWithinTheWidth() {
    let text = "Helsinki Central Railway Station"
    let one = fonts.layout(text, font: nil, size: 10)
    let wrapped = fonts.layout(text, font: nil, size: 10, maxWidth: 8)
    #expect(one.height == one.lineHeight)
    // DejaVu Sans: "Helsinki Central" is 7.89 em, "Railway Station" 7.74 em,
    // "Central Railway" 7.82 em, the whole 15.95 em.
    let lines = Set(wrapped.glyphs.map(\.y)).count
    #expect(lines == 2, "Helsinki Central / Railway Station at 8 em: \(lines) lines")
    #expect(abs(wrapped.width - 7.8935546875 * 10) < 1e-9)
    #expect(wrapped.height == 2 * wrapped.lineHeight)
    // Every glyph but the space that ended the first line is still there.
    #expect(wrapped.glyphs.count == one.glyphs.count - 1)
    // At 7 em no two words fit together: four lines.
    #expect(Set(fonts.layout(text, font: nil, size: 10, maxWidth: 7).glyphs.map(\.y)).count == 4)
    // A word wider than the width keeps a line of its own, unbroken.
    let long = fonts.layout("Rautatientori Kaivokatu", font: nil, size: 10, maxWidth: 2)
    #expect(Set(long.glyphs.map(\.y)).count == 2)
  }

  /// Without HarfBuzz (a machine that lacks it) lines wrap by the same
  /// rule and characters are spaced as in shaped text, so a label keeps its
  /// lines and nearly its box: Latin text without ligatures lays out as
  /// HarfBuzz lays it out, but for kerning pairs (the legacy table).
  @Test func theLayoutWithoutHarfBuzzWrapsAndSpacesToo() throws {
    let unshaped = try FontLibrary(directories: [FontLibrary.bundledDirectory])
    unshaped.shaper = nil
    #expect(unshaped.shaping.hasPrefix("unshaped"))
    let text = "Helsinki Central Railway Station"
    for (maxWidth, lines) in [(8.0, 2), (7.0, 4), (nil, 1)] {
      let a = fonts.layout(text, font: nil, size: 10, maxWidth: maxWidth)
      let b = unshaped.layout(text, font: nil, size: 10, maxWidth: maxWidth)
      #expect(Set(b.glyphs.map(\.y)).count == lines, "at \(String(describing: maxWidth)) em")
      #expect(b.height == a.height && b.glyphs.count == a.glyphs.count)
      #expect(abs(b.width - a.width) < 0.02 * a.width, "\(b.width) against \(a.width) shaped")
    }
    // letterSpacing: 0.1 em after each of the line's 15 characters but the last.
    let plain = unshaped.layout("Railway Station", font: nil, size: 10)
    let spaced = unshaped.layout("Railway Station", font: nil, size: 10, letterSpacing: 0.1)
    #expect(abs(spaced.width - plain.width - 14 * 0.1 * 10) < 1e-9)
    #expect(abs(spaced.glyphs.last!.x - plain.glyphs.last!.x - 14 * 0.1 * 10) < 1e-9)
    // Lines are centred as shaped ones are.
    let centred = unshaped.layout("Ateneum Art Museum", font: nil, size: 10, align: .center, maxWidth: 6)
    let museum = centred.glyphs.filter { $0.y == centred.glyphs.last!.y }
    let right = museum.last!.x + museum.last!.advance
    #expect(abs(museum.first!.x - (centred.width - right)) < 1e-9)
  }

  @Test func chineseWrapsBetweenCharacters() {
    let block = fonts.layout("赫尔辛基中央火车站", font: nil, size: 10, maxWidth: 4)
    #expect(Set(block.glyphs.map(\.y)).count == 3, "9 ideographs of 1 em at 4 em a line")
    #expect(block.width <= 40 + 1e-9)
  }

  @Test func letterSpacingAddsBetweenCharactersButNotInsideArabic() {
    let plain = fonts.layout("Kamppi", font: nil, size: 10)
    let spaced = fonts.layout("Kamppi", font: nil, size: 10, letterSpacing: 0.2)
    #expect(abs(spaced.width - (plain.width + 5 * 0.2 * 10)) < 1e-9, "five gaps of 2 px")
    #expect(abs(spaced.glyphs[1].x - (plain.glyphs[1].x + 2)) < 1e-9)
    let arabic = fonts.layout("القاهرة", font: nil, size: 10)
    let arabicSpaced = fonts.layout("القاهرة", font: nil, size: 10, letterSpacing: 0.2)
    #expect(arabic.width == arabicSpaced.width)
    let tighter = fonts.layout("Kamppi", font: nil, size: 10, letterSpacing: -0.05)
    #expect(tighter.width < plain.width)
  }

  @Test func aLabelsMaxWidthMakesItsBoxTaller() throws {
    let long = #"{"id": "x", "status": "Helsinki Central Railway Station"}"#
    let one = try plan(scene(features(#"{"field": "status", "size": 10}"#, long)))
    let wrapped = try plan(scene(features(#"{"field": "status", "size": 10, "maxWidth": 8}"#, long)))
    let a = try #require(one.text.labels.first?.run.box)
    let b = try #require(wrapped.text.labels.first?.run.box)
    #expect(b.height > 1.9 * a.height && b.width < 0.55 * a.width, "\(a) → \(b)")
  }

  /// A wrapped label's lines are centred in its box by default (Mapbox's
  /// `text-justify`), left or right with `justify`; the box, and so its
  /// placement, is the same for all three.
  @Test func aWrappedLabelsLinesAreCentredUnlessJustified() throws {
    let long = #"{"id": "x", "status": "Ateneum Art Museum"}"#
    func run(_ justify: String) throws -> GlyphRun {
      let p = try plan(scene(features(#"{"field": "status", "size": 10, "maxWidth": 8\#(justify)}"#, long)))
      return try #require(p.text.labels.first?.run)
    }
    // Each line's left and right ends: its first glyph's x, its last
    // glyph's x plus advance.
    func lines(_ r: GlyphRun) -> [(left: Double, right: Double)] {
      Dictionary(grouping: r.block.glyphs, by: \.y).sorted { $0.key < $1.key }.map { _, g in
        (g.map(\.x).min()!, g.map { $0.x + $0.advance }.max()!)
      }
    }
    let centred = try run("")
    let left = try run(#", "justify": "left""#)
    let right = try run(#", "justify": "right""#)
    #expect(try run(#", "justify": "center""#).block.glyphs.map(\.x) == centred.block.glyphs.map(\.x))
    #expect(centred.box == left.box && left.box == right.box)
    let width = centred.block.width
    let c = lines(centred)
    let l = lines(left)
    let r = lines(right)
    #expect(c.count == 2 && abs((c[0].right - c[0].left) - (c[1].right - c[1].left)) > 5, "lines of different widths: \(c)")
    for k in 0..<2 {
      #expect(abs(l[k].left) < 1e-9, "left: line \(k) starts at the box's left: \(l)")
      #expect(abs(r[k].right - width) < 1e-9, "right: line \(k) ends at the box's right: \(r)")
      #expect(abs((c[k].left - 0) - (width - c[k].right)) < 1e-9, "centred: line \(k) as far from either side: \(c)")
    }
    let e = decodeError(scene(features(#"{"field": "status", "justify": "middle"}"#)))
    #expect("\(String(describing: e))".contains("justify"), "\(String(describing: e))")
  }

  // MARK: - Annotation offset

  /// `offset` [10, 0] at the reference scale, at twice the reference scale's
  /// zoom (text twice as large) and turned 90° counter-clockwise: the text's
  /// anchor is 20 px above the point.
  @Test func anAnnotationOffsetGrowsWithTheTextAndTurnsWithIt() throws {
    func layer(_ angle: Double, offset: String) -> String {
      #"{"id": "anno", "type": "annotation", "textField": "t", "angleField": "a", "referenceScale": 2000, "source": {"data": {"type": "FeatureCollection", "features": [\#(point(px: 0, 0, #"{"t": "V-007", "a": \#(angle)}"#))]}}, "sublayers": [{"id": "all", "style": {"size": 10, \#(offset)}}]}"#
    }
    let centre = Point(200, 100)
    let none = try plan(scene(layer(90, offset: #""align": "center""#)))
    let shifted = try plan(scene(layer(90, offset: #""offset": [10, 0]"#)))
    let flat = try plan(scene(layer(0, offset: #""offset": [10, 0]"#)))
    let r0 = try #require(none.text.annotations[0]?[0].run)
    let r1 = try #require(shifted.text.annotations[0]?[0].run)
    let r2 = try #require(flat.text.annotations[0]?[0].run)
    #expect(abs(r0.pivot.x - centre.x) < 1e-9 && abs(r0.pivot.y - centre.y) < 1e-9)
    #expect(abs(r1.pivot.x - centre.x) < 1e-9 && abs(r1.pivot.y - (centre.y - 20)) < 1e-9, "\(r1.pivot)")
    #expect(abs(r2.pivot.x - (centre.x + 20)) < 1e-9 && abs(r2.pivot.y - centre.y) < 1e-9, "\(r2.pivot)")
    #expect(r1.degrees == 90)
  }
}
