import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Comparing two reports (`ReportDiff`, for `mapsnap diff --reports`): what
/// became visible or hidden and why, on reports of real renders of small
/// scenes with a known answer — at two scales, on two floors, with a view
/// annotation moved, a layer added or broken — and the error for documents
/// that are not reports.
@Suite struct ReportDiffTests {
  let fonts = try! FontLibrary(directories: [FontLibrary.bundledDirectory])

  /// Logical pixels at 1:1000 and 96 DPI, in degrees of longitude at the equator.
  static let pixelDegrees = 1000 / (96 * 39.37) / 111_319.490_793_273_57

  private func report(_ body: String, scale: Double? = nil, floor: FloorValue? = nil, detail: ReportDetail = .full) throws -> JSONValue {
    let scene = try SceneLoader.decode(Array(("{\"version\": 1, " + body + "}").utf8), file: "t.json", baseDirectory: "")
    return try FramePlan.make(scene, overrides: ViewOverrides(scale: scale, floor: floor), fonts: fonts).report(detail: detail)
  }

  /// `[lon, lat]` of a point `x` px right and `y` px down of the centre at 1:1000.
  private func at(_ x: Double, _ y: Double) -> String { "[\(x * Self.pixelDegrees), \(-y * Self.pixelDegrees)]" }

