import Foundation
import Testing
import _MapSnapTestSupport

/// `mapsnap batch` end to end: outputs equal to single renders byte for
/// byte, shards, failures, an invalid manifest, `--resume` and `--summary`.
@Suite("mapsnap batch (built binary)")
struct BatchCommandTests {
  /// Five frames over the fixture scene: two views, a marker, a highlight
  /// and a GeoJSON overlay; line 3 is blank.
  static let manifest = """
    {"scene": "scene.json", "output": "out/a.png"}
    {"scene": "scene.json", "output": "out/b.png", "scale": 1500, "size": [120, 90], "report": "out/b.json"}

    {"scene": "scene.json", "output": "out/c.png", "overlays": [{"marker": [24.94, 60.17], "label": "Here"}]}
    {"scene": "scene.json", "output": "out/d.png", "overlays": [{"highlight": {"layer": "areas", "id": 2}, "color": "#06f"}]}
    {"scene": "scene.json", "output": "out/e.png", "center": [24.9401, 60.1701], "pixelRatio": 2, "overlays": [{"geojson": "data/roads.geojson", "width": 5}]}

    """

  /// A `--summary` file, parsed.
  static func summary(_ path: String) throws -> [String: Any]? {
    try JSONSerialization.jsonObject(with: Data(Files.read(path))) as? [String: Any]
  }

  /// The single-frame command line of each manifest line.
  static let single: [(output: String, arguments: [String])] = [
    ("a.png", []),
    ("b.png", ["--scale", "1500", "--size", "120x90", "--report", "single-b.json"]),
    ("c.png", ["--marker", "24.94,60.17|label:Here"]),
    ("d.png", ["--highlight", "areas:2|color:#06f"]),
    ("e.png", ["--center", "24.9401,60.1701", "--pixel-ratio", "2", "--geojson", "data/roads.geojson|width:5"]),
  ]

