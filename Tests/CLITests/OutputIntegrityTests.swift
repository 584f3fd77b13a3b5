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
  /// Starts `mapsnap arguments…` in `dir`, waits until `ready()` holds
  /// (checked every 2 ms, at most `timeout` seconds), sends `sig`, and
  /// returns how the process ended: by a signal (its number) or by exit (its
  /// status), and whether it was ready before it ended on its own.
  static func interrupt(
    _ arguments: [String], in dir: String, signal sig: Int32, timeout: Double = 120, when ready: () -> Bool
  ) throws -> (bySignal: Bool, status: Int32, wasReady: Bool) {
    let exe = try #require(CLI.executable)
    let process = Process()
    process.executableURL = exe
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: dir)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    // The child starts with the signal mask of the thread that spawns it,
    // and the test runner's threads may block SIGTERM: spawn it with both
    // signals deliverable, as from a shell.
    var both = sigset_t()
    var before = sigset_t()
    sigemptyset(&both)
    sigaddset(&both, SIGTERM)
    sigaddset(&both, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &both, &before)
    defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
    try process.run()
    pthread_sigmask(SIG_SETMASK, &before, nil)
    let deadline = Date().addingTimeInterval(timeout)
    var wasReady = false
    while process.isRunning && Date() < deadline {
      if ready() {
        wasReady = true
        break
      }
      usleep(2_000)
    }
    if process.isRunning { kill(process.processIdentifier, sig) }
    // A process that ignores the signal (the old code, with SIGTERM blocked)
    // runs on: give it time to end, then kill it.
    let stop = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < stop { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return (process.terminationReason == .uncaughtSignal, process.terminationStatus, wasReady)
  }

  /// `count` frames of 1600 × 1200 logical pixels, so that a frame's
  /// temporary file exists for a while.
  static func bigManifest(_ count: Int) -> String {
    (0..<count).map { #"{"scene": "scene.json", "output": "out/f\#($0).png", "size": [1600, 1200], "report": "out/f\#($0).json"}"# }
      .joined(separator: "\n") + "\n"
  }

  @Test(
    "a batch or a render ended by SIGTERM or SIGINT while writing leaves no temporary file and dies by the signal (143, 130)",
    arguments: [(SIGTERM, "batch"), (SIGINT, "batch"), (SIGTERM, "render"), (SIGINT, "render")] as [(Int32, String)])
  func signalsRemoveTemporaries(_ sig: Int32, _ command: String) throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.bigManifest(40), to: dir + "/jobs.jsonl")
      let arguments =
        command == "batch"
        ? ["batch", "jobs.jsonl", "--jobs", "2", "--quiet"]
        : ["scene.json", "--size", "4000x3000", "-o", "out.png", "--report", "out.json", "--threads", "1"]
      let r = try Self.interrupt(arguments, in: dir, signal: sig) { !Files.leftovers(in: dir).isEmpty }
      #expect(r.wasReady, "a temporary file appeared before the process ended")
      #expect(r.bySignal && r.status == sig, "ended by signal \(sig): \(r)")
      #expect(128 + r.status == (sig == SIGTERM ? 143 : 130), "what a shell reports")
      #expect(Files.leftovers(in: dir).isEmpty, "\(Files.leftovers(in: dir))")
    }
  }

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
      #expect(r.stderr.contains("jobs.jsonl:3: output:") && r.stderr.contains("the same file by another name"), "\(r.stderr)")
      #expect(!r.stderr.contains(dir + "/out/a.png"), "where a link leads is not shown")
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
