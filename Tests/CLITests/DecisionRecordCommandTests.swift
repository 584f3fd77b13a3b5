import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// Labels one by one in `mapsnap explain` (with `--layer` and `--id`) and in
/// the report (with `--report-detail`), and warnings for names that match
/// no property, through the built binary.
@Suite("labels and names in explain and the report (built binary)")
struct DecisionRecordCommandTests {
  /// Two POIs on one spot (the second label collides with the first) and one
  /// without a name, over the fixture's layers; `field` names the label's property.
  static func scene(field: String = "name") -> String {
    let pois = """
      { "id": "pois", "type": "features", "source": { "data": { "type": "FeatureCollection", "features": [
        { "type": "Feature", "id": "cafe", "properties": { "name": "Cafe" }, "geometry": { "type": "Point", "coordinates": [24.94, 60.17] } },
        { "type": "Feature", "id": "kiosk", "properties": { "name": "Kiosk" }, "geometry": { "type": "Point", "coordinates": [24.94, 60.17] } },
        { "type": "Feature", "properties": { "kind": "bench" }, "geometry": { "type": "Point", "coordinates": [24.9401, 60.17] } } ] } },
        "style": { "marker": { "size": 4 }, "label": { "field": "\(field)" } } }
      """
    return Fixture.sceneJSON(extraLayers: [pois])
  }

  private func write(_ json: String, in dir: String) throws {
    try Fixture.write(in: dir)
    try Files.write(json, to: dir + "/scene.json")
  }

  @Test("explain --layer pois: that layer's row and its labels grouped by outcome, with why")
  func explainOneLayer() throws {
    try withTemporaryDirectory { dir in
      try write(Self.scene(), in: dir)
      let r = try CLI.run(["explain", "scene.json", "--layer", "pois"], in: dir)
      #expect(r.status == 0, "\(r)")
      let text = r.stdoutText
      #expect(ExplainCommandTests.rows(text, after: "LAYER").map { $0.first ?? "" } == ["pois"], "\(text)")
      let labels = ExplainCommandTests.rows(text, after: "  OUTCOME")
      // A feature without id is named by its digest key (`FeatureKey`).
      let named = labels.map { $0.prefix(2).joined(separator: " ") }
      #expect(named.prefix(2) == ["placed cafe", "collision kiosk"], "\(text)")
      #expect(named.count == 3 && named[2].hasPrefix("noText ") && named[2].dropFirst(7).count == 12, "\(text)")
      #expect(text.contains("every anchor overlaps pois/cafe"), "\(text)")
      #expect(text.contains("labels of \"pois\" (1 placed, 1 collision, 1 noText):"), "\(text)")
    }
  }

  @Test("explain --id kiosk: only that feature's label")
  func explainOneFeature() throws {
    try withTemporaryDirectory { dir in
      try write(Self.scene(), in: dir)
      let r = try CLI.run(["explain", "scene.json", "--id", "kiosk"], in: dir)
      #expect(r.status == 0, "\(r)")
      let labels = ExplainCommandTests.rows(r.stdoutText, after: "  OUTCOME")
      #expect(labels.map { $0.prefix(2).joined(separator: " ") } == ["collision kiosk"], "\(r.stdoutText)")
    }
  }

  @Test("explain --layer with an unknown id: usage error 64 with a hint")
  func explainUnknownLayer() throws {
    try withTemporaryDirectory { dir in
      try write(Self.scene(), in: dir)
      let r = try CLI.run(["explain", "scene.json", "--layer", "poi"], in: dir)
      #expect(r.status == 64, "\(r)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("the scene has no layer \"poi\" (did you mean \"pois\"?)"), "\(r.stderr)")
    }
  }

  @Test("render --report: label entries by default, counts only with --report-detail counts")
  func reportDetail() throws {
    try withTemporaryDirectory { dir in
      try write(Self.scene(), in: dir)
      let full = try CLI.run(["scene.json", "-o", "a.png", "--report", "full.json"], in: dir)
      #expect(full.status == 0, "\(full)")
      let counts = try CLI.run(["scene.json", "-o", "b.png", "--report", "counts.json", "--report-detail", "counts"], in: dir)
      #expect(counts.status == 0, "\(counts)")
      let fullReport = try JSONParser.parse(try Files.read(dir + "/full.json"))
      let countsReport = try JSONParser.parse(try Files.read(dir + "/counts.json"))
      let pois = fullReport["layers"]?[3]
      #expect(pois?["id"] == .string("pois"))
      #expect(pois?["labels"]?["entries"]?[1]?["id"] == .string("kiosk"))
      #expect(pois?["labels"]?["entries"]?[1]?["outcome"] == .string("collision"))
      #expect(pois?["labels"]?["entries"]?[2]?["outcome"] == .string("noText"))
      #expect(pois?["features"]?["drawn"] == .number(3), "three markers in the frame")
      #expect(countsReport["layers"]?[3]?["labels"]?["entries"] == nil)
      #expect(countsReport["layers"]?[3]?["labels"]?["dropped"] == .number(1))
      // The picture is the same whatever the report says (the files differ
      // only in their input digest, which records the report's detail).
      #expect(try PNGDecoder.decode(contentsOf: dir + "/a.png").pixels == (try PNGDecoder.decode(contentsOf: dir + "/b.png").pixels))
    }
  }

  @Test("a label field no feature has: a warning on stderr with a hint, and in the report")
  func unknownFieldWarns() throws {
    try withTemporaryDirectory { dir in
      try write(Self.scene(field: "Name"), in: dir)
      let r = try CLI.run(["scene.json", "-o", "out.png", "--report", "report.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(
        r.stderr.contains(
          #"warning: layer "pois": style.label.field names the property "Name", which no feature of the source has (did you mean "name"?)"#),
        "\(r.stderr)")
      let report = try JSONParser.parse(try Files.read(dir + "/report.json"))
      #expect(report["layers"]?[3]?["status"] == .array([.string("active"), .string("warning")]))
      #expect(report["layers"]?[3]?["problems"]?[0]?["kind"] == .string("unknownProperty"))
    }
  }
}
