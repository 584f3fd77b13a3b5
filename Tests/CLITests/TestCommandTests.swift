import Foundation
import Testing
import _MapSnapTestSupport

/// `mapsnap test` end to end: the project's own goldens, a missing image,
/// record mode (flag and environment, refused under CI), a failing image
/// with its artifacts, HTML and JUnit, a changed report, GitHub annotations,
/// and a case that cannot run.
@Suite("mapsnap test (built binary)")
struct TestCommandTests {
  /// No CI and no recording unless a test says so.
  static let clean: [String: String?] = ["CI": nil, "MAPSNAP_RECORD": nil, "GITHUB_ACTIONS": nil]

  @Test("mapsnap test Golden: the project's goldens pass as they are, with an HTML report and JUnit XML")
  func projectGoldens() throws {
    try withTemporaryDirectory { dir in
      let r = try CLI.run(["test", Repository.root + "/Golden", "--quiet"], in: dir, environment: Self.clean)
      #expect(r.status == 0, "\(r)")
      #expect(r.stderr.contains("82 passed, 0 failed, 0 could not run, of 82"), "\(r.stderr)")
      #expect(!r.stderr.contains("obsolete") && !r.stderr.contains("not a case"), "every file in Golden is an image, a report or an icon: \(r.stderr)")
      let junit = try String(decoding: Files.read(dir + "/mapsnap-test-junit.xml"), as: UTF8.self)
      #expect(junit.contains("tests=\"82\" failures=\"0\" errors=\"0\""), "\(junit.prefix(300))")
      #expect(junit.components(separatedBy: "<testcase ").count - 1 == 82)
      #expect(Files.exists(dir + "/mapsnap-test-report.html"))
    }
  }

  /// A case folder `cases/roads` over the CLI fixture scene: 1:2000 and a
  /// variant with a marker.
  private func writeCase(in dir: String, golden: String = #"{"scales": [2000], "variants": {"marker": {"scale": 2000, "overlays": [{"marker": [24.94, 60.17]}]}}}"#) throws {
    try Fixture.write(in: dir + "/cases/roads")
    try Files.write(golden, to: dir + "/cases/roads/golden.json")
  }

