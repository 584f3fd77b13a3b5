import Foundation
import Testing
import _MapSnapTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Outputs that must not lie, through the built binary: a process ended by
/// SIGTERM or SIGINT leaves no temporary file and dies by that signal;
/// `--resume` trusts only a complete PNG; one frame's PNG and report are
/// written together or not at all.
@Suite("outputs: signals, complete PNGs, PNG and report together (built binary)")
struct OutputIntegrityTests {

  @Test("--resume redraws a PNG that holds the right digest but is not complete; a complete one is skipped")
  func resumeNeedsACompletePNG() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(#"{"scene": "scene.json", "output": "out/a.png"}"# + "\n", to: dir + "/jobs.jsonl")
      #expect(try CLI.run(["batch", "jobs.jsonl"], in: dir).status == 0)
      let whole = try Files.read(dir + "/out/a.png")
      let idat = try #require((0..<(whole.count - 4)).first { Array(whole[$0..<($0 + 4)]) == Array("IDAT".utf8) })
      var badEnd = whole
      badEnd[whole.count - 1] ^= 0xFF
      let cases: [(String, [UInt8])] = [
        ("cut before its image data", Array(whole.prefix(idat - 4))),
        ("cut inside its image data", Array(whole.prefix(idat + 20))),
        ("without IEND", Array(whole.dropLast(12))),
        ("IEND with a wrong CRC", badEnd),
        ("bytes after IEND", whole + [0]),
      ]
      func rendered() throws -> Int {
        let r = try CLI.run(["batch", "jobs.jsonl", "--resume", "--summary", "s.json"], in: dir)
        #expect(r.status == 0, "\(r)")
        let s = try JSONSerialization.jsonObject(with: Data(Files.read(dir + "/s.json"))) as? [String: Any]
        return (s?["frames"] as? [String: Any])?["rendered"] as? Int ?? -1
      }
      for (what, bytes) in cases {
        try Files.write(bytes, to: dir + "/out/a.png")
        #expect(try rendered() == 1, "\(what): drawn again")
        #expect(try Files.read(dir + "/out/a.png") == whole, "\(what)")
      }
      #expect(try rendered() == 0, "the complete PNG is skipped")
    }
  }

  @Test("two lines writing one file through a symbolic link are duplicates: the manifest is invalid")
  func duplicatesThroughLinks() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: "out")
      try Files.write("old", to: dir + "/out/a.png")
      try FileManager.default.createSymbolicLink(atPath: dir + "/t.png", withDestinationPath: "out/a.png")
      let text = """
        {"scene": "scene.json", "output": "out/a.png"}
        {"scene": "scene.json", "output": "link/a.png"}
        {"scene": "scene.json", "output": "t.png"}
        {"scene": "scene.json", "output": "out/b.png", "report": "link/../out/b.png"}
        """
      try Files.write(text, to: dir + "/jobs.jsonl")
      let r = try CLI.run(["batch", "jobs.jsonl"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.contains("jobs.jsonl:2: output:") && r.stderr.contains("line 1's output too"), "\(r.stderr)")
      #expect(r.stderr.contains("jobs.jsonl:3: output:"), "\(r.stderr)")
      #expect(r.stderr.contains("jobs.jsonl:4: report:") && r.stderr.contains("its own output"), "\(r.stderr)")
      #expect(try Files.read(dir + "/out/a.png") == Array("old".utf8), "nothing drawn")
    }
  }

  @Test("a PNG and its report are written together: /dev/full as either leaves the other file untouched")
  func pngAndReportTogether() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write("old png", to: dir + "/a.png")
      try Files.write("old report", to: dir + "/a.json")
      let report = try CLI.run(["scene.json", "-o", "a.png", "--report", "/dev/full"], in: dir)
      #expect(report.status == 1 && report.stderr.contains("ENOSPC"), "\(report)")
      #expect(try Files.read(dir + "/a.png") == Array("old png".utf8), "no PNG without its report")
      let png = try CLI.run(["scene.json", "-o", "/dev/full", "--report", "a.json"], in: dir)
      #expect(png.status == 1 && png.stderr.contains("ENOSPC"), "\(png)")
      #expect(try Files.read(dir + "/a.json") == Array("old report".utf8), "no report without its PNG")
      let fresh = try CLI.run(["scene.json", "-o", "new.png", "--report", "/dev/full"], in: dir)
      #expect(fresh.status == 1, "\(fresh)")
      #expect(!Files.exists(dir + "/new.png"))
      try Files.write(#"{"scene": "scene.json", "output": "out/b.png", "report": "/dev/full"}"# + "\n", to: dir + "/jobs.jsonl")
      let batch = try CLI.run(["batch", "jobs.jsonl", "--quiet"], in: dir)
      #expect(batch.status == 1 && batch.stderr.contains("ENOSPC"), "\(batch)")
      #expect(!Files.exists(dir + "/out/b.png"), "a batch line too")
      #expect(Files.leftovers(in: dir).isEmpty, "\(Files.leftovers(in: dir))")
    }
  }
}
