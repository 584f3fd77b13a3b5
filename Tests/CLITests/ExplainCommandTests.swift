import Foundation
import Testing
import _MapSnapTestSupport

/// `mapsnap explain`: the frame's decisions as tables on standard output,
/// without drawing or writing anything.
@Suite("mapsnap explain (built binary)")
struct ExplainCommandTests {
  /// The fixture scene with `viewAnnotations` spliced in before its final brace.
  static func sceneWithViewAnnotations(_ annotations: String) -> String {
    var json = Fixture.sceneJSON()
    let end = json.lastIndex(of: "}")!
    json.replaceSubrange(end...end, with: ",\n  \"viewAnnotations\": [\n\(annotations)\n  ]\n}")
    return json
  }

  /// One of each outcome: placed, collision, notVisible, outOfScale, floor,
  /// featureHidden, outOfBounds, and one tied to a graphic. The fixture's
  /// centre (24.94, 60.17) is the graphic g2's point.
  static let annotations = """
        { "id": "placed", "coordinate": [24.94, 60.17], "text": "Placed", "anchors": [{ "anchor": "bottom" }] },
        { "id": "blocked", "coordinate": [24.94, 60.17], "text": "Blocked", "anchors": [{ "anchor": "bottom" }] },
        { "id": "tied", "feature": { "layer": "route", "id": "g2" }, "text": "Tied", "anchors": [{ "anchor": "top" }] },
        { "id": "invisible", "coordinate": [24.94, 60.17], "text": "x", "visible": false },
        { "id": "far-in", "coordinate": [24.94, 60.17], "text": "x", "minScale": 1000 },
        { "id": "upstairs", "coordinate": [24.94, 60.17], "text": "x", "floor": 3 },
        { "id": "gone", "feature": { "layer": "areas", "id": 99 }, "text": "x" },
        { "id": "off", "coordinate": [25.5, 60.17], "text": "x" }
    """

  /// The rows of the table that starts with the header `first`, each split
  /// into whitespace-separated words.
  static func rows(_ text: String, after first: String) -> [[String]] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(where: { $0.hasPrefix(first) }) else { return [] }
    var out: [[String]] = []
    for line in lines[(start + 1)...] {
      if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
      out.append(line.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
    }
    return out
  }