  @Test("missing images fail; --record missing writes them and fails; the next run passes; recording is refused under CI")
  func recordMissing() throws {
    try withTemporaryDirectory { dir in
      try writeCase(in: dir)
      let missing = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(missing.status == 1, "\(missing)")
      #expect(missing.stderr.contains("✗ roads/2000: no expected image 2000.png"), "\(missing.stderr)")
      let ci = try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: ["CI": "true", "MAPSNAP_RECORD": nil])
      #expect(ci.status == 64, "\(ci)")
      #expect(!Files.exists(dir + "/cases/roads/2000.png"))
      let recorded = try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean)
      #expect(recorded.status == 1, "\(recorded)")
      #expect(recorded.stderr.contains("recorded 2000.png, recorded 2000.report.json; re-run"), "\(recorded.stderr)")
      #expect(Files.exists(dir + "/cases/roads/2000.png") && Files.exists(dir + "/cases/roads/marker.png"))
      let again = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(again.status == 0, "\(again)")
      // MAPSNAP_RECORD=all rewrites every image (and fails); under CI it is ignored.
      let all = try CLI.run(["test", "cases"], in: dir, environment: ["CI": nil, "MAPSNAP_RECORD": "all"])
      #expect(all.status == 1 && all.stderr.contains("recorded"), "\(all)")
      let ignored = try CLI.run(["test", "cases"], in: dir, environment: ["CI": "1", "MAPSNAP_RECORD": "all"])
      #expect(ignored.status == 0 && ignored.stderr.contains("ignored when CI is set"), "\(ignored)")
    }
  }

  @Test("a differing image fails with its artifacts, the HTML report embeds them, JUnit and GitHub annotations name it")
  func failingImage() throws {
    try withTemporaryDirectory { dir in
      try writeCase(in: dir)
      #expect(try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean).status == 1)
      // The expected 2000.png becomes the marker variant's picture.
      try Files.write(try Files.read(dir + "/cases/roads/marker.png"), to: dir + "/cases/roads/2000.png")
      let r = try CLI.run(["test", "cases"], in: dir, environment: ["CI": nil, "MAPSNAP_RECORD": nil, "GITHUB_ACTIONS": "true"])
      #expect(r.status == 1, "\(r)")
      #expect(r.stderr.contains("✗ roads/2000:") && r.stderr.contains("px differ"), "\(r.stderr)")
      // The message names the rule and the mapsnap diff options that count the same pixels.
      #expect(r.stderr.contains("compared exactly (mapsnap diff --threshold 0 --include-aa)"), "\(r.stderr)")
      #expect(Files.exists(dir + "/mapsnap-test-artifacts/roads/2000.actual.report.json"), "the actual report beside the actual image")
      #expect(r.stderr.contains("✓ roads/marker"), "\(r.stderr)")
      #expect(r.stdoutText.contains("::error file=") && r.stdoutText.contains("title=mapsnap test roads/2000::"), "\(r.stdoutText)")
      for suffix in ["actual", "diff", "expected"] {
        #expect(Files.exists(dir + "/mapsnap-test-artifacts/roads/2000.\(suffix).png"), "\(suffix)")
      }
      let html = try String(decoding: Files.read(dir + "/mapsnap-test-report.html"), as: UTF8.self)
      #expect(html.components(separatedBy: "data:image/png;base64,").count - 1 == 3, "expected, actual and diff, each embedded once")
      #expect(html.contains("type=\"range\""))
      // The slider shows the actual image (on top, clipped from the right) left of the split.
      #expect(html.contains("actual left, expected right") && !html.contains("expected left"), "the slider's label")
      let junit = try String(decoding: Files.read(dir + "/mapsnap-test-junit.xml"), as: UTF8.self)
      #expect(junit.contains("failures=\"1\"") && junit.contains("<failure message="), "\(junit)")
    }
  }

  @Test("an expected report that differs fails with the visibility changes; a bad golden.json cannot run")
  func reportsAndBadCases() throws {
    try withTemporaryDirectory { dir in
      try writeCase(in: dir, golden: #"{"scales": [2000]}"#)
      #expect(try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean).status == 1)
      // The expected report: the scene with the marker overlay (one more layer).
      #expect(try CLI.run(["cases/roads/scene.json", "-o", "x.png", "--report", "cases/roads/2000.report.json", "--marker", "24.94,60.17"], in: dir).status == 0)
      let r = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(r.status == 1, "\(r)")
      #expect(r.stderr.contains("the report changed") && r.stderr.contains("layer @overlay-1: active → absent"), "\(r.stderr)")
      try Files.write(#"{"scales": [2000], "threshold": 0.2}"#, to: dir + "/cases/roads/golden.json")
      let bad = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(bad.status == 2 && bad.stderr.contains("toleranceReason"), "\(bad)")
    }
  }

  @Test("an unreadable expected image cannot run (2) and is not overwritten by --record missing; stale artifacts go; names are checked")
  func robustness() throws {
    try withTemporaryDirectory { dir in
      try writeCase(in: dir, golden: #"{"scales": [2000]}"#)
      #expect(try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean).status == 1)
      let good = try Files.read(dir + "/cases/roads/2000.png")
      // A Git LFS pointer where the image should be.
      let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n"
      try Files.write(pointer, to: dir + "/cases/roads/2000.png")
      let lfs = try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean)
      #expect(lfs.status == 2 && lfs.stderr.contains("! roads/2000: the expected image cannot be read"), "\(lfs)")
      #expect(try String(decoding: Files.read(dir + "/cases/roads/2000.png"), as: UTF8.self) == pointer, "not overwritten")
      #expect(Files.exists(dir + "/mapsnap-test-artifacts/roads/2000.actual.png"))
      // Passing again removes the earlier run's artifacts.
      try Files.write(good, to: dir + "/cases/roads/2000.png")
      #expect(try CLI.run(["test", "cases"], in: dir, environment: Self.clean).status == 0)
      #expect(!Files.exists(dir + "/mapsnap-test-artifacts/roads/2000.actual.png"))
      // Reports CI cannot read make the run fail.
      #expect(try CLI.run(["test", "cases", "--junit", "/proc/no-such/j.xml"], in: dir, environment: Self.clean).status == 2)
      // Two images of one name, and a floor that would leave the folder, cannot run.
      try Files.write(#"{"scales": [2000], "variants": {"2000": {"scale": 4000}}}"#, to: dir + "/cases/roads/golden.json")
      let dup = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(dup.status == 2 && dup.stderr.contains("two images named \"2000\""), "\(dup)")
      try Files.write(#"{"scales": [2000], "floors": ["/../../x"]}"#, to: dir + "/cases/roads/golden.json")
      let escape = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(escape.status == 2 && escape.stderr.contains("file name"), "\(escape)")
      // --filter leaves out cases that cannot run and do not match.
      #expect(try CLI.run(["test", "cases", "--filter", "nomatch"], in: dir, environment: Self.clean).status == 2)
    }
  }

  @Test("a layer error fails the image and records nothing; warnings are printed per image; --strict fails on a warning")
  func layerErrorsAndWarnings() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir + "/cases/roads", writeRoads: false)
      try Files.write(#"{"scales": [2000]}"#, to: dir + "/cases/roads/golden.json")
      let broken = try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean)
      #expect(broken.status == 1, "\(broken)")
      #expect(broken.stderr.contains("✗ roads/2000: layer \"roads\" could not be loaded") && broken.stderr.contains("nothing recorded"), "\(broken.stderr)")
      #expect(broken.stderr.contains("    warning: layer \"roads\""), "\(broken.stderr)")
      #expect(!Files.exists(dir + "/cases/roads/2000.png") && !Files.exists(dir + "/cases/roads/2000.report.json"), "a missing source is never a golden")
      // A misspelt label field: a warning, printed; the image passes unless --strict.
      try Fixture.write(in: dir + "/cases/roads")
      let names = #"{ "id": "names", "type": "features", "source": { "geojson": "data/areas.geojson" }, "style": { "label": { "field": "knd" } } }"#
      try Files.write(Fixture.sceneJSON(extraLayers: [names]), to: dir + "/cases/roads/scene.json")
      #expect(try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean).status == 1)
      let warned = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(warned.status == 0, "\(warned)")
      #expect(warned.stderr.contains("✓ roads/2000\n    warning: layer \"names\"") && warned.stderr.contains("knd"), "\(warned.stderr)")
      let strict = try CLI.run(["test", "cases", "--strict"], in: dir, environment: Self.clean)
      #expect(strict.status == 1 && strict.stderr.contains("✗ roads/2000: --strict: 1 warning"), "\(strict)")
    }
  }

  @Test("folders that are not cases get a warning; obsolete expected files are listed, and removed on request when recording")
  func foldersAndObsoleteFiles() throws {
    try withTemporaryDirectory { dir in
      try writeCase(in: dir)
      #expect(try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean).status == 1)
      try Files.write(#"{"scales": [2000]}"#, to: dir + "/cases/parks/goldens.json")
      try Files.write("{}", to: dir + "/cases/notes/readme.json")
      try Files.write(#"{"scales": [2000]}"#, to: dir + "/cases/upper/Golden.json")
      // The variant is gone from golden.json: its image and report are obsolete.
      try Files.write(#"{"scales": [2000]}"#, to: dir + "/cases/roads/golden.json")
      let r = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(r.status == 0, "\(r)")
      #expect(r.stderr.contains("warning: parks: not a case: expected golden.json, found goldens.json (rename it to golden.json)"), "\(r.stderr)")
      #expect(r.stderr.contains("warning: notes: not a case: no golden.json"), "\(r.stderr)")
      #expect(r.stderr.contains("warning: roads: obsolete expected files that no scale or variant produces: marker.png, marker.report.json"), "\(r.stderr)")
      #expect(r.stderr.contains("warning: upper: not a case: expected golden.json, found Golden.json"), "\(r.stderr)")
      #expect(r.stderr.contains("4 warnings"), "\(r.stderr)")
      #expect(try CLI.run(["test", "cases", "--strict"], in: dir, environment: Self.clean).status == 1)
      #expect(try CLI.run(["test", "cases", "--remove-obsolete"], in: dir, environment: Self.clean).status == 64)
      let removed = try CLI.run(["test", "cases", "--record", "missing", "--remove-obsolete"], in: dir, environment: Self.clean)
      #expect(removed.status == 0 && removed.stderr.contains("removed obsolete cases/roads/marker.png"), "\(removed)")
      #expect(!Files.exists(dir + "/cases/roads/marker.png") && !Files.exists(dir + "/cases/roads/marker.report.json"))
      #expect(Files.exists(dir + "/cases/roads/2000.png") && Files.exists(dir + "/cases/roads/2000.report.json"))
    }
  }

  @Test("--record writes each image's report; a missing report fails unless \"reports\": false; an unreadable one cannot run")
  func recordWritesReports() throws {
    try withTemporaryDirectory { dir in
      try writeCase(in: dir)
      let recorded = try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean)
      #expect(recorded.stderr.contains("recorded 2000.png, recorded 2000.report.json; re-run"), "\(recorded.stderr)")
      #expect(Files.exists(dir + "/cases/roads/2000.report.json") && Files.exists(dir + "/cases/roads/marker.report.json"))
      #expect(try CLI.run(["test", "cases"], in: dir, environment: Self.clean).status == 0)
      try FileManager.default.removeItem(atPath: dir + "/cases/roads/marker.report.json")
      let missing = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(missing.status == 1 && missing.stderr.contains("✗ roads/marker: no expected report marker.report.json"), "\(missing)")
      // --record missing writes the one report that is missing.
      let one = try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: Self.clean)
      #expect(one.status == 1 && one.stderr.contains("✗ roads/marker: recorded marker.report.json; re-run") && one.stderr.contains("✓ roads/2000"), "\(one)")
      try Files.write("{\"schemaVersion\": ", to: dir + "/cases/roads/2000.report.json")
      let unreadable = try CLI.run(["test", "cases"], in: dir, environment: Self.clean)
      #expect(unreadable.status == 2 && unreadable.stderr.contains("! roads/2000: the expected report 2000.report.json cannot be read"), "\(unreadable)")
      try Files.write(#"{"scales": [2000], "reports": false}"#, to: dir + "/cases/roads/golden.json")
      #expect(try CLI.run(["test", "cases", "--filter", "2000"], in: dir, environment: Self.clean).status == 0)
    }
  }
}