  private func point(_ x: Double, _ y: Double, _ properties: String, id: String? = nil) -> String {
    let idMember = id.map { #""id": "\#($0)", "# } ?? ""
    return #"{"type": "Feature", \#(idMember)"properties": \#(properties), "geometry": {"type": "Point", "coordinates": \#(at(x, y))}}"#
  }

  private func layer(_ id: String, _ features: [String], _ rest: String) -> String {
    #"{"id": "\#(id)", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}}, \#(rest)}"#
  }

  private func scene(_ layers: [String], extra: String = "") -> String {
    #""map": {"center": [0, 0], "scale": 1000, "size": [200, 100]}, "layers": [\#(layers.joined(separator: ","))]\#(extra)"#
  }

  /// Two POIs 60 px apart at 1:1000 (15 px at 1:4000, where their labels
  /// overlap), a road layer shown up to 1:2000 with a labelled point, an
  /// annotation layer whose class `near` is shown up to 1:2000, a view
  /// annotation shown up to 1:2000 and one tied to the road's point.
  private var mixed: String {
    scene(
      [
        layer("pois", [point(-30, 0, #"{"n": "Cafe"}"#, id: "cafe"), point(30, 0, #"{"n": "Kiosk"}"#, id: "kiosk")], #""style": {"label": {"field": "n"}}"#),
        layer("roads", [point(60, 30, #"{"n": "Main St"}"#, id: "main")], #""minScale": 2000, "style": {"marker": {"size": 6}, "label": {"field": "n"}}"#),
        #"{"id": "anno", "type": "annotation", "textField": "t", "referenceScale": 1000,"#
          + #""source": {"data": {"type": "FeatureCollection", "features": [\#(point(-60, -30, #"{"t": "N1", "k": "near"}"#, id: "n1")),"#
          + #"\#(point(60, -30, #"{"t": "A1"}"#, id: "a1"))]}},"#
          + #""sublayers": [{"id": "near", "where": {"k": "near"}, "minScale": 2000, "style": {"size": 10}}, {"id": "all", "style": {"size": 10}}]}"#,
      ],
      extra: #", "viewAnnotations": [{"id": "note", "coordinate": \#(at(-60, 25)), "text": "Note", "minScale": 2000},"#
        + #"{"id": "road-note", "feature": {"layer": "roads", "id": "main"}, "text": "Main"}]"#)
  }

  private func diff(_ a: JSONValue, _ b: JSONValue) throws -> ReportDiff { try ReportDiff.compare(a, b) }

  private func lines(_ d: ReportDiff) -> [String] { d.changes.map(\.line) }

  // MARK: - Scale

  /// 1:1000 → 1:4000: the kiosk's label collides with the café's, the road
  /// layer goes out of scale (its label and the view annotation tied to its
  /// feature go with it), the annotation class `near` goes out of scale, and
  /// the note passes its minScale. Every change, in report order.
  @Test func aScaleChangeListsEachChangeInReportOrder() throws {
    let d = try diff(report(mixed), report(mixed, scale: 4000))
    #expect(d.a == ReportDiff.Frame(scale: 1000, floor: nil))
    #expect(d.b == ReportDiff.Frame(scale: 4000, floor: nil))
    let kiosk = FeatureKey(id: FloorValue("kiosk"), index: 1)
    let expected: [ReportChange] = [
      ReportChange(item: .count(layer: "pois", sublayer: nil, name: "features.drawn"), kind: .count, a: ReportSide(.count(2)), b: ReportSide(.count(1))),
      ReportChange(item: .count(layer: "pois", sublayer: nil, name: "labels.placed"), kind: .count, a: ReportSide(.count(2)), b: ReportSide(.count(1))),
      ReportChange(
        item: .count(layer: "pois", sublayer: nil, name: "labels.hidden.collision"), kind: .count, a: ReportSide(.count(0)), b: ReportSide(.count(1))),
      ReportChange(
        item: .label(layer: "pois", feature: kiosk, part: 0, text: "Kiosk"), kind: .hidden, a: ReportSide(.outcome("placed")),
        b: ReportSide(.outcome("collision"), blockedBy: ["pois/cafe"])),
      ReportChange(item: .layer("roads"), kind: .hidden, a: ReportSide(.status(["active"])), b: ReportSide(.status(["outOfScale"]))),
      ReportChange(item: .count(layer: "roads", sublayer: nil, name: "features.drawn"), kind: .count, a: ReportSide(.count(1)), b: ReportSide(.count(0))),
      ReportChange(item: .count(layer: "roads", sublayer: nil, name: "labels.placed"), kind: .count, a: ReportSide(.count(1)), b: ReportSide(.count(0))),
      ReportChange(
        item: .label(layer: "roads", feature: FeatureKey(id: FloorValue("main"), index: 0), part: 0, text: "Main St"), kind: .hidden,
        a: ReportSide(.outcome("placed")), b: .absent(reason: "layer outOfScale")),
      ReportChange(item: .count(layer: "anno", sublayer: nil, name: "features.drawn"), kind: .count, a: ReportSide(.count(2)), b: ReportSide(.count(1))),
      ReportChange(item: .sublayer(layer: "anno", id: "near"), kind: .hidden, a: ReportSide(.status(["active"])), b: ReportSide(.status(["outOfScale"]))),
      ReportChange(item: .count(layer: "anno", sublayer: "near", name: "features.drawn"), kind: .count, a: ReportSide(.count(1)), b: ReportSide(.count(0))),
      ReportChange(
        item: .annotationText(layer: "anno", sublayer: "near", feature: FeatureKey(id: FloorValue("n1"), index: 0), part: 0, text: "N1"),
        kind: .hidden, a: ReportSide(.outcome("drawn")), b: ReportSide(.outcome("outOfScale"))),
      ReportChange(item: .viewAnnotation("note"), kind: .hidden, a: ReportSide(.outcome("placed")), b: ReportSide(.outcome("hidden"), reason: "outOfScale")),
      ReportChange(
        item: .viewAnnotation("road-note"), kind: .hidden, a: ReportSide(.outcome("placed")), b: ReportSide(.outcome("hidden"), reason: "featureHidden")),
    ]
    #expect(d.changes.count == expected.count)
    for (got, want) in zip(d.changes, expected) { #expect(got == want) }
    #expect(
      d.text == """
        map: 1:1000, all floors → 1:4000, all floors
        count pois features.drawn: 2 → 1
        count pois labels.placed: 2 → 1
        count pois labels.hidden.collision: 0 → 1
        label pois kiosk "Kiosk": placed → collision (blocked by pois/cafe)
        layer roads: active → outOfScale
        count roads features.drawn: 1 → 0
        count roads labels.placed: 1 → 0
        label roads main "Main St": placed → absent (layer outOfScale)
        count anno features.drawn: 2 → 1
        sublayer anno/near: active → outOfScale
        count anno/near features.drawn: 1 → 0
        annotation text anno/near n1 "N1": drawn → outOfScale
        view annotation note: placed → hidden (outOfScale)
        view annotation road-note: placed → hidden (featureHidden)

        """)
  }

  /// Back from 1:4000 to 1:1000: the same items, each side swapped, what
  /// was hidden now shown.
  @Test func theReverseComparisonShowsWhatWasHidden() throws {
    let near = try report(mixed)
    let far = try report(mixed, scale: 4000)
    let forward = try diff(near, far).changes
    let back = try diff(far, near).changes
    #expect(back.count == forward.count)
    for (f, b) in zip(forward, back) {
      #expect(b.item == f.item)
      #expect(b.a == f.b && b.b == f.a)
      #expect(b.kind == (f.kind == .hidden ? .shown : f.kind))
    }
    #expect(back.map(\.line).contains(#"label pois kiosk "Kiosk": collision (blocked by pois/cafe) → placed"#))
  }

  /// The golden utility scene from 1:2000 to 1:2001: the class `Open`
  /// (minScale 2000) goes out of scale with each of its texts.
  @Test func theUtilityClassOpenGoesOutOfScaleAt2001() throws {
    let scene = try SceneLoader.load(path: Repository.root + "/Golden/utility/scene.json")
    let at2000 = try FramePlan.make(scene, overrides: ViewOverrides(scale: 2000), fonts: fonts).report()
    let at2001 = try FramePlan.make(scene, overrides: ViewOverrides(scale: 2001), fonts: fonts).report()
    let d = try diff(at2000, at2001)
    let texts = d.changes.filter { if case .annotationText = $0.item { true } else { false } }
    #expect(
      Array(lines(d).prefix(3)) == [
        "count valve-anno features.drawn: 10 → 5", "sublayer valve-anno/Open: active → outOfScale", "count valve-anno/Open features.drawn: 5 → 0",
      ])
    #expect(texts.count == 5)
    #expect(texts.allSatisfy { $0.kind == .hidden && $0.a.state == .outcome("drawn") && $0.b.state == .outcome("outOfScale") })
    #expect(texts.allSatisfy { if case .annotationText(_, "Open", _, _, _) = $0.item { true } else { false } })
    #expect(lines(d)[3].hasPrefix("annotation text valve-anno/Open ") && lines(d)[3].hasSuffix(#" "V-101": drawn → outOfScale"#))
    #expect(d.changes.count == 3 + 5)
  }

  // MARK: - Nothing changed

  /// The same report, the same scene rendered twice, and a full report
  /// against a counts-only one of the same frame: no change.
  @Test func identicalReportsGiveNoChange() throws {
    let r = try report(mixed, scale: 4000)
    #expect(try diff(r, r).changes.isEmpty)
    #expect(try diff(report(mixed), report(mixed)).changes.isEmpty)
    #expect(try diff(r, report(mixed, scale: 4000, detail: .counts)).changes.isEmpty)
    let scene = try SceneLoader.load(path: Repository.root + "/Golden/utility/scene.json")
    let u = try FramePlan.make(scene, overrides: ViewOverrides(scale: 2001), fonts: fonts).report()
    let d = try diff(u, u)
    #expect(d.changes.isEmpty)
    #expect(d.text == "map: 1:2001, all floors → 1:2001, all floors\nno change in what is visible\n")
    #expect(d.json["changes"] == .array([]))
  }

  /// A counts-only report (`--report-detail counts`) on one side: labels and
  /// texts are compared by their counts only, everything else as before.
  @Test func aCountsOnlyReportIsComparedByCounts() throws {
    let near = try report(mixed)
    let full = try diff(near, report(mixed, scale: 4000)).changes
    let counts = try diff(near, report(mixed, scale: 4000, detail: .counts)).changes
    let withoutEntries = full.filter {
      switch $0.item {
      case .label, .annotationText: return false
      default: return true
      }
    }
    #expect(withoutEntries.count == full.count - 3)
    #expect(counts == withoutEntries)
  }

  // MARK: - Reasons while hidden

  /// Hidden on both sides for another reason is a change: the class `near`
  /// made invisible at 1:4000 is `notVisible+outOfScale` instead of
  /// `outOfScale`, its text `notVisible` instead of `outOfScale`; a view
  /// annotation that collided at 1:1000 is out of scale at 1:4000.
  @Test func aNewReasonWhileHiddenIsAChange() throws {
    let hiddenNear = mixed.replacingOccurrences(
      of: #""minScale": 2000, "style": {"size": 10}"#, with: #""minScale": 2000, "visible": false, "style": {"size": 10}"#)
    #expect(hiddenNear != mixed)
    let d = try diff(report(mixed, scale: 4000), report(hiddenNear, scale: 4000))
    #expect(
      lines(d) == [
        "sublayer anno/near: outOfScale → notVisible+outOfScale",
        #"annotation text anno/near n1 "N1": outOfScale → notVisible"#,
      ])
    #expect(d.changes.map(\.kind) == [.reason, .reason])

    let boxes = scene(
      [],
      extra: #", "viewAnnotations": [{"id": "first", "coordinate": \#(at(0, 0)), "text": "First"},"#
        + #"{"id": "second", "coordinate": \#(at(0, 0)), "text": "Second", "minScale": 2000}]"#)
    let v = try diff(report(boxes), report(boxes, scale: 4000))
    #expect(lines(v) == ["view annotation second: hidden (collision, blocked by first) → hidden (outOfScale)"])
    #expect(v.changes.first?.kind == .reason)
  }

  /// What blocks a collision is not compared: with the priorities swapped,
  /// `p` and `q` trade places (listed) while `r` stays hidden by a collision,
  /// blocked by another box (not listed).
  @Test func anotherBlockerAloneIsNoChange() throws {
    func boxes(_ p: Int, _ q: Int) -> String {
      scene(
        [],
        extra: #", "viewAnnotations": [{"id": "p", "coordinate": \#(at(0, 0)), "text": "P", "priority": \#(p)},"#
          + #"{"id": "q", "coordinate": \#(at(0, 0)), "text": "Q", "priority": \#(q)},"#
          + #"{"id": "r", "coordinate": \#(at(0, 0)), "text": "R"}]"#)
    }
    let a = try report(boxes(2, 1))
    let b = try report(boxes(1, 2))
    #expect(a["viewAnnotations"]?[2]?["blockedBy"] == ["p"])
    #expect(b["viewAnnotations"]?[2]?["blockedBy"] == ["q"])
    let d = try diff(a, b)
    #expect(
      lines(d) == [
        "view annotation p: placed → hidden (collision, blocked by q)",
        "view annotation q: hidden (collision, blocked by p) → placed",
      ])
    #expect(d.changes.map(\.kind) == [.hidden, .shown])
  }

  // MARK: - Scenes that differ

  /// A view annotation moved onto another is hidden by it.
  @Test func aViewAnnotationMovedOntoAnotherIsHidden() throws {
    func boxes(busAt x: Double) -> String {
      scene(
        [],
        extra: #", "viewAnnotations": [{"id": "shop", "coordinate": \#(at(-50, 0)), "text": "Shop"},"#
          + #"{"id": "bus", "coordinate": \#(at(x, 0)), "text": "Bus"}]"#)
    }
    let d = try diff(report(boxes(busAt: 50)), report(boxes(busAt: -45)))
    #expect(
      d.changes == [
        ReportChange(
          item: .viewAnnotation("bus"), kind: .hidden, a: ReportSide(.outcome("placed")),
          b: ReportSide(.outcome("hidden"), reason: "collision", blockedBy: ["shop"]))
      ])
  }

  /// On floor 2 the floor-1 label is gone and the floor-2 one shown (the one
  /// only in A first, as in a unified diff), and the desk's view annotation
  /// (floor 1) is hidden by `floor`.
  @Test func anotherFloorShowsAndHides() throws {
    let body = scene(
      [
        layer(
          "rooms", [point(-40, 0, #"{"n": "Lobby", "level": 1}"#, id: "lobby"), point(40, 0, #"{"n": "Office", "level": 2}"#, id: "office")],
          #""floorField": "level", "style": {"marker": {"size": 6}, "label": {"field": "n"}}"#)
      ], extra: #", "viewAnnotations": [{"id": "desk", "coordinate": \#(at(0, 30)), "text": "Desk", "floor": 1}]"#)
    let d = try diff(report(body, floor: FloorValue(1)), report(body, floor: FloorValue(2)))
    #expect(d.a.floor == FloorValue(1) && d.b.floor == FloorValue(2))
    #expect(
      d.text == """
        map: 1:1000, floor 1 → 1:1000, floor 2
        label rooms lobby "Lobby": placed → absent
        label rooms office "Office": absent → placed
        view annotation desk: placed → hidden (floor)

        """)
  }

  /// A layer only in B is `absent` in A, and so are its labels; no counts
  /// are compared for it. It comes where B has it.
  @Test func aLayerOnlyInOneReportIsAbsentInTheOther() throws {
    let extra = layer("extra", [point(0, -35, #"{"n": "New"}"#, id: "new")], #""style": {"label": {"field": "n"}}"#)
    let pois = layer("pois", [point(-60, 0, #"{"n": "Cafe"}"#, id: "cafe")], #""style": {"label": {"field": "n"}}"#)
    let roads = layer("roads", [point(60, 0, #"{"n": "Main St"}"#, id: "main")], #""style": {"label": {"field": "n"}}"#)
    let d = try diff(report(scene([pois, roads])), report(scene([pois, extra, roads])))
    #expect(
      d.changes == [
        ReportChange(item: .layer("extra"), kind: .shown, a: .absent(), b: ReportSide(.status(["active"]))),
        ReportChange(
          item: .label(layer: "extra", feature: FeatureKey(id: FloorValue("new"), index: 0), part: 0, text: "New"), kind: .shown, a: .absent(),
          b: ReportSide(.outcome("placed"))),
      ])
    #expect(lines(try diff(report(scene([pois, extra, roads])), report(scene([pois, roads])))) == [
      "layer extra: active → absent", #"label extra new "New": placed → absent"#,
    ])
  }

  /// A layer whose source cannot be loaded: `error`, with the report's
  /// message as the reason; its labels are absent because of it.
  @Test func aBrokenSourceGivesTheLayersMessage() throws {
    let ok = layer("roads", [point(60, 0, #"{"n": "Main St"}"#, id: "main")], #""style": {"label": {"field": "n"}}"#)
    let broken = #"{"id": "roads", "type": "features", "source": {"geojson": "/nonexistent/roads.geojson"}, "style": {"label": {"field": "n"}}}"#
    let b = try report(scene([broken]))
    guard case .string(let message)? = b["layers"]?[0]?["message"] else {
      Issue.record("the broken layer has no message")
      return
    }
    let d = try diff(report(scene([ok])), b)
    #expect(
      d.changes.first
        == ReportChange(item: .layer("roads"), kind: .hidden, a: ReportSide(.status(["active"])), b: ReportSide(.status(["error"]), reason: message)))
    #expect(lines(d).first == "layer roads: active → error (\(message))")
    #expect(lines(d).contains(#"label roads main "Main St": placed → absent (layer error)"#))
  }

  // MARK: - Identity

  /// Features with ids are matched by id, whatever their index; `7` is
  /// `"7"`. Without ids the digest of geometry and used properties is the
  /// identity: the same features at swapped positions are the same labels.
  @Test func featuresAreMatchedByIdElseByDigest() throws {
    let style = #""style": {"label": {"field": "n"}}"#
    let cafe = point(-50, 0, #"{"n": "Cafe"}"#, id: "cafe")
    let kiosk = point(50, 0, #"{"n": "Kiosk"}"#, id: "kiosk")
    let byID = try diff(report(scene([layer("pois", [cafe, kiosk], style)])), report(scene([layer("pois", [kiosk, cafe], style)])))
    #expect(byID.changes.isEmpty)

    // The report writes the id "7" as the number 7; a report holding the
    // string "7" names the same feature (ids compare as floors do: "7.0" and
    // "07" are 7 too), "L7" another.
    let seven = #"{"type": "Feature", "id": "7", "properties": {"n": "Seven"}, "geometry": {"type": "Point", "coordinates": \#(at(0, 0))}}"#
    let number = try report(scene([layer("pois", [seven], style)]))
    #expect(number["layers"]?[0]?["labels"]?["entries"]?[0]?["id"] == .number(7))
    let string = editing(number, ["layers", 0, "labels", "entries", 0, "id"], to: "7")
    #expect(try diff(number, string).changes.isEmpty)
    let other = editing(number, ["layers", 0, "labels", "entries", 0, "id"], to: "L7")
    #expect(lines(try diff(number, other)) == [#"label pois 7 "Seven": placed → absent"#, #"label pois L7 "Seven": absent → placed"#])

    let alpha = point(-50, 0, #"{"n": "Alpha"}"#)
    let bravo = point(50, 0, #"{"n": "Bravo"}"#)
    let byDigest = try diff(report(scene([layer("pois", [alpha, bravo], style)])), report(scene([layer("pois", [bravo, alpha], style)])))
    #expect(lines(byDigest) == [])
    // Another text is another feature: the old label absent, the new one new.
    let charlie = point(-50, 0, #"{"n": "Charlie"}"#)
    let renamed = try diff(report(scene([layer("pois", [alpha], style)])), report(scene([layer("pois", [charlie], style)])))
    #expect(lines(renamed).count == 2)
  }

  /// Two features with the same id and text are matched in order: at
  /// 1:4000 the second one's label collides with the first's, and only the
  /// second (index 1) is listed.
  @Test func duplicatesAreMatchedInOrder() throws {
    let style = #""style": {"label": {"field": "n"}}"#
    let body = scene([layer("pois", [point(-30, 0, #"{"n": "Same"}"#, id: "dup"), point(30, 0, #"{"n": "Same"}"#, id: "dup")], style)])
    let d = try diff(report(body), report(body, scale: 4000))
    let labels = d.changes.filter { if case .label = $0.item { true } else { false } }
    #expect(
      labels == [
        ReportChange(
          item: .label(layer: "pois", feature: FeatureKey(id: FloorValue("dup"), index: 1), part: 0, text: "Same"), kind: .hidden,
          a: ReportSide(.outcome("placed")), b: ReportSide(.outcome("collision"), blockedBy: ["pois/dup"]))
      ])
  }

  /// The order of the merge, as a unified diff: shared items in B's order,
  /// and before each, what only A has, then what only B has.
  @Test func itemsOfOneSideComeWhereTheirReportHasThem() {
    let pairs = ReportDiff.match(["a", "x", "b", "c", "z"], ["a", "y", "c", "b", "w"], key: { $0 })
    #expect(pairs.map { "\($0.0 ?? "-")\($0.1 ?? "-")" } == ["aa", "x-", "-y", "cc", "bb", "z-", "-w"])
    let dup = ReportDiff.match(["d", "d", "e"], ["d", "e"], key: { $0 })
    #expect(dup.count == 3)
    #expect(dup[0].0 == "d" && dup[0].1 == "d")
    #expect(dup[1].0 == "d" && dup[1].1 == nil, "the second d of A has no partner")
    #expect(dup[2].0 == "e" && dup[2].1 == "e")
  }

  // MARK: - JSON rendering

  /// The JSON rendering: both frames, each change with its kind, item keys
  /// as the report names them, and both sides; it survives writing and
  /// parsing.
  @Test func theJSONRenderingNamesEachChange() throws {
    let d = try diff(report(mixed), report(mixed, scale: 4000))
    let json = d.json
    #expect(json["a"] == ["scale": 1000, "floor": nil])
    #expect(json["b"] == ["scale": 4000, "floor": nil])
    #expect(
      json["changes"]?[3] == [
        "change": "hidden", "item": "label", "layer": "pois", "id": "kiosk", "key": "kiosk", "part": 0, "text": "Kiosk",
        "a": ["state": "placed"], "b": ["state": "collision", "blockedBy": ["pois/cafe"]],
      ])
    #expect(json["changes"]?[4] == ["change": "hidden", "item": "layer", "layer": "roads", "a": ["state": ["active"]], "b": ["state": ["outOfScale"]]])
    #expect(
      json["changes"]?[7]?["b"] == ["state": "absent", "reason": "layer outOfScale"])
    #expect(
      json["changes"]?[10] == [
        "change": "count", "item": "count", "layer": "anno", "sublayer": "near", "count": "features.drawn", "a": ["state": 1], "b": ["state": 0],
      ])
    #expect(
      json["changes"]?[13] == [
        "change": "hidden", "item": "viewAnnotation", "id": "road-note", "a": ["state": "placed"],
        "b": ["state": "hidden", "reason": "featureHidden"],
      ])
    if case .array(let list)? = json["changes"] { #expect(list.count == d.changes.count) } else { Issue.record("no changes array") }
    #expect(try JSONParser.parse(JSONWriter().write(json)) == json)
  }

  // MARK: - Not a report

  /// A report with one value replaced (nil: the member removed); `path` is
  /// a list of keys (String) and indices (Int).
  private func editing(_ v: JSONValue, _ path: [Any], to new: JSONValue?) -> JSONValue {
    guard let step = path.first else { return new ?? .null }
    let rest = Array(path.dropFirst())
    switch (v, step) {
    case (.object(var o), let key as String):
      o[key] = rest.isEmpty ? new : editing(o[key] ?? .null, rest, to: new)
      return .object(o)
    case (.array(var a), let i as Int):
      a[i] = editing(a[i], rest, to: new)
      return .array(a)
    default:
      Issue.record("no \(step) in \(v)")
      return v
    }
  }

  /// Another version, a document that is not an object, a missing key, a
  /// value of the wrong type: the error names the report and the path, and
  /// the first report is checked first.
  @Test func aDocumentThatIsNotAReportIsAnErrorWithItsPath() throws {
    let good = try report(mixed)
    func error(_ a: JSONValue, _ b: JSONValue) -> ReportDiffError? {
      do {
        _ = try ReportDiff.compare(a, b)
        return nil
      } catch { return error }
    }
    let v1 = error(good, editing(good, ["schemaVersion"], to: 1))
    #expect(v1 == ReportDiffError(report: .b, path: "schemaVersion", kind: .unsupportedVersion, expected: "2", found: "number 1"))
    #expect(v1?.description == "report B: schemaVersion: not a report of schemaVersion 2: expected 2, found number 1")

    let scene = try JSONParser.parse("{\"version\": 1, " + mixed + "}")
    let notReport = error(scene, good)
    #expect(notReport == ReportDiffError(report: .a, path: "schemaVersion", kind: .missingKey, expected: "schemaVersion 2"))
    #expect(notReport?.description == "report A: schemaVersion: missing required key: expected schemaVersion 2")

    let array = error(good, [good])
    #expect(array?.description == "report B: expected a report object, found an array of 1 value")

    #expect(error(good, editing(good, ["viewAnnotations"], to: nil))?.path == "viewAnnotations")
    #expect(error(editing(good, ["map", "scale"], to: "big"), good)?.path == "map.scale")

    let status = error(good, editing(good, ["layers", 1, "status"], to: 3))
    #expect(status == ReportDiffError(report: .b, path: "layers[1].status", kind: .invalidValue, expected: "an array of status flags", found: "number 3"))
    #expect(status?.description == "report B: layers[1].status: expected an array of status flags, found number 3")
    #expect(error(good, editing(good, ["layers", 1, "status", 0], to: 1))?.path == "layers[1].status[0]")

    let outcome = error(good, editing(good, ["layers", 0, "labels", "entries", 1, "outcome"], to: nil))
    #expect(outcome?.kind == .missingKey)
    #expect(outcome?.path == "layers[0].labels.entries[1].outcome")
    #expect(error(good, editing(good, ["layers", 0, "labels", "entries", 1, "key"], to: -1))?.path == "layers[0].labels.entries[1].key")
    #expect(error(good, editing(good, ["layers", 2, "texts", 0, "sublayer"], to: nil))?.path == "layers[2].texts[0].sublayer")
    #expect(error(good, editing(good, ["layers", 2, "sublayers", 1, "features", "drawn"], to: 1.5))?.path == "layers[2].sublayers[1].features.drawn")
    #expect(error(good, editing(good, ["layers", 0, "labels", "hidden"], to: ["collision": "one"]))?.path == "layers[0].labels.hidden.collision")

    let visible = error(good, editing(good, ["viewAnnotations", 1, "visible"], to: "yes"))
    #expect(visible == ReportDiffError(report: .b, path: "viewAnnotations[1].visible", kind: .invalidValue, expected: "a boolean", found: #"string "yes""#))
    let hidden = editing(good, ["viewAnnotations", 0, "visible"], to: false)
    #expect(error(good, hidden)?.path == "viewAnnotations[0].reason", "a hidden view annotation needs its reason")

    let both = error(editing(good, ["layers"], to: nil), editing(good, ["schemaVersion"], to: 1))
    #expect(both?.report == .a && both?.path == "layers")
  }

  /// Keys the comparison does not know are ignored: later versions may add
  /// keys without changing schemaVersion.
  @Test func unknownKeysAreIgnored() throws {
    let good = try report(mixed)
    let more = editing(editing(good, ["layers", 0, "future"], to: [1, 2]), ["future"], to: "x")
    #expect(try diff(good, more).changes.isEmpty)
  }
}