  @Test("each output is byte-identical to the single-frame render of its line, with --jobs 2")
  func matchesSingleRenders() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.manifest, to: dir + "/jobs.jsonl")
      let r = try CLI.run(["batch", "jobs.jsonl", "--jobs", "2", "--summary", "summary.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      for s in Self.single {
        let one = try CLI.run(["scene.json", "-o", "single-" + s.output] + s.arguments, in: dir)
        #expect(one.status == 0, "\(one)")
        #expect(try Files.read(dir + "/out/" + s.output) == (try Files.read(dir + "/single-" + s.output)), "\(s.output)")
      }
      #expect(Files.exists(dir + "/out/b.json"), "the report a line asks for")
      #expect(try Files.read(dir + "/out/b.json") == (try Files.read(dir + "/single-b.json")))
      let summary = try Self.summary(dir + "/summary.json")
      let frames = summary?["frames"] as? [String: Any]
      #expect(frames?["rendered"] as? Int == 5 && frames?["failed"] as? Int == 0, "\(String(describing: summary))")
      #expect(summary?["status"] as? String == "ok")
      // The overlays changed the pictures.
      #expect(try Files.read(dir + "/out/c.png") != (try Files.read(dir + "/out/a.png")))
      #expect(try Files.read(dir + "/out/d.png") != (try Files.read(dir + "/out/a.png")))
    }
  }

  @Test("shards 0/3, 1/3 and 2/3 write exactly the files of one run, each once")
  func shardsPartitionTheLines() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.manifest.replacingOccurrences(of: "out/", with: "whole/"), to: dir + "/whole.jsonl")
      try Files.write(Self.manifest, to: dir + "/jobs.jsonl")
      #expect(try CLI.run(["batch", "whole.jsonl"], in: dir).status == 0)
      var seen: [String: Int] = [:]
      for i in 0..<3 {
        try? FileManager.default.removeItem(atPath: dir + "/out")
        let r = try CLI.run(["batch", "jobs.jsonl", "--shard", "\(i)/3", "--jobs", "1"], in: dir)
        #expect(r.status == 0, "\(r)")
        for name in Files.list(dir + "/out") where name.hasSuffix(".png") {
          seen[name, default: 0] += 1
          #expect(try Files.read(dir + "/out/" + name) == (try Files.read(dir + "/whole/" + name)), "\(name)")
        }
        // Index = line − 1: lines 1 and 4 go to shard 0, lines 2 and 5 to
        // shard 1, line 6 to shard 2 (line 3 is blank).
        let expected = [["a.png", "c.png"], ["b.png", "d.png"], ["e.png"]][i]
        #expect(Files.list(dir + "/out").filter { $0.hasSuffix(".png") } == expected, "shard \(i)/3")
      }
      #expect(seen == ["a.png": 1, "b.png": 1, "c.png": 1, "d.png": 1, "e.png": 1])
    }
  }

  @Test("a failing line is reported with its number, exit 1, and the others are written")
  func failingLine() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let text = """
        {"scene": "scene.json", "output": "out/a.png"}
        {"scene": "missing.json", "output": "out/b.png"}
        {"scene": "scene.json", "output": "out/c.png", "fit": {"layer": "areas", "id": 99}}
        {"scene": "scene.json", "output": "out/d.png", "scale": 3000}
        """
      try Files.write(text, to: dir + "/jobs.jsonl")
      let r = try CLI.run(["batch", "jobs.jsonl", "--summary", "s.json"], in: dir)
      #expect(r.status == 1, "\(r)")
      #expect(r.stderr.contains("jobs.jsonl:2: error: missing.json: no such file"), "\(r.stderr)")
      #expect(r.stderr.contains("jobs.jsonl:3: error:"), "\(r.stderr)")
      #expect(Files.list(dir + "/out") == ["a.png", "d.png"])
      let summary = try Self.summary(dir + "/s.json")
      let failures = summary?["failures"] as? [[String: Any]]
      #expect(failures?.compactMap { $0["line"] as? Int } == [2, 3], "\(String(describing: failures))")
      #expect(summary?["status"] as? String == "failed")
    }
  }

  @Test("an invalid manifest draws nothing, exits 2 and names every bad line")
  func invalidManifest() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let text = """
        {"scene": "scene.json", "output": "out/a.png"}
        {"scene": "scene.json", "output": "out/a.png", "scale": 2000}
        {"scene": "scene.json", "output": "out/c.png", "scael": 2000}
        """
      try Files.write(text, to: dir + "/jobs.jsonl")
      let r = try CLI.run(["batch", "jobs.jsonl", "--summary", "s.json"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.contains("jobs.jsonl:2: output:"), "\(r.stderr)")
      #expect(r.stderr.contains("jobs.jsonl:3: scael: unknown key"), "\(r.stderr)")
      #expect(!Files.exists(dir + "/out"), "nothing drawn")
      let summary = try Self.summary(dir + "/s.json")
      #expect(summary?["status"] as? String == "invalid")
      #expect(try CLI.run(["batch", "jobs.jsonl", "--shard", "3/3"], in: dir).status == 64)
      #expect(try CLI.run(["batch", "nope.jsonl"], in: dir).status == 2)
    }
  }

  @Test("--resume skips outputs made from the same inputs and redraws the rest")
  func resume() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.manifest, to: dir + "/jobs.jsonl")
      #expect(try CLI.run(["batch", "jobs.jsonl"], in: dir).status == 0)
      let before = try Files.read(dir + "/out/a.png")
      func counts(_ extra: [String] = []) throws -> (rendered: Int, skipped: Int) {
        let r = try CLI.run(["batch", "jobs.jsonl", "--resume", "--summary", "s.json"] + extra, in: dir)
        #expect(r.status == 0, "\(r)")
        let s = try Self.summary(dir + "/s.json")
        let f = s?["frames"] as? [String: Any]
        return (f?["rendered"] as? Int ?? -1, f?["skipped"] as? Int ?? -1)
      }
      #expect(try counts() == (0, 5))
      // A report that went missing is drawn again.
      try FileManager.default.removeItem(atPath: dir + "/out/b.json")
      #expect(try counts() == (1, 4))
      // A truncated output is drawn again.
      try Files.write(Array(before.prefix(100)), to: dir + "/out/a.png")
      #expect(try counts() == (1, 4))
      #expect(try Files.read(dir + "/out/a.png") == before)
      // Another option that changes the bytes redraws everything.
      #expect(try counts(["--compression", "small"]) == (5, 0))
      #expect(try counts(["--compression", "small"]) == (0, 5))
      // A source changes: the frames that read it are drawn again (all do).
      try Files.write(Fixture.roadsGeoJSON.replacingOccurrences(of: "60.16990", with: "60.16991"), to: dir + "/data/roads.geojson")
      #expect(try counts(["--compression", "small"]) == (5, 0))
    }
  }

  @Test("--resume redraws a frame whose report detail changed; a report that cannot be written leaves no PNG")
  func reportsAndResume() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(#"{"scene": "scene.json", "output": "out/b.png", "report": "out/b.json"}"# + "\n", to: dir + "/jobs.jsonl")
      #expect(try CLI.run(["batch", "jobs.jsonl"], in: dir).status == 0)
      let full = try Files.read(dir + "/out/b.json")
      let again = try CLI.run(["batch", "jobs.jsonl", "--resume", "--report-detail", "counts"], in: dir)
      #expect(again.status == 0 && again.stderr.contains("1 rendered"), "\(again)")
      #expect(try Files.read(dir + "/out/b.json") != full, "the report in the new detail")
      // The report's path is a folder: the frame fails and its PNG is not written.
      try FileManager.default.removeItem(atPath: dir + "/out")
      try FileManager.default.createDirectory(atPath: dir + "/out/b.json", withIntermediateDirectories: true)
      let blocked = try CLI.run(["batch", "jobs.jsonl"], in: dir)
      #expect(blocked.status == 1, "\(blocked)")
      #expect(!Files.exists(dir + "/out/b.png"), "no PNG without its report")
      // An unwritable summary is a failure too.
      try FileManager.default.removeItem(atPath: dir + "/out/b.json")
      let summary = try CLI.run(["batch", "jobs.jsonl", "--summary", "/proc/no-such/s.json"], in: dir)
      #expect(summary.status == 1, "\(summary)")
    }
  }

  @Test("an output that is a symbolic link is written through; overlay paths may be spelled any way")
  func symlinksAndSpellings() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
      try Files.write("old", to: dir + "/real/t.png")
      try FileManager.default.createSymbolicLink(atPath: dir + "/t.png", withDestinationPath: "real/t.png")
      try Files.write(#"{"scene": "scene.json", "output": "t.png", "overlays": [{"geojson": "./data/../data/roads.geojson"}]}"# + "\n", to: dir + "/jobs.jsonl")
      #expect(try CLI.run(["batch", "jobs.jsonl"], in: dir).status == 0)
      let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/t.png")
      #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link stays a link")
      let single = try CLI.run(["scene.json", "-o", "single.png", "--geojson", "data/roads.geojson"], in: dir)
      #expect(single.status == 0, "\(single)")
      #expect(try Files.read(dir + "/real/t.png") == (try Files.read(dir + "/single.png")), "same bytes, whatever the path's spelling")
    }
  }
}