  @Test("explain scene.json --scale 2000: exit 0, the layer table with each layer's status, nothing written")
  func layerTable() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let before = Files.listRecursively(dir)
      let r = try CLI.run(["explain", "scene.json", "--scale", "2000"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stderr.isEmpty, "no warnings expected: \(r.stderr)")
      let text = r.stdoutText
      #expect(text.hasPrefix("map: 1:2000 "), "\(text)")
      let layers = Self.rows(text, after: "LAYER")
      #expect(layers.map { $0.first ?? "" } == ["areas", "roads", "route"], "\(text)")
      for row in layers {
        #expect(row.count >= 4 && row[2] == "active", "\(row)")
      }
      #expect(layers.first { $0.first == "route" }?[1] == "graphics")
      #expect(!text.contains("VIEW ANNOTATION"), "no view annotation table without view annotations")
      #expect(Files.listRecursively(dir) == before, "explain wrote files: \(Files.listRecursively(dir))")
      #expect(!PNG.hasSignature(r.stdout))
    }
  }

  @Test("a layer out of its scale range says outOfScale and why")
  func layerOutOfScale() throws {
    try withTemporaryDirectory { dir in
      let scene = Fixture.sceneJSON(extraLayers: [
        """
        { "id": "detail", "type": "graphics", "minScale": 1000, "graphics": [] }
        """
      ])
      try Files.write(scene, to: dir + "/scene.json")
      try Files.write(Fixture.areasGeoJSON, to: dir + "/data/areas.geojson")
      try Files.write(Fixture.roadsGeoJSON, to: dir + "/data/roads.geojson")
      let r = try CLI.run(["explain", "scene.json", "--scale", "2000"], in: dir)
      #expect(r.status == 0, "\(r)")
      let row = try #require(Self.rows(r.stdoutText, after: "LAYER").first { $0.first == "detail" }, "\(r.stdoutText)")
      #expect(row[2] == "outOfScale", "\(row)")
      let line = try #require(r.stdoutText.split(separator: "\n").first { $0.hasPrefix("detail ") })
      #expect(line.contains("1:2000 is outside 1:1000 and closer (minScale 1000)"), "\(line)")
    }
  }

  @Test("the utility scene at 1:2001: the Open class is outOfScale with its range in words, Closed is active")
  func annotationSublayerOutOfScale() throws {
    let scene = Repository.root + "/Golden/utility/scene.json"
    try withTemporaryDirectory { dir in
      let r = try CLI.run(["explain", scene, "--scale", "2001"], in: dir)
      #expect(r.status == 0, "\(r)")
      let text = r.stdoutText
      let lines = text.split(separator: "\n").map(String.init)
      let anno = try #require(lines.first { $0.hasPrefix("valve-anno ") }, "\(text)")
      #expect(anno.contains("annotation") && anno.contains("active"), "\(anno)")
      let open = try #require(lines.first { $0.contains("└ Open") }, "\(text)")
      #expect(open.contains("outOfScale"), "\(open)")
      #expect(open.contains("0/5"), "\(open)")
      #expect(open.contains("1:2001 is outside 1:500 to 1:2000 (maxScale 500, minScale 2000)"), "\(open)")
      let closed = try #require(lines.first { $0.contains("└ Closed") }, "\(text)")
      #expect(closed.contains("active") && !closed.contains("outOfScale"), "\(closed)")
      for id in ["pipes", "valves"] {
        #expect(Self.rows(text, after: "LAYER").first { $0.first == id }?[2] == "active", "\(id)")
      }
      #expect(Files.list(dir).isEmpty, "explain wrote \(Files.list(dir))")

      // At exactly 1:2000 the class is shown (both bounds inclusive).
      let at2000 = try CLI.run(["explain", scene, "--scale", "2000"], in: dir)
      #expect(at2000.status == 0, "\(at2000)")
      let open2000 = try #require(at2000.stdoutText.split(separator: "\n").first { $0.contains("└ Open") })
      #expect(open2000.contains("active") && !open2000.contains("outOfScale"), "\(open2000)")
      #expect(open2000.contains("5/5"), "\(open2000)")
    }
  }

  @Test("each view annotation: shown yes/no, the anchor, and the reason word")
  func viewAnnotationTable() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.sceneWithViewAnnotations(Self.annotations), to: dir + "/scene.json")
      let before = Files.listRecursively(dir)
      let r = try CLI.run(["explain", "scene.json", "--scale", "2000", "--floor", "1"], in: dir)
      #expect(r.status == 0, "\(r)")
      // "gone" is tied to a feature id the layer does not have: a warning.
      #expect(r.stderr == "warning: view annotation \"gone\": layer \"areas\" has no feature with id \"99\"\n", "\(r.stderr)")
      let rows = Self.rows(r.stdoutText, after: "VIEW ANNOTATION")
      let expected: [(String, String, String)] = [
        ("placed", "yes", "bottom"), ("blocked", "no", "collision:"), ("tied", "yes", "top"), ("invisible", "no", "notVisible:"),
        ("far-in", "no", "outOfScale:"), ("upstairs", "no", "floor:"), ("gone", "no", "featureHidden:"), ("off", "no", "outOfBounds:"),
      ]
      #expect(rows.map { $0.first ?? "" } == expected.map(\.0), "\(r.stdoutText)")
      for (row, (id, shown, word)) in zip(rows, expected) {
        #expect(row.count >= 3 && row[1] == shown && row[2] == word, "\(id): \(row)")
      }
      let lines = r.stdoutText.split(separator: "\n").map(String.init)
      let blocked = try #require(lines.first { $0.hasPrefix("blocked ") })
      #expect(blocked.hasSuffix("overlaps placed"), "\(blocked)")
      let far = try #require(lines.first { $0.hasPrefix("far-in ") })
      #expect(far.contains("1:2000 is outside 1:1000 and closer (minScale 1000)"), "\(far)")
      let upstairs = try #require(lines.first { $0.hasPrefix("upstairs ") })
      #expect(upstairs.contains("on floor 3, showing 1"), "\(upstairs)")
      // A placed row has its box as x,y,w,h.
      let placed = try #require(rows.first)
      #expect(placed.count >= 4 && placed[3].split(separator: ",").count == 4, "\(placed)")
      #expect(Files.listRecursively(dir) == before, "explain wrote files: \(Files.listRecursively(dir))")
    }
  }

  /// Issue 37, item 13: an unknown id printed empty tables and exit 0.
  @Test("--id with an id the frame does not have: exit 64 with a did-you-mean; a known one prints its rows")
  func unknownFeatureID() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.sceneWithViewAnnotations(Self.annotations), to: dir + "/scene.json")
      let r = try CLI.run(["explain", "scene.json", "--scale", "2000", "--floor", "1", "--id", "plced"], in: dir)
      #expect(r.status == 64, "\(r)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("error: --id:") && r.stderr.contains("\"plced\""), "\(r.stderr)")
      #expect(r.stderr.contains("did you mean \"placed\"?"), "\(r.stderr)")
      let known = try CLI.run(["explain", "scene.json", "--scale", "2000", "--floor", "1", "--id", "placed"], in: dir)
      #expect(known.status == 0, "\(known)")
      #expect(known.stdoutText.contains("placed "), "\(known.stdoutText)")
    }
  }

  @Test("an invalid scene exits 2 with error: and writes nothing", arguments: [
    ("{ \"version\": 1, \"map\": { \"center\": [0, 0], \"scale\": 2000, \"size\": [10, 10] }\n  \"layers\": [] }", "scene.json:2:"),
    (
      "{ \"version\": 1, \"map\": { \"center\": [0, 0], \"scale\": 2000, \"size\": [10, 10] }, \"layers\": [],\n"
        + "  \"viewAnnotations\": [ { \"id\": \"a\", \"coordinate\": [0, 0], \"text\": \"t\", \"anchros\": [] } ] }",
      "viewAnnotations[0].anchros"
    ),
    (
      "{ \"version\": 1, \"map\": { \"center\": [0, 0], \"scale\": 2000, \"size\": [10, 10] }, \"layers\": [],\n"
        + "  \"viewAnnotations\": [ { \"id\": \"a\", \"coordinate\": [0, 0], \"text\": \"t\", \"anchors\": [ { \"anchor\": \"upper\" } ] } ] }",
      "viewAnnotations[0].anchors[0].anchor"
    ),
  ])
  func invalidScene(json: String, mustContain: String) throws {
    try withTemporaryDirectory { dir in
      try Files.write(json, to: dir + "/scene.json")
      let r = try CLI.run(["explain", "scene.json"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.hasPrefix("error:"), "\(r.stderr)")
      #expect(r.stderr.contains(mustContain), "\(r.stderr)")
      #expect(r.stdout.isEmpty, "\(r.stdoutText)")
      #expect(Files.list(dir) == ["scene.json"])
    }
  }

  @Test("a missing scene file exits 2")
  func missingScene() throws {
    try withTemporaryDirectory { dir in
      let r = try CLI.run(["explain", "nope.json"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.hasPrefix("error:"), "\(r.stderr)")
      #expect(Files.list(dir).isEmpty)
    }
  }

  @Test("--scale -3 is a usage error: exit 64, nothing on stdout, nothing written")
  func badScale() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let before = Files.listRecursively(dir)
      let r = try CLI.run(["explain", "scene.json", "--scale", "-3"], in: dir)
      #expect(r.status == 64, "\(r)")
      #expect(r.stdout.isEmpty, "\(r.stdoutText)")
      #expect(r.stderr.contains("--scale"), "\(r.stderr)")
      #expect(Files.listRecursively(dir) == before)
    }
  }

  @Test("explain and render agree: the report's view annotation outcomes are the table's")
  func agreesWithTheReport() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.sceneWithViewAnnotations(Self.annotations), to: dir + "/scene.json")
      let explain = try CLI.run(["explain", "scene.json", "--floor", "1"], in: dir)
      let render = try CLI.run(["scene.json", "--floor", "1", "-o", "out.png", "--report", "-"], in: dir)
      #expect(explain.status == 0 && render.status == 0, "\(explain) / \(render)")
      let report = try Report(render.stdout)
      let entries = try #require(report.root["viewAnnotations"] as? [[String: Any]])
      let rows = Self.rows(explain.stdoutText, after: "VIEW ANNOTATION")
      #expect(entries.count == rows.count)
      for (e, row) in zip(entries, rows) {
        #expect(e["id"] as? String == row[0])
        #expect((e["visible"] as? Bool) == (row[1] == "yes"), "\(row)")
        if let anchor = e["anchor"] as? String {
          #expect(row[2] == anchor)
        } else {
          #expect(row[2] == (e["reason"] as? String ?? "?") + ":", "\(row)")
        }
      }
    }
  }
}

extension ExplainCommandTests {
  /// The anchor taken is reported by its position in the list, so an
  /// annotation listing the same anchor twice with different offsets that
  /// takes the second says "anchor 2 of 2".
  @Test("a second anchor config with the same anchor name is reported as anchor 2")
  func sameAnchorNameTwice() throws {
    try withTemporaryDirectory { dir in
      let json = """
        { "version": 1, "map": { "center": [0, 0], "scale": 2000, "size": [200, 200] }, "layers": [],
          "viewAnnotations": [
            { "id": "first", "coordinate": [0, 0], "text": "A", "anchors": [{ "anchor": "bottom" }] },
            { "id": "twice", "coordinate": [0, 0], "text": "B", "anchors": [{ "anchor": "bottom" }, { "anchor": "bottom", "offsetY": 40 }] } ] }
        """
      try Files.write(json, to: dir + "/scene.json")
      let r = try CLI.run(["explain", "scene.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      let line = try #require(r.stdoutText.split(separator: "\n").first { $0.hasPrefix("twice ") })
      #expect(line.hasSuffix("anchor 2 of 2"), "\(line)")
    }
  }
}
