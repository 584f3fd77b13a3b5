import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// `mapsnap diff` end to end: the summary line, the exit statuses, the diff
/// image, the allowances and the report changes.
@Suite("mapsnap diff (built binary)")
struct DiffCommandTests {
  @Test("equal images exit 0; a marker more exits 1 with the count, a diff image and the report changes")
  func equalAndDifferent() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      #expect(try CLI.run(["scene.json", "-o", "a.png", "--report", "a.json"], in: dir).status == 0)
      #expect(try CLI.run(["scene.json", "-o", "a2.png", "--threads", "1"], in: dir).status == 0)
      #expect(try CLI.run(["scene.json", "-o", "b.png", "--report", "b.json", "--marker", "24.9399,60.17|color:#000"], in: dir).status == 0)
      let same = try CLI.run(["diff", "a.png", "a2.png"], in: dir)
      #expect(same.status == 0, "\(same)")
      #expect(same.stdoutText.hasPrefix("0 px differ (0 %) of 160×120"), "\(same.stdoutText)")
      let differ = try CLI.run(["diff", "a.png", "b.png", "-o", "diff.png", "--reports", "a.json", "b.json"], in: dir)
      #expect(differ.status == 1, "\(differ)")
      let line = differ.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
      let count = Int(line.split(separator: " ").first ?? "") ?? 0
      #expect(count > 50 && line.contains("px differ"), "\(line)")
      #expect(differ.stdoutText.contains("layer @overlay-1: absent → active"), "\(differ.stdoutText)")
      // The diff image: red where the pin is, grey elsewhere, as many red pixels as counted.
      let image = try PNGDecoder.decode(contentsOf: dir + "/diff.png")
      #expect(image.width == 160 && image.height == 120)
      var red = 0
      for i in 0..<(160 * 120) where image.pixels[4 * i] == 255 && image.pixels[4 * i + 1] == 0 && image.pixels[4 * i + 2] == 0 { red += 1 }
      #expect(red == count)
      // Allowances.
      #expect(try CLI.run(["diff", "a.png", "b.png", "--max-diff-pixels", "\(count)"], in: dir).status == 0)
      #expect(try CLI.run(["diff", "a.png", "b.png", "--max-diff-pixels", "\(count - 1)"], in: dir).status == 1)
      #expect(try CLI.run(["diff", "a.png", "b.png", "--max-diff-ratio", "0.5"], in: dir).status == 0)
      let json = try CLI.run(["diff", "a.png", "b.png", "--json"], in: dir)
      let object = try JSONParser.parse(Array(json.stdoutText.utf8))
      #expect(object["differingPixels"] == .number(Double(count)), "\(json.stdoutText)")
      #expect(object["equal"] == .bool(false))
    }
  }

  @Test("cannot compare: exit 2 naming the file; bad options: exit 64")
  func cannotCompare() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      #expect(try CLI.run(["scene.json", "-o", "a.png"], in: dir).status == 0)
      #expect(try CLI.run(["scene.json", "-o", "big.png", "--size", "161x120"], in: dir).status == 0)
      let sizes = try CLI.run(["diff", "a.png", "big.png"], in: dir)
      #expect(sizes.status == 2 && sizes.stderr.contains("different sizes (160×120 and 161×120)"), "\(sizes)")
      let missing = try CLI.run(["diff", "a.png", "nope.png"], in: dir)
      #expect(missing.status == 2 && missing.stderr.contains("nope.png"), "\(missing)")
      let notPNG = try CLI.run(["diff", "a.png", "scene.json"], in: dir)
      #expect(notPNG.status == 2, "\(notPNG)")
      let badReport = try CLI.run(["diff", "a.png", "a.png", "--reports", "scene.json", "scene.json"], in: dir)
      #expect(badReport.status == 2, "\(badReport)")
      #expect(try CLI.run(["diff", "a.png", "a.png", "--threshold", "2"], in: dir).status == 64)
      #expect(try CLI.run(["diff", "a.png", "a.png", "-o", "d.jpg"], in: dir).status == 64)
      #expect(try CLI.run(["diff", "a.png", "a.png", "--reports", "x.json"], in: dir).status == 64)
      // -o never overwrites an input, not even through a link; its folder must exist.
      let before = try Files.read(dir + "/a.png")
      try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: "a.png")
      #expect(try CLI.run(["diff", "a.png", "big.png", "-o", "a.png"], in: dir).status == 64)
      #expect(try CLI.run(["diff", "big.png", "a.png", "-o", "link.png"], in: dir).status == 64)
      #expect(try Files.read(dir + "/a.png") == before)
      #expect(try CLI.run(["diff", "a.png", "a.png", "-o", "no-such-folder/d.png"], in: dir).status == 64)
    }
  }

  @Test("reports that differ in what is visible exit 1 even when the images are equal; grouped output; JSON without nesting; the rule is named")
  func reportsAndRule() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      #expect(try CLI.run(["scene.json", "-o", "a.png", "--report", "a.json"], in: dir).status == 0)
      #expect(try CLI.run(["scene.json", "-o", "b.png", "--report", "b.json", "--marker", "24.9399,60.17|color:#000"], in: dir).status == 0)
      let r = try CLI.run(["diff", "a.png", "a.png", "--reports", "a.json", "b.json"], in: dir)
      #expect(r.status == 1, "\(r)")
      #expect(r.stdoutText.contains("\nlayer @overlay-1: absent → active"), "\(r.stdoutText)")
      #expect(try CLI.run(["diff", "a.png", "a.png", "--reports", "a.json", "a.json"], in: dir).status == 0)
      // The rule: pixelmatch's defaults, and the options that count as mapsnap test does.
      #expect(r.stdoutText.contains("rule: threshold 0.1, anti-aliased px not counted; mapsnap test compares exactly by default: --threshold 0 --include-aa"), "\(r.stdoutText)")
      let exact = try CLI.run(["diff", "a.png", "b.png", "--threshold", "0", "--include-aa"], in: dir)
      #expect(exact.stdoutText.contains("rule: exact (as mapsnap test compares by default)"), "\(exact.stdoutText)")
      let json = try CLI.run(["diff", "a.png", "a.png", "--reports", "a.json", "b.json", "--json"], in: dir)
      #expect(json.status == 1)
      let object = try JSONParser.parse(Array(json.stdoutText.utf8))
      guard case .array(let changes)? = object["changes"] else {
        Issue.record("changes is not an array: \(json.stdoutText)")
        return
      }
      #expect(!changes.isEmpty && changes[0]["change"] != nil, "\(json.stdoutText)")
      #expect(object["reports"]?["changesWhatIsVisible"] == .bool(true) && object["reports"]?["a"]?["scale"] == .number(2000), "\(json.stdoutText)")
    }
  }
}
