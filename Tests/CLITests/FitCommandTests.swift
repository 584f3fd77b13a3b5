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

  /// Issue 37, item 10: with a scene `scale`, `--bounds` only moved the
  /// centre and `--padding` was ignored silently.
  @Test("a box on the command line or a manifest line fits the scale unless that line gives one; the report and explain say which")
  func boxOnTheLineFitsTheScale() throws {
    try withTemporaryDirectory { dir in
      // A thumbnail scene with its own scale and bounds.
      try Files.write(
        Self.scene.replacingOccurrences(of: #""center": [0, 0], "size""#, with: #""center": [0, 0], "scale": 500, "size""#),
        to: dir + "/thumb.json")
      func map(_ file: String) throws -> JSONValue { try #require(JSONParser.parse(try Files.read(dir + "/" + file))["map"]) }
      func number(_ v: JSONValue?) -> Double? { if case .number(let n)? = v { return n } else { return nil } }
      func text(_ v: JSONValue?) -> String? { if case .string(let s)? = v { return s } else { return nil } }

      let box = "24.93,60.16,24.95,60.17"
      let fitted = try CLI.run(["thumb.json", "--bounds", box, "--padding", "10", "-o", "a.png", "--report", "a.json"], in: dir)
      #expect(fitted.status == 0, "\(fitted)")
      let a = try map("a.json")
      #expect((number(a["scale"]) ?? 0) > 10_000, "the box's scale, not the scene's 500")
      #expect(text(a["fit"]?["box"]) == "bounds" && text(a["fit"]?["scale"]) == "fitted")
      #expect(number(a["fit"]?["padding"]?[0]) == 10)
      let wider = try CLI.run(["thumb.json", "--bounds", box, "--padding", "40", "-o", "b.png", "--report", "b.json"], in: dir)
      let b = try map("b.json")
      #expect(wider.status == 0 && (number(b["scale"]) ?? 0) > (number(a["scale"]) ?? 0), "the padding is used")

      let kept = try CLI.run(["thumb.json", "--bounds", box, "--scale", "3000", "--padding", "10", "-o", "c.png", "--report", "c.json"], in: dir)
      #expect(kept.status == 0, "\(kept)")
      let c = try map("c.json")
      #expect(number(c["scale"]) == 3000 && abs((number(c["center"]?[0]) ?? 0) - 24.94) < 1e-9)
      #expect(text(c["fit"]?["scale"]) == "kept" && text(c["fit"]?["keptBecause"]) == "sameLineGivesScale")
      #expect(c["fit"]?["padding"] == .null)

      // A manifest: a fitted line and a fixed-scale line over the same scene.
      try Files.write(
        #"{"scene": "thumb.json", "output": "d.png", "report": "d.json", "bounds": [24.93, 60.16, 24.95, 60.17], "padding": 10}"# + "\n"
          + #"{"scene": "thumb.json", "output": "e.png", "report": "e.json", "bounds": [24.93, 60.16, 24.95, 60.17], "zoom": 15}"# + "\n",
        to: dir + "/m.jsonl")
      let batch = try CLI.run(["batch", "m.jsonl"], in: dir)
      #expect(batch.status == 0, "\(batch)")
      let d = try map("d.json")
      let e = try map("e.json")
      #expect(number(d["scale"]) == number(a["scale"]), "the same fit as the command line's")
      #expect(text(e["fit"]?["keptBecause"]) == "sameLineGivesScale")

      // The scene's own bounds with its own scale: today's rule, the scale kept.
      try Files.write(
        Self.scene.replacingOccurrences(of: #""center": [0, 0], "size""#, with: #""bounds": [24.93, 60.16, 24.95, 60.17], "scale": 500, "size""#),
        to: dir + "/own.json")
      let own = try CLI.run(["own.json", "-o", "f.png", "--report", "f.json"], in: dir)
      #expect(own.status == 0, "\(own)")
      let f = try map("f.json")
      #expect(number(f["scale"]) == 500 && text(f["fit"]?["box"]) == "sceneBounds" && text(f["fit"]?["keptBecause"]) == "scaleGiven")
      let explain = try CLI.run(["explain", "thumb.json", "--bounds", box], in: dir)
      #expect(explain.stdoutText.contains("view: scale and centre fitted to the given bounds"), "\(explain.stdoutText)")
      let plain = try CLI.run(["thumb.json", "-o", "g.png", "--report", "g.json"], in: dir)
      let g = try map("g.json")
      #expect(plain.status == 0 && g["fit"] == nil, "no fit key for a view that was not fitted")
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
