import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// The record of decisions (issue: "every decision in one record"): exact
/// `drawn` counts decided from the display list, every label and annotation
/// text one by one with its reason, names that match no property, and view
/// annotations tied to ids that do not exist. Each scene has a known answer.
@Suite struct DecisionRecordTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  /// Logical pixels at 1:1000 and 96 DPI, in degrees of longitude at the equator.
  static let pixelDegrees = 1000 / (96 * 39.37) / 111_319.490_793_273_57

  private func plan(_ body: String, scale: Double? = nil) throws -> FramePlan {
    let scene = try SceneLoader.decode(Array(("{\"version\": 1, " + body + "}").utf8), file: "t.json", baseDirectory: "")
    return try FramePlan.make(scene, overrides: ViewOverrides(scale: scale), fonts: fonts)
  }

  private func point(px x: Double, _ y: Double, _ properties: String, id: String? = nil) -> String {
    let idMember = id.map { #""id": "\#($0)", "# } ?? ""
    return #"{"type": "Feature", \#(idMember)"properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(x * Self.pixelDegrees), \#(-y * Self.pixelDegrees)]}}"#
  }

  private func layer(_ id: String, _ features: [String], _ rest: String) -> String {
    #"{"id": "\#(id)", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}}, \#(rest)}"#
  }

  private func scene(_ layers: [String], extra: String = "") -> String {
    #""map": {"center": [0, 0], "scale": 1000, "size": [200, 100]}, "layers": [\#(layers.joined(separator: ","))]\#(extra)"#
  }

  private func entries(_ plan: FramePlan, layer: String) -> [String: LabelOutcome] {
    var out: [String: LabelOutcome] = [:]
    // A feature without id by its position (its key is a digest).
    for o in plan.text.outcomes where o.layer == layer { out[o.feature.id?.text ?? "#\(o.feature.index)"] = o }
    return out
  }

  // MARK: - Exact counts

  /// A POI 10 px right of the frame: its 6-px marker puts no pixel into the
  /// image, but its label, anchored on its right end, runs into it: drawn by
  /// its label. The same POI with a label running away from the frame is out
  /// of bounds and not drawn. A POI inside without text is drawn by its marker.
  @Test func aPOIJustOutsideIsDrawnOnlyByALabelThatReachesIn() throws {
    let style = #""rules": [{"where": {"dir": "in"}, "style": {"marker": {"size": 6}, "label": {"field": "name", "anchors": ["right"]}}},"#
      + #"{"style": {"marker": {"size": 6}, "label": {"field": "name", "anchors": ["left"]}}}]"#
    let p = try plan(
      scene([
        layer(
          "pois",
          [
            point(px: 110, -20, #"{"name": "Inbound", "dir": "in"}"#, id: "in"),
            point(px: 110, 20, #"{"name": "Outbound", "dir": "out"}"#, id: "out"),
            point(px: 0, 0, #"{"dir": "out"}"#, id: "nameless"),
          ], style)
      ]))
    let l = p.layers[0]
    #expect(l.features.total == 3)
    #expect(l.drawnFeatures == 2, "the inbound label and the nameless marker")
    let e = entries(p, layer: "pois")
    #expect(e["in"]?.isPlaced == true)
    #expect(e["in"]?.anchor == .right)
    #expect(e["out"]?.hiddenReason == .outOfBounds)
    #expect(e["out"]?.box == nil)
    #expect(e["nameless"]?.hiddenReason == .noText)
    #expect(p.text.labelCounts[0]?.placed == 1)
    #expect(p.text.labelCounts[0]?.dropped == 0)
    #expect(p.text.labelCounts[0]?.hidden == [.outOfBounds: 1, .noText: 1])
  }

  /// Without the label style the same POIs draw nothing but the nameless
  /// marker: a feature merely near the frame is not drawn.
  @Test func withoutLabelsOnlyMarkersInTheFrameCount() throws {
    let p = try plan(
      scene([
        layer(
          "pois", [point(px: 110, -20, "{}"), point(px: 103.6, 0, "{}"), point(px: 102, 0, "{}"), point(px: 0, 0, "{}")],
          #""style": {"marker": {"size": 6}}"#)
      ]))
    // Radius 3 (size 6, no outline): the marker 3.6 px right of the edge
    // misses the image, the one 2 px right of it reaches 1 px in.
    #expect(p.layers[0].drawnFeatures == 2)
  }

  /// A dropped label does not make its feature drawn; the report names what
  /// blocked it (a label of another feature, a `collides` marker).
  @Test func droppedLabelsSayWhatBlockedThem() throws {
    let p = try plan(
      scene([
        layer("markers", [point(px: 40, 0, "{}", id: "m1")], #""style": {"marker": {"size": 30, "collides": true}}"#),
        layer(
          "labels",
          [
            point(px: -40, 0, #"{"n": "First"}"#, id: "a"), point(px: -40, 0, #"{"n": "Second"}"#, id: "b"),
            point(px: 40, 0, #"{"n": "Under"}"#),
          ], #""style": {"label": {"field": "n"}}"#),
      ]))
    let labels = p.layers[1]
    #expect(labels.drawnFeatures == 1, "only the first label's feature")
    let e = entries(p, layer: "labels")
    #expect(e["a"]?.isPlaced == true)
    #expect(e["b"]?.hiddenReason == .collision)
    #expect(e["b"]?.blockedBy == [FeatureRef(layer: "labels", feature: FeatureKey(id: FloorValue("a"), index: 0))])
    #expect(e["#2"]?.hiddenReason == .collision)
    #expect(e["#2"]?.blockedBy == [FeatureRef(layer: "markers", feature: FeatureKey(id: FloorValue("m1"), index: 0))])
    #expect(p.text.labelCounts[1]?.dropped == 2)
    // The report's entries carry the same, keyed by id, else by digest.
    let report = p.report()
    let entriesJSON = report["layers"]?[1]?["labels"]?["entries"]
    guard case .array(let list)? = entriesJSON else {
      Issue.record("no label entries in the report")
      return
    }
    #expect(list.count == 3)
    #expect(list[1]["id"] == .string("b"))
    #expect(list[1]["key"] == .string("b"))
    #expect(list[1]["outcome"] == .string("collision"))
    #expect(list[1]["blockedBy"]?[0]?["layer"] == .string("labels"))
    #expect(list[1]["blockedBy"]?[0]?["id"] == .string("a"))
    #expect(list[2]["id"] == .null)
    guard case .string(let digest)? = list[2]["key"] else {
      Issue.record("no key")
      return
    }
    #expect(digest.count == FeatureKeyDigest.hexDigits && digest.allSatisfy(\.isHexDigit))
    #expect(list[2]["blockedBy"]?[0]?["layer"] == .string("markers"))
  }

  /// Annotation text under one device pixel per em is listed as `tooSmall`
  /// and not drawn; at a readable scale it is drawn; out of the class's range
  /// it is `outOfScale`; a text whose anchor is in reach but whose glyphs put
  /// no pixel into the image is `outOfBounds`.
  @Test func annotationTextsSayWhyTheyAreHidden() throws {
    let body = scene(
      [
        #"{"id": "a", "type": "annotation", "textField": "t", "referenceScale": 1000,"#
          + #""source": {"data": {"type": "FeatureCollection", "features": [\#(point(px: 0, 0, #"{"t": "Valve"}"#, id: "v1")),"#
          + #"\#(point(px: 0, 0, #"{"t": "Pipe", "k": "pipe"}"#, id: "p1")), \#(point(px: 0, 0, #"{"t": ""}"#, id: "v2")),"#
          + #"\#(point(px: 106, 0, #"{"t": "Edge"}"#, id: "v3"))]}},"#
          + #""sublayers": [{"id": "pipes", "where": {"k": "pipe"}, "minScale": 900, "style": {"size": 10}},"#
          + #"{"id": "valves", "style": {"size": 10, "align": "left"}}]}"#
      ])
    let readable = try plan(body)
    let texts = Dictionary(uniqueKeysWithValues: readable.layers[0].annotations.map { ($0.feature.text, $0) })
    #expect(texts["v1"]?.outcome == .drawn)
    #expect(texts["p1"]?.outcome == .hidden(.outOfScale))
    #expect(texts["v2"]?.outcome == .hidden(.noText))
    #expect(texts["v3"]?.outcome == .hidden(.outOfBounds), "anchored 6 px right of the image, aligned left: no glyph reaches in")
    #expect(readable.layers[0].drawnFeatures == 1)
    #expect(readable.layers[0].sublayers.map(\.drawnFeatures) == [0, 1])
    let tiny = try plan(body, scale: 100_000)
    #expect(tiny.layers[0].annotations.first { $0.feature.text == "v1" }?.outcome == .hidden(.tooSmall))
    #expect(tiny.layers[0].drawnFeatures == 0)
    guard case .array(let list)? = tiny.report()["layers"]?[0]?["texts"] else {
      Issue.record("no annotation texts in the report")
      return
    }
    #expect(list.contains { $0["id"] == .string("v1") && $0["outcome"] == .string("tooSmall") && $0["sublayer"] == .string("valves") })
  }

  /// `--report-detail counts`: the entries are left out, the counts stay.
  @Test func countsOnlyReportLeavesEntriesOut() throws {
    let p = try plan(scene([layer("pois", [point(px: 0, 0, #"{"n": "A"}"#)], #""style": {"label": {"field": "n"}}"#)]))
    let full = p.report(detail: .full)
    let counts = p.report(detail: .counts)
    #expect(full["layers"]?[0]?["labels"]?["entries"] != nil)
    #expect(counts["layers"]?[0]?["labels"]?["entries"] == nil)
    #expect(counts["layers"]?[0]?["labels"]?["placed"] == .number(1))
    #expect(counts["schemaVersion"] == .number(Double(ReportBuilder.schemaVersion)))
  }

  // MARK: - Names that match nothing

  /// Every key that names a property is checked against the source: a name
  /// no feature has is a `warning` with a "did you mean" hint.
  @Test func namesThatMatchNoPropertyAreWarnings() throws {
    let p = try plan(
      scene([
        layer(
          "valves", [point(px: 0, 0, #"{"status": "Open", "name": "V-1", "level": 1}"#)],
          #""rules": [{"where": {"Status": "Open"}, "style": {"marker": {}, "label": {"field": "nmae"}}}], "floorField": "levle", "idField": "ident""#),
        #"{"id": "anno", "type": "annotation", "textField": "txt", "angleField": "rot", "referenceScale": 1000,"#
          + #""source": {"data": {"type": "FeatureCollection", "features": [\#(point(px: 0, 0, #"{"text": "A", "angle": 0}"#))]}},"#
          + #""sublayers": [{"id": "all", "style": {}}]}"#,
      ]))
    let valves = p.layers[0]
    #expect(valves.status == [.active, .warning])
    #expect(
      valves.problems == [
        .unknownProperty(key: "rules[0].where", property: "Status", suggestion: "status"),
        .unknownProperty(key: "rules[0].style.label.field", property: "nmae", suggestion: "name"),
        .unknownProperty(key: "floorField", property: "levle", suggestion: "level"),
        .unknownProperty(key: "idField", property: "ident", suggestion: nil),
      ])
    #expect(valves.message?.contains(#"rules[0].where names the property "Status", which no feature of the source has (did you mean "status"?)"#) == true)
    let anno = p.layers[1]
    #expect(
      anno.problems == [
        .unknownProperty(key: "textField", property: "txt", suggestion: "text"),
        .unknownProperty(key: "angleField", property: "rot", suggestion: nil),
      ])
    #expect(p.warnings.count == 6)
    #expect(p.warnings[0].hasPrefix(#"layer "valves": rules[0].where names the property "Status""#))
    #expect(p.report()["layers"]?[0]?["problems"]?[0]?["hint"] == .string(#"did you mean "status"?"#))
  }

  /// Names that some feature has are not warned about, even when others lack them.
  @Test func namesSomeFeatureHasAreFine() throws {
    let p = try plan(
      scene([
        layer(
          "l", [point(px: 0, 0, "{}"), point(px: 1, 0, #"{"status": null, "name": "x"}"#)],
          #""rules": [{"where": {"status": null}, "style": {"marker": {}, "label": {"field": "name"}}}]"#)
      ]))
    #expect(p.layers[0].problems.isEmpty)
    #expect(p.layers[0].status == [.active])
  }

  /// A view annotation tied to an id its layer does not have: `featureHidden`
  /// with a warning naming the closest id.
  @Test func aViewAnnotationTiedToAMissingIdWarns() throws {
    let p = try plan(
      scene(
        [layer("valves", [point(px: 0, 0, "{}", id: "V-17")], #""style": {"marker": {}}"#)],
        extra: #", "viewAnnotations": [{"id": "va", "feature": {"layer": "valves", "id": "V-71"}, "text": "x"}]"#))
    let o = p.viewAnnotations.outcomes[0]
    #expect(o.hiddenReason == .featureHidden)
    #expect(o.warning == #"view annotation "va": layer "valves" has no feature with id "V-71" (did you mean "V-17"?)"#)
    #expect(p.warnings == [o.warning!])
    #expect(p.report()["warnings"]?[0] == .string(o.warning!))
  }

  /// A feature off the frame: `outOfBounds` with the position outside, no
  /// made-up position.
  @Test func aViewAnnotationOnAFeatureOffTheFrameIsOutOfBounds() throws {
    let p = try plan(
      scene(
        [layer("valves", [point(px: 5000, 0, "{}", id: "far")], #""style": {"marker": {}}"#)],
        extra: #", "viewAnnotations": [{"id": "va", "feature": {"layer": "valves", "id": "far"}, "text": "x"}]"#))
    let o = p.viewAnnotations.outcomes[0]
    #expect(o.hiddenReason == .outOfBounds)
    #expect(o.positionOutside)
    #expect(o.position == nil)
    #expect(o.warning == nil)
  }
}

// MARK: - Found in review

extension DecisionRecordTests {
  /// A feature's index counts every member of `features`, null geometries
  /// included, and a view annotation tied to a feature without geometry is
  /// hidden without a false "no such id" warning.
  @Test func indicesCountFeaturesWithoutGeometry() throws {
    let body = scene(
      [
        #"{"id": "pts", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": ["#
          + #"{"type": "Feature", "id": "A", "properties": {"n": "Alpha"}, "geometry": null},"#
          + #"{"type": "Feature", "properties": {"n": "Bravo"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}},"#
          + #""style": {"marker": {}, "label": {"field": "n"}}}"#
      ], extra: #", "viewAnnotations": [{"id": "va-A", "feature": {"layer": "pts", "id": "A"}, "text": "x"}]"#)
    let p = try plan(body)
    #expect(p.text.outcomes.map(\.feature.index) == [1])
    #expect(p.report()["layers"]?[0]?["labels"]?["entries"]?[0]?["id"] == .null)
    #expect(p.viewAnnotations.outcomes[0].hiddenReason == .featureHidden)
    #expect(p.viewAnnotations.outcomes[0].problem == nil)
    #expect(p.warnings.isEmpty)
  }

  /// Labels with nothing to place are listed even when no label of the
  /// scene has text to draw.
  @Test func labelsWithoutTextAreListedWithoutAnyOtherText() throws {
    let p = try plan(scene([layer("pois", [point(px: 0, 0, #"{"n": "  "}"#)], #""style": {"marker": {}, "label": {"field": "n"}}"#)]))
    #expect(p.text.outcomes.map(\.hiddenReason) == [.noText])
    #expect(p.text.labelCounts[0]?.hidden == [.noText: 1])
  }

  /// Text no font covers is `noGlyphs` (and its code points are reported),
  /// annotation in a transparent colour without a halo is `transparent`;
  /// neither is `outOfBounds`.
  @Test func textWithoutGlyphsOrColourSaysSo() throws {
    let pua = "\u{E000}\u{E001}"
    let p = try plan(
      scene([
        layer("pois", [point(px: 0, 0, #"{"n": "\#(pua)"}"#)], #""style": {"label": {"field": "n"}}"#),
        #"{"id": "a", "type": "annotation", "textField": "t", "referenceScale": 1000,"#
          + #""source": {"data": {"type": "FeatureCollection", "features": [\#(point(px: 0, 0, #"{"t": "\#(pua)", "k": 1}"#, id: "g")),"#
          + #"\#(point(px: 0, 0, #"{"t": "Clear", "k": 2}"#, id: "c"))]}},"#
          + ##""sublayers": [{"id": "ghost", "where": {"k": 2}, "style": {"color": "#0000"}}, {"id": "rest", "style": {}}]}"##,
      ]))
    #expect(p.text.outcomes.map(\.hiddenReason) == [.noGlyphs])
    #expect(p.text.missingCodePoints == ["\u{E000}", "\u{E001}"])
    let texts = Dictionary(uniqueKeysWithValues: p.layers[1].annotations.map { ($0.feature.text, $0.outcome) })
    #expect(texts["g"] == .hidden(.noGlyphs))
    #expect(texts["c"] == .hidden(.transparent))
    #expect(p.layers.map(\.drawnFeatures) == [0, 0])
  }

  /// A layer whose opacity rounds to alpha 0 draws nothing and counts nothing.
  @Test func aLayerTooFaintToShowIsNotDrawn() throws {
    let p = try plan(scene([layer("faint", [point(px: 0, 0, "{}")], #""style": {"marker": {}}, "opacity": 0.001"#)]))
    #expect(p.layers[0].status == [.active])
    #expect(p.layers[0].drawnFeatures == 0)
  }

  /// A label of wide glyphs (‱ is 1.74 em in DejaVu Sans) anchored 180 px
  /// right of the image still reaches into it: the reach rule takes the
  /// fonts' widest advance, not one em per character.
  @Test func wideGlyphsReachAsFarAsTheyAre() throws {
    let text = String(repeating: "\u{2031}", count: 10)
    let p = try plan(
      scene([layer("wide", [point(px: 280, 0, #"{"n": "\#(text)"}"#)], #""style": {"label": {"field": "n", "anchors": ["right"]}}"#)]))
    #expect(fonts.maxAdvance >= 1.74)
    #expect(p.text.outcomes.first?.isPlaced == true)
    #expect(p.layers[0].drawnFeatures == 1)
  }

  /// An unknown feature id is a problem whether or not the annotation shows
  /// at this scale and floor.
  @Test func anUnknownIdWarnsEvenWhenTheAnnotationIsHidden() throws {
    let p = try plan(
      scene(
        [layer("valves", [point(px: 0, 0, "{}", id: "V-17")], #""style": {"marker": {}}"#)],
        extra: #", "viewAnnotations": [{"id": "va", "feature": {"layer": "valves", "id": "V-71"}, "text": "x", "visible": false}]"#))
    #expect(p.viewAnnotations.outcomes[0].hiddenReason == .notVisible)
    #expect(p.viewAnnotations.outcomes[0].problem == .unknownFeature(layer: "valves", id: FloorValue("V-71"), suggestion: "V-17"))
  }

  /// One misspelt name used by several rules is one problem naming each key.
  @Test func aNameUsedTwiceIsOneProblem() throws {
    let p = try plan(
      scene([
        layer(
          "l", [point(px: 0, 0, #"{"status": "a"}"#)],
          #""rules": [{"where": {"statsu": "a"}, "style": {"marker": {}}}, {"where": {"statsu": "b"}, "style": {"marker": {}}}]"#)
      ]))
    #expect(p.layers[0].problems == [.unknownProperty(key: "rules[0].where, rules[1].where", property: "statsu", suggestion: "status")])
  }
}

/// `drawn` on real geometry at a scale where it vanishes: five 10-m squares
/// at 1:1,000,000 put no pixel into the image and are not drawn.
@Suite struct VanishingGeometryTests {
  @Test func buildingsTooSmallToShowAreNotDrawn() throws {
    var features: [String] = []
    for i in 0..<5 {
      let x = Double(i) * 0.001
      let d = 0.00009  // about 10 m
      features.append(
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[\#(x), 0], [\#(x + d), 0], [\#(x + d), \#(d)], [\#(x), \#(d)], [\#(x), 0]]]}}"#)
    }
    let json = ##"{"version": 1, "map": {"center": [0, 0], "scale": 1000000, "size": [100, 100]}, "layers": [{"id": "b", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [\##(features.joined(separator: ","))]}}, "style": {"fill": "#000"}}]}"##
    let scene = try SceneLoader.decode(Array(json.utf8), file: "t.json", baseDirectory: "")
    let snapshot = try Snapshot.render(scene)
    #expect(snapshot.canvas.buffer.allSatisfy { $0 == 0xFFFF_FFFF }, "nothing shows")
    #expect(snapshot.layers[0].drawnFeatures == 0)
    // At 1:1000 the same squares are drawn.
    #expect(try FramePlan.make(scene, overrides: ViewOverrides(scale: 1000, center: (0.002, 0), size: (2000, 100))).layers[0].drawnFeatures == 5)
  }
}

// MARK: - Real data

/// Helsinki POIs at 1:2000 without labels: a POI is drawn exactly when its
/// marker (a 6-px circle with a 1-px outline: radius 3.5 px) reaches into the
/// image, counted here from the coordinates alone.
@Suite struct HelsinkiCountTests {
  @Test func poisDrawnAreThoseWhoseMarkerReachesTheImage() throws {
    var scene = try SceneLoader.load(path: Repository.root + "/Golden/helsinki/scene.json")
    scene.layers.removeAll { $0.id != "pois" }
    let plan = try FramePlan.make(scene, overrides: ViewOverrides(scale: 2000))
    let v = plan.state.viewport
    guard case .features(let source, _) = scene.layers[0].content, case .success(let pois) = SourceLoader().load(source, projection: .webMercator) else {
      Issue.record("the POIs could not be loaded")
      return
    }
    func distanceToImage(_ p: Point) -> Double {
      let q = v.toDevice(p)
      let dx = max(0, -q.x, q.x - Double(v.deviceWidth))
      let dy = max(0, -q.y, q.y - Double(v.deviceHeight))
      return Double(dx * dx + dy * dy).squareRoot()
    }
    let distances = pois.features.flatMap { $0.geometry.points.map(distanceToImage) }
    // A margin of 0.2 px either side of the radius for the flattened circle.
    let surely = distances.filter { $0 < 3.3 }.count
    let possibly = distances.filter { $0 < 3.7 }.count
    let drawn = plan.layers[0].drawnFeatures
    #expect(surely > 0 && surely < pois.features.count / 10)
    #expect(drawn >= surely && drawn <= possibly, "drawn \(drawn), markers reaching in: \(surely)…\(possibly)")
  }
}
