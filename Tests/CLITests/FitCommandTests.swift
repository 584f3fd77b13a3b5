import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// `--bounds`, `--padding` and `--fit` through the built binary.
@Suite("fitting the view (built binary)")
struct FitCommandTests {
  static let scene = ##"""
    { "version": 1, "map": { "center": [0, 0], "size": [300, 200] },
      "layers": [ { "id": "route", "type": "graphics", "graphics": [
        { "id": "g:1", "geometry": { "type": "LineString", "coordinates": [[24.93, 60.16], [24.95, 60.17]] },
          "style": { "stroke": "#0066ff", "strokeWidth": 3 } } ] } ] }
    """##

  @Test("--bounds and --padding: the report gives the fitted centre and scale")
  func bounds() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.scene, to: dir + "/scene.json")
      let r = try CLI.run(["scene.json", "--bounds", "24.93,60.16,24.95,60.17", "--padding", "10", "-o", "a.png", "--report", "a.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      let report = try JSONParser.parse(try Files.read(dir + "/a.json"))
      guard case .number(let lon)? = report["map"]?["center"]?[0], case .number(let scale)? = report["map"]?["scale"] else {
        Issue.record("no centre or scale in the report")
        return
      }
      #expect(abs(lon - 24.94) < 1e-9)
      #expect(scale > 10_000 && scale < 100_000)
    }
  }

  @Test("--fit LAYER:ID splits at the first ':'; bad values are usage errors or input errors")
  func fit() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.scene, to: dir + "/scene.json")
      let ok = try CLI.run(["scene.json", "--fit", "route:g:1", "-o", "b.png"], in: dir)
      #expect(ok.status == 0, "\(ok)")
      let usage = try CLI.run(["scene.json", "--fit", "route", "-o", "c.png"], in: dir)
      #expect(usage.status == 64, "\(usage)")
      let both = try CLI.run(["scene.json", "--fit", "route:g:1", "--bounds", "0,0,1,1", "-o", "c.png"], in: dir)
      #expect(both.status == 64, "\(both)")
      let missing = try CLI.run(["scene.json", "--fit", "rout:g:1", "-o", "c.png"], in: dir)
      #expect(missing.status == 2, "\(missing)")
      #expect(missing.stderr.contains("did you mean \"route\"?"), "\(missing.stderr)")
      #expect(!Files.exists(dir + "/c.png"))
      let badBounds = try CLI.run(["scene.json", "--bounds", "25,60,24,61", "-o", "c.png"], in: dir)
      #expect(badBounds.status == 64, "\(badBounds)")
    }
  }

  /// Issue 37, item 13: an unknown feature id had no hint.
  @Test("--fit and a manifest's fit with an unknown feature id: a did-you-mean, the case first; a manifest's bad centre names its value")
  func unknownFeatureID() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.scene, to: dir + "/scene.json")
      let typo = try CLI.run(["scene.json", "--fit", "route:g:2", "-o", "c.png"], in: dir)
      #expect(typo.status == 2, "\(typo)")
      #expect(typo.stderr.contains("did you mean \"g:1\"?"), "\(typo.stderr)")
      let cased = try CLI.run(["scene.json", "--fit", "route:G:1", "-o", "c.png"], in: dir)
      #expect(cased.stderr.contains("did you mean \"g:1\"?"), "\(cased.stderr)")
      try Files.write(
        #"{"scene": "scene.json", "output": "a.png", "fit": {"layer": "route", "id": "G:1"}}"# + "\n", to: dir + "/fit.jsonl")
      let batch = try CLI.run(["batch", "fit.jsonl"], in: dir)
      #expect(batch.status == 1, "\(batch)")
      #expect(batch.stderr.contains("did you mean \"g:1\"?"), "\(batch.stderr)")
      try Files.write(#"{"scene": "scene.json", "output": "a.png", "center": [200, 50]}"# + "\n", to: dir + "/center.jsonl")
      let center = try CLI.run(["batch", "center.jsonl"], in: dir)
      #expect(center.status == 2, "\(center)")
      #expect(center.stderr.contains("center[0]: expected a longitude within -180…180, found number 200"), "\(center.stderr)")
      #expect(!Files.exists(dir + "/c.png") && !Files.exists(dir + "/a.png"))
    }
  }
}
