import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

/// Frames streamed to PNG (`mapsnap render` draws and compresses a strip at
/// a time into the staged output), the pixel limit and `--max-pixels`.
@Suite("mapsnap render: streamed frames and the pixel limit (built binary)")
struct BigFrameTests {
  static let helsinki = Repository.root + "/Golden/helsinki/scene.json"

  @Test("a streamed frame is the library's whole-frame PNG, byte for byte, for any threads and band height")
  func streamedMatchesTheWholeFrame() throws {
    try withTemporaryDirectory { dir in
      let scene = try SceneLoader.load(path: Self.helsinki)
      let plan = try FramePlan.make(scene, overrides: ViewOverrides(size: (1001, 777)))
      var encoding = PNGEncodingOptions.fast
      encoding.threads = 1
      let expected = try Snapshot.render(plan).pngData(
        options: encoding, inputDigest: InputDigest.of(plan, encoding: encoding, files: FileDigests()))
      for (threads, rows) in [("1", "1"), ("2", "7"), ("4", "32")] {
        let r = try CLI.run([Self.helsinki, "--size", "1001x777", "--threads", threads, "--tile-rows", rows, "-o", "out.png"], in: dir)
        #expect(r.status == 0, "\(r)")
        #expect(try Files.read(dir + "/out.png") == expected, "--threads \(threads) --tile-rows \(rows)")
      }
    }
  }

  /// True in `make test-tsan` and `make test-asan` (scripts/test-sanitizer.sh
  /// sets these for every process it starts).
  static let underSanitizer =
    ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil || ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil

  // Not under a sanitizer: the thread sanitizer's runtime cannot start in a
  // process limited to 64 blocks a file ("ThreadSanitizer: nested bug in the
  // same thread, aborting" before main), so the limit would test TSan, not mapsnap.
  @Test(
    "a write that fails mid-way (the file size limit) exits 1 and leaves neither the output nor a temporary file",
    .enabled(if: !underSanitizer, "a sanitizer's runtime cannot start under `ulimit -f 64`"))
  func failingMidwayLeavesNothing() throws {
    try withTemporaryDirectory { dir in
      // The PNG is about 700 KB; the shell lets the process write 64 blocks
      // (32 or 64 KiB) a file, and ignores SIGXFSZ so that write fails (EFBIG).
      let r = try CLI.run(
        [Self.helsinki, "--size", "2000x2000", "-o", "out.png"], in: dir, shell: "ulimit -f 64; trap '' XFSZ")
      #expect(r.status == 1, "\(r)")
      #expect(r.stderr.contains("out.png"), "names the output: \(r.stderr)")
      #expect(Files.list(dir).isEmpty, "left: \(Files.list(dir))")
      #expect(Files.leftovers(in: dir).isEmpty)
    }
  }

  @Test("a frame over the pixel limit is a usage error naming --max-pixels; --max-pixels raises the limit")
  func maxPixelsGuardsAndRaises() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let over = try CLI.run(["scene.json", "--size", "32768x32768", "--pixel-ratio", "1.5", "-o", "out.png"], in: dir)
      #expect(over.status == 64, "\(over)")
      #expect(over.stderr.contains("49152×49152"), "\(over.stderr)")
      #expect(over.stderr.contains("at most 1073741824 pixels"), "\(over.stderr)")
      #expect(over.stderr.contains("--max-pixels"), "the hint names the option: \(over.stderr)")
      let low = try CLI.run(["scene.json", "--size", "200x100", "--max-pixels", "19999", "-o", "out.png"], in: dir)
      #expect(low.status == 64, "\(low)")
      #expect(low.stderr.contains("at most 19999 pixels"), "\(low.stderr)")
      let enough = try CLI.run(["scene.json", "--size", "200x100", "--max-pixels", "20000", "-o", "out.png"], in: dir)
      #expect(enough.status == 0, "\(enough)")
      #expect(Files.list(dir) == ["data", "out.png", "scene.json"])
    }
  }

  @Test("a scene whose own size is over the limit is invalid (exit 2), with the same hint")
  func sceneOverTheLimit() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir, size: (32768, 32768), pixelRatio: 2)
      let r = try CLI.run(["scene.json", "-o", "out.png"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.contains("65536×65536"), "\(r.stderr)")
      #expect(r.stderr.contains("--max-pixels"), "\(r.stderr)")
      #expect(!Files.exists(dir + "/out.png"))
    }
  }

  @Test("the colour type follows the background: RGBA for a transparent one even when fills cover every pixel")
  func colourTypeFromTheBackground() throws {
    try withTemporaryDirectory { dir in
      try Files.write(
        """
        {"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [64, 48], "background": "#00000000"},
         "layers": [{"id": "box", "type": "graphics", "graphics": [{"geometry": {"type": "Polygon",
           "coordinates": [[[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]]]}, "style": {"fill": "#336699"}}]}]}
        """, to: dir + "/clear.json")
      let r = try CLI.run(["clear.json", "-o", "clear.png"], in: dir)
      #expect(r.status == 0, "\(r)")
      let png = try Files.read(dir + "/clear.png")
      #expect(png[25] == 6)
      #expect(try PNGDecoder.decode(png).pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }
  }
}
