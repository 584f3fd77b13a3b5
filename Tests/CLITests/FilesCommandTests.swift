import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

#if canImport(Glibc)
  import Glibc
#endif

/// The file rules through the built binary: inputs must be regular files of
/// a bounded size (a FIFO never blocks, a device is never read), outputs
/// follow `OutputTarget` (devices written in place and never replaced, write
/// errors exit 1 with nothing left behind), and `--root` confines the paths
/// scenes and manifests name.
@Suite("files: special inputs, outputs, --max-source-bytes, --root (built binary)")
struct FilesCommandTests {
  static let tiles = Repository.root + "/Examples/data/tiles"
  static let isRoot = getuid() == 0

  static let pointGeoJSON = """
    {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},
      "geometry": {"type": "Point", "coordinates": [0, 0]}}]}
    """

  static let map = #""center": [0, 0], "scale": 2000, "size": [64, 48]"#

  /// A scene with one features layer reading `source`.
  static func sourceScene(_ source: String) -> String {
    #"{"version": 1, "map": {\#(map)}, "layers": [{"id": "a", "type": "features", "source": {"geojson": "\#(source)"}, "style": {"marker": {"shape": "circle", "size": 6, "fill": "red"}}}]}"#
  }

  /// A scene with one marker drawn with the icon `icon`.
  static func iconScene(_ icon: String) -> String {
    #"{"version": 1, "map": {\#(map)}, "layers": [{"id": "a", "type": "graphics", "graphics": [{"geometry": {"type": "Point", "coordinates": [0, 0]}, "style": {"marker": {"icon": "\#(icon)", "size": 10}}}]}]}"#
  }

  /// A scene with one tiles layer on `source` (JSON).
  static func tilesScene(_ source: String) -> String {
    #"{"version": 1, "map": {"center": [24.9444580078125, 60.17157405145976], "zoom": 16, "size": [64, 64]}, "layers": [{"id": "t", "type": "tiles", "source": \#(source)}]}"#
  }

  static func layerMessage(_ dir: String, _ report: String = "report.json", layer: String = "a") throws -> String {
    let r = try JSONParser.parse(try Files.read(dir + "/" + report))
    guard case .array(let layers)? = r["layers"] else { return "" }
    for l in layers where l["id"] == .string(layer) {
      if case .string(let m)? = l["message"] { return m }
    }
    return ""
  }

  static func layerStatus(_ dir: String, _ report: String = "report.json", layer: String = "a") throws -> [String] {
    let r = try JSONParser.parse(try Files.read(dir + "/" + report))
    guard case .array(let layers)? = r["layers"] else { return [] }
    for l in layers where l["id"] == .string(layer) {
      if case .array(let s)? = l["status"] { return s.compactMap { if case .string(let t) = $0 { t } else { nil } } }
    }
    return []
  }

  static func mkfifo(_ path: String) throws {
    try #require(Glibc.mkfifo(path, 0o644) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
  }

  /// A character device node like /dev/null (1, 3) or /dev/full (1, 7),
  /// made in the test's folder so that the system's own are never at risk.
  static func mknod(_ path: String, minor: UInt32) throws {
    try #require(Glibc.mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)) == 0, "mknod \(path): \(String(cString: strerror(errno)))")
  }

  static func isCharacterDevice(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR
  }

  static func isSymbolicLink(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
  }

  /// Runs and times one command; a hang is killed after 5 s.
  static func timed(_ arguments: [String], in dir: String) throws -> (CLIResult, Double) {
    let start = Date()
    let r = try CLI.run(arguments, in: dir, timeout: 5)
    return (r, Date().timeIntervalSince(start))
  }

  // MARK: - Special files as inputs

  @Test("a FIFO as a GeoJSON source, icon, tiles.json, MBTiles file, scene, manifest or font: refused at once, never waited on")
  func fifoInputs() throws {
    try withTemporaryDirectory { dir in
      try Self.mkfifo(dir + "/fifo")
      try Files.write(Self.sourceScene("fifo"), to: dir + "/source.json")
      try Files.write(Self.iconScene("fifo"), to: dir + "/icon.json")
      try Files.write(Self.tilesScene(#"{"mbtiles": "fifo"}"#), to: dir + "/mbtiles.json")
      try FileManager.default.createDirectory(atPath: dir + "/xyz", withIntermediateDirectories: true)
      try Self.mkfifo(dir + "/xyz/tiles.json")
      try Files.write(Self.tilesScene(#"{"xyz": "xyz/{z}/{x}/{y}.png"}"#), to: dir + "/xyz.json")
      for (scene, layer) in [("source.json", "a"), ("icon.json", "a"), ("mbtiles.json", "t"), ("xyz.json", "t")] {
        let (r, seconds) = try Self.timed([scene, "-o", "out.png", "--report", "report.json"], in: dir)
        #expect(!r.timedOut && seconds < 1.5, "\(scene): \(seconds) s, \(r)")
        #expect(r.status == 0, "\(scene): \(r)")
        let message = try Self.layerMessage(dir, layer: layer)
        #expect(message.contains("not a regular file (a FIFO)"), "\(scene): \(message)")
      }
      let (scene, s1) = try Self.timed(["fifo", "-o", "out.png"], in: dir)
      #expect(!scene.timedOut && s1 < 1.5 && scene.status == 2, "\(scene)")
      #expect(scene.stderr.contains("fifo") && scene.stderr.contains("a FIFO"), "\(scene.stderr)")
      let (manifest, s2) = try Self.timed(["batch", "fifo"], in: dir)
      #expect(!manifest.timedOut && s2 < 1.5 && manifest.status == 2, "\(manifest)")
      #expect(manifest.stderr.contains("a FIFO"), "\(manifest.stderr)")
      try FileManager.default.createDirectory(atPath: dir + "/fonts", withIntermediateDirectories: true)
      try Self.mkfifo(dir + "/fonts/Trap.ttf")
      try Files.write(Self.sourceScene("p.geojson"), to: dir + "/ok.json")
      try Files.write(Self.pointGeoJSON, to: dir + "/p.geojson")
      let (font, s3) = try Self.timed(["ok.json", "-o", "out.png", "--font-dir", "fonts"], in: dir)
      #expect(!font.timedOut && s3 < 1.5 && font.status == 0, "\(font)")
    }
  }

  @Test("/dev/zero as a source, an icon, an MBTiles file or a scene: refused as a character device, nothing read")
  func deviceInputs() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.sourceScene("/dev/zero"), to: dir + "/source.json")
      try Files.write(Self.iconScene("/dev/zero"), to: dir + "/icon.json")
      try Files.write(Self.tilesScene(#"{"mbtiles": "/dev/zero"}"#), to: dir + "/mbtiles.json")
      for (scene, layer) in [("source.json", "a"), ("icon.json", "a"), ("mbtiles.json", "t")] {
        let (r, seconds) = try Self.timed([scene, "-o", "out.png", "--report", "report.json"], in: dir)
        #expect(!r.timedOut && seconds < 1.5 && r.status == 0, "\(scene): \(r)")
        let message = try Self.layerMessage(dir, layer: layer)
        #expect(message.contains("not a regular file (a character device)"), "\(scene): \(message)")
      }
      let (r, seconds) = try Self.timed(["/dev/zero", "-o", "out.png"], in: dir)
      #expect(!r.timedOut && seconds < 1.5 && r.status == 2, "\(r)")
      #expect(r.stderr.contains("a character device"), "\(r.stderr)")
    }
  }

  @Test("a 5 GB sparse source over --max-source-bytes: refused from its size, before it is read")
  func sparseSource() throws {
    try withTemporaryDirectory { dir in
      let big = dir + "/big.geojson"
      try #require(FileManager.default.createFile(atPath: big, contents: nil))
      try #require(truncate(big, 5 << 30) == 0)
      try Files.write(Self.sourceScene("big.geojson"), to: dir + "/scene.json")
      let (r, seconds) = try Self.timed(["scene.json", "-o", "out.png", "--report", "report.json", "--max-source-bytes", "1M"], in: dir)
      #expect(!r.timedOut && seconds < 1.5 && r.status == 0, "\(r)")
      #expect(try Self.layerStatus(dir).contains("error"))
      let message = try Self.layerMessage(dir)
      #expect(message.contains("5368709120 bytes, more than --max-source-bytes (1048576)"), "\(message)")
      // The default (1 GiB) refuses it too.
      let (d, s2) = try Self.timed(["scene.json", "-o", "out.png", "--report", "report.json"], in: dir)
      #expect(!d.timedOut && s2 < 1.5 && d.status == 0, "\(d)")
      #expect(try Self.layerMessage(dir).contains("more than --max-source-bytes (1073741824)"))
      // A file under the limit is read; a scene over it is invalid (exit 2).
      try Files.write(Self.pointGeoJSON, to: dir + "/p.geojson")
      try Files.write(Self.sourceScene("p.geojson"), to: dir + "/small.json")
      let ok = try CLI.run(["small.json", "-o", "out.png", "--report", "report.json", "--max-source-bytes", "1K"], in: dir)
      let okStatus = try Self.layerStatus(dir)
      #expect(ok.status == 0 && okStatus == ["active"], "\(ok)")
      let tight = try CLI.run(["small.json", "-o", "out.png", "--max-source-bytes", "100"], in: dir)
      #expect(tight.status == 2 && tight.stderr.contains("more than --max-source-bytes (100)"), "\(tight)")
      let bad = try CLI.run(["small.json", "--max-source-bytes", "0"], in: dir)
      #expect(bad.status == 64, "\(bad)")
    }
  }

  // MARK: - Outputs

  @Test("a full device as -o, --report, --summary, diff -o, test --junit: a failure naming ENOSPC, nothing left behind", .enabled(if: isRoot))
  func fullDevice() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.pointGeoJSON, to: dir + "/p.geojson")
      try Files.write(Self.sourceScene("p.geojson"), to: dir + "/scene.json")
      try Self.mknod(dir + "/full", minor: 7)
      let system = try CLI.run(["scene.json", "-o", "/dev/full"], in: dir)
      #expect(system.status == 1 && system.stderr.contains("ENOSPC"), "\(system)")
      let png = try CLI.run(["scene.json", "-o", "full"], in: dir)
      #expect(png.status == 1 && png.stderr.contains("No space left on device (ENOSPC)"), "\(png)")
      let report = try CLI.run(["scene.json", "-o", "out.png", "--report", "full"], in: dir)
      #expect(report.status == 1 && report.stderr.contains("ENOSPC"), "\(report)")
      #expect(Self.isCharacterDevice(dir + "/full"), "the device stays a device")
      try Files.write(#"{"scene": "scene.json", "output": "b.png"}"# + "\n", to: dir + "/m.jsonl")
      let summary = try CLI.run(["batch", "m.jsonl", "--quiet", "--summary", "full"], in: dir)
      #expect(summary.status == 1 && summary.stderr.contains("ENOSPC"), "\(summary)")
      try Files.write(#"{"scene": "scene.json", "output": "c.png", "report": "full"}"# + "\n", to: dir + "/m2.jsonl")
      let line = try CLI.run(["batch", "m2.jsonl", "--quiet"], in: dir)
      #expect(line.status == 1 && line.stderr.contains("ENOSPC"), "\(line)")
      let made = try CLI.run(["scene.json", "-o", "a.png"], in: dir)
      #expect(made.status == 0, "\(made)")
      let diff = try CLI.run(["diff", "a.png", "a.png", "-o", "full"], in: dir)
      #expect(diff.status == 2 && diff.stderr.contains("ENOSPC"), "\(diff)")
      try FileManager.default.createDirectory(atPath: dir + "/cases/c", withIntermediateDirectories: true)
      try Files.write(Self.sourceScene("../../p.geojson"), to: dir + "/cases/c/scene.json")
      try Files.write(#"{"scales": [2000]}"#, to: dir + "/cases/c/golden.json")
      _ = try CLI.run(["test", "cases", "--record", "missing", "--html", "", "--junit", ""], in: dir, environment: ["CI": nil])
      let test = try CLI.run(["test", "cases", "--html", "", "--junit", "full"], in: dir, environment: ["CI": nil])
      #expect(test.status == 2 && test.stderr.contains("ENOSPC"), "\(test)")
      #expect(Self.isCharacterDevice(dir + "/full"))
      #expect(Files.leftovers(in: dir).isEmpty, "\(Files.leftovers(in: dir))")
    }
  }

  @Test("a device node as every kind of output stays a device: written in place, never replaced", .enabled(if: isRoot))
  func deviceOutputs() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.pointGeoJSON, to: dir + "/p.geojson")
      try Files.write(Self.sourceScene("p.geojson"), to: dir + "/scene.json")
      try Self.mknod(dir + "/null", minor: 3)
      try FileManager.default.createSymbolicLink(atPath: dir + "/null.png", withDestinationPath: "null")
      try FileManager.default.createSymbolicLink(atPath: dir + "/null.json", withDestinationPath: "null")
      let runs: [[String]] = [
        ["scene.json", "-o", "null"],
        ["scene.json", "-o", "null.png", "--report", "null.json"],
        ["scene.json", "-o", "out.png", "--report", "null"],
        ["batch", "m.jsonl", "--quiet", "--summary", "null"],
        ["batch", "m2.jsonl", "--quiet"],
        ["diff", "out.png", "out.png", "-o", "null"],
        ["test", "cases", "--html", "null", "--junit", "null"],
      ]
      try Files.write(#"{"scene": "scene.json", "output": "b.png"}"# + "\n", to: dir + "/m.jsonl")
      try Files.write(#"{"scene": "scene.json", "output": "null.png", "report": "null.json"}"# + "\n", to: dir + "/m2.jsonl")
      try FileManager.default.createDirectory(atPath: dir + "/cases/c", withIntermediateDirectories: true)
      try Files.write(Self.sourceScene("../../p.geojson"), to: dir + "/cases/c/scene.json")
      try Files.write(#"{"scales": [2000]}"#, to: dir + "/cases/c/golden.json")
      _ = try CLI.run(["test", "cases", "--record", "missing", "--html", "", "--junit", ""], in: dir, environment: ["CI": nil])
      for args in runs {
        let r = try CLI.run(args, in: dir, environment: ["CI": nil])
        #expect(r.status == 0, "\(args): \(r)")
        #expect(Self.isCharacterDevice(dir + "/null"), "\(args): the node is still a character device")
        #expect(Self.isSymbolicLink(dir + "/null.png") && Self.isSymbolicLink(dir + "/null.json"), "\(args): the links are kept")
      }
      #expect(Files.leftovers(in: dir).isEmpty)
    }
  }

  @Test("outputs through symbolic links: the target file replaced, the link kept (render, batch, report)")
  func symlinkOutputs() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.pointGeoJSON, to: dir + "/p.geojson")
      try Files.write(Self.sourceScene("p.geojson"), to: dir + "/scene.json")
      try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
      for name in ["a.png", "a.json", "b.png", "b.json"] {
        try Files.write("old", to: dir + "/real/" + name)
        try FileManager.default.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: "real/" + name)
      }
      let r = try CLI.run(["scene.json", "-o", "a.png", "--report", "a.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      try Files.write(#"{"scene": "scene.json", "output": "b.png", "report": "b.json"}"# + "\n", to: dir + "/m.jsonl")
      let b = try CLI.run(["batch", "m.jsonl", "--quiet"], in: dir)
      #expect(b.status == 0, "\(b)")
      for name in ["a", "b"] {
        #expect(Self.isSymbolicLink(dir + "/\(name).png") && Self.isSymbolicLink(dir + "/\(name).json"), "\(name): links kept")
        #expect(try Files.read(dir + "/real/\(name).png").starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name): the PNG is in the target")
        #expect(try JSONParser.parse(try Files.read(dir + "/real/\(name).json"))["layers"] != nil, "\(name): the report is in the target")
      }
      // A link to nothing is refused, not replaced.
      try FileManager.default.createSymbolicLink(atPath: dir + "/dangling.png", withDestinationPath: "nowhere/x.png")
      let dangling = try CLI.run(["scene.json", "-o", "dangling.png"], in: dir)
      #expect(dangling.status == 64 && dangling.stderr.contains("symbolic link"), "\(dangling)")
      #expect(Self.isSymbolicLink(dir + "/dangling.png"))
      #expect(Files.leftovers(in: dir).isEmpty)
    }
  }

  @Test("--report /dev/stdout and --summary /dev/stdout reach standard output; with -o - it is refused")
  func reportToStandardOutput() throws {
    try withTemporaryDirectory { dir in
      try Files.write(Self.pointGeoJSON, to: dir + "/p.geojson")
      try Files.write(Self.sourceScene("p.geojson"), to: dir + "/scene.json")
      let r = try CLI.run(["scene.json", "-o", "out.png", "--report", "/dev/stdout"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(try JSONParser.parse(r.stdout)["layers"] != nil, "the report on stdout: \(r.stdoutText.prefix(200))")
      try FileManager.default.createSymbolicLink(atPath: dir + "/to-stdout.json", withDestinationPath: "/proc/self/fd/1")
      let linked = try CLI.run(["scene.json", "-o", "out.png", "--report", "to-stdout.json"], in: dir)
      #expect(linked.status == 0, "\(linked)")
      #expect(try JSONParser.parse(linked.stdout)["layers"] != nil, "\(linked)")
      #expect(Self.isSymbolicLink(dir + "/to-stdout.json"), "the link is kept")
      try Files.write(#"{"scene": "scene.json", "output": "b.png"}"# + "\n", to: dir + "/m.jsonl")
      let s = try CLI.run(["batch", "m.jsonl", "--quiet", "--summary", "/dev/stdout"], in: dir)
      #expect(s.status == 0, "\(s)")
      #expect(try JSONParser.parse(s.stdout)["frames"] != nil, "\(s)")
      let both = try CLI.run(["scene.json", "-o", "-", "--report", "/dev/stdout"], in: dir)
      #expect(both.status == 64 && both.stdout.isEmpty, "\(both)")
      let dashes = try CLI.run(["scene.json", "-o", "-", "--report", "-"], in: dir)
      #expect(dashes.status == 64, "\(dashes)")
    }
  }

  // MARK: - --root

  /// `root/` holding the scenes, `outside/` beside it holding what they must
  /// not reach, and `root/link.*` symbolic links leading out.
  static func confinedLayout(_ dir: String) throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: dir + "/root/data", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
    try Files.write(pointGeoJSON, to: dir + "/root/data/p.geojson")
    try Files.write(pointGeoJSON, to: dir + "/outside/secret.geojson")
    try fm.copyItem(atPath: Repository.root + "/Tests/Fixtures/png/ga8.png", toPath: dir + "/outside/icon.png")
    try fm.copyItem(atPath: Repository.root + "/Tests/Fixtures/png/ga8.png", toPath: dir + "/root/data/icon.png")
    try fm.createSymbolicLink(atPath: dir + "/root/link.geojson", withDestinationPath: "../outside/secret.geojson")
    try fm.createSymbolicLink(atPath: dir + "/root/link.png", withDestinationPath: dir + "/outside/icon.png")
    try fm.createSymbolicLink(atPath: dir + "/root/link.mbtiles", withDestinationPath: tiles + "/helsinki-3857.mbtiles")
    try fm.createSymbolicLink(atPath: dir + "/root/outdir", withDestinationPath: "../outside")
  }

  @Test("--root: sources, icons and tile sets escaping by '..', an absolute path or a link are layer errors naming --root")
  func rootRefusesSceneInputs() throws {
    try withTemporaryDirectory { dir in
      try Self.confinedLayout(dir)
      let cases: [(String, String, String)] = [
        ("source-dotdot", Self.sourceScene("../outside/secret.geojson"), "a"),
        ("source-absolute", Self.sourceScene(dir + "/outside/secret.geojson"), "a"),
        ("source-link", Self.sourceScene("link.geojson"), "a"),
        ("icon-dotdot", Self.iconScene("../outside/icon.png"), "a"),
        ("icon-absolute", Self.iconScene(dir + "/outside/icon.png"), "a"),
        ("icon-link", Self.iconScene("link.png"), "a"),
        ("mbtiles-absolute", Self.tilesScene(#"{"mbtiles": "\#(Self.tiles)/helsinki-3857.mbtiles"}"#), "t"),
        ("mbtiles-link", Self.tilesScene(#"{"mbtiles": "link.mbtiles"}"#), "t"),
        ("xyz-dotdot", Self.tilesScene(#"{"xyz": "../../../../../../../../../..\#(Self.tiles)/helsinki-3857/{z}/{x}/{y}.png"}"#), "t"),
        ("xyz-link", Self.tilesScene(#"{"xyz": "outdir/{z}/{x}/{y}.png"}"#), "t"),
      ]
      for (name, scene, layer) in cases {
        try Files.write(scene, to: dir + "/root/\(name).json")
        let free = try CLI.run(["\(name).json", "-o", "free.png", "--report", "free.json"], in: dir + "/root")
        #expect(free.status == 0, "\(name) without --root: \(free)")
        let freeMessage = try Self.layerMessage(dir + "/root", "free.json", layer: layer)
        #expect(!freeMessage.contains("--root"), "\(name): \(freeMessage)")
        let freeStatus = try Self.layerStatus(dir + "/root", "free.json", layer: layer)
        #expect(freeStatus.contains("active") && !freeStatus.contains("error"), "\(name) without --root is read: \(freeStatus) \(freeMessage)")
        let r = try CLI.run(["\(name).json", "-o", "out.png", "--report", "report.json", "--root", "."], in: dir + "/root")
        #expect(r.status == 0, "\(name): \(r)")
        let message = try Self.layerMessage(dir + "/root", layer: layer)
        #expect(message.contains("outside --root"), "\(name): \(message)")
        if !name.hasPrefix("icon") {  // a missing icon is a layer warning, not an error
          let strict = try CLI.run(["\(name).json", "-o", "strict.png", "--root", ".", "--strict"], in: dir + "/root")
          #expect(strict.status == 1 && !Files.exists(dir + "/root/strict.png"), "\(name): \(strict)")
        }
        let explain = try CLI.run(["explain", "\(name).json", "--root", "."], in: dir + "/root")
        #expect(explain.stderr.contains("outside --root"), "\(name) explain: \(explain)")
      }
      // Inside the root, all is read; the command line's own paths are not confined.
      try Files.write(Self.sourceScene("data/p.geojson"), to: dir + "/root/inside.json")
      let inside = try CLI.run(["inside.json", "-o", "../outside/out.png", "--report", "report.json", "--root", "."], in: dir + "/root")
      let insideStatus = try Self.layerStatus(dir + "/root")
      #expect(inside.status == 0 && insideStatus == ["active"], "\(inside)")
      #expect(Files.exists(dir + "/outside/out.png"), "-o is the operator's: not confined")
      let overlay = try CLI.run(
        ["inside.json", "-o", "o.png", "--report", "report.json", "--root", ".", "--geojson", "../outside/secret.geojson"], in: dir + "/root")
      let overlayMessage = try Self.layerMessage(dir + "/root", layer: "@overlay-1")
      #expect(overlay.status == 0 && !overlayMessage.contains("--root"), "\(overlay): \(overlayMessage)")
    }
  }

  /// Issue 37, item 14: with `--size`, `--pixel-ratio` or `--max-pixels`
  /// the CLI computed the viewport a second time through an unconfined
  /// loader, reading the fit layer's source outside the root before the
  /// confined plan refused it. The file's access time (relatime: updated
  /// by a read when older than its modification) shows whether it was read.
  @Test("--fit with --size, --pixel-ratio or --max-pixels never reads a source outside --root", arguments: [
    ["--size", "50x50"], ["--pixel-ratio", "2"], ["--max-pixels", "100000"],
  ])
  func fitStaysConfined(_ options: [String]) throws {
    try withTemporaryDirectory { dir in
      try Self.confinedLayout(dir)
      let secret = dir + "/outside/secret.geojson"
      try Files.write(
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "s", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#,
        to: secret)
      try Files.write(Self.sourceScene("../outside/secret.geojson"), to: dir + "/root/fit.json")
      var times = [timespec](repeating: timespec(tv_sec: 946_684_800, tv_nsec: 0), count: 2)
      times[1] = timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)  // UTIME_OMIT: the modification time stays
      #expect(utimensat(AT_FDCWD, secret, &times, 0) == 0)
      var before = stat()
      stat(secret, &before)
      let r = try CLI.run(["fit.json", "--root", ".", "--fit", "a:s", "-o", "out.png"] + options, in: dir + "/root")
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.contains("fit"), "\(r.stderr)")
      var after = stat()
      stat(secret, &after)
      #expect(after.st_atim.tv_sec == before.st_atim.tv_sec, "the file outside the root was read")
      #expect(!Files.exists(dir + "/root/out.png"))
    }
  }

  @Test("batch --root: a line's scene, output and report escaping the root fail that line; the others are written")
  func rootRefusesManifestPaths() throws {
    try withTemporaryDirectory { dir in
      try Self.confinedLayout(dir)
      let root = dir + "/root"
      try Files.write(Self.sourceScene("data/p.geojson"), to: root + "/ok.json")
      try Files.write(Self.sourceScene("data/p.geojson"), to: dir + "/outside/scene.json")
      try Files.write(Self.sourceScene("link.geojson"), to: root + "/leaky.json")
      let lines = [
        #"{"scene": "ok.json", "output": "out/1.png", "report": "out/1.json"}"#,
        #"{"scene": "ok.json", "output": "../outside/2.png"}"#,
        #"{"scene": "ok.json", "output": "\#(dir)/outside/3.png"}"#,
        #"{"scene": "ok.json", "output": "outdir/4.png"}"#,
        #"{"scene": "ok.json", "output": "new/../../outside/5.png"}"#,
        #"{"scene": "ok.json", "output": "6.png", "report": "outdir/6.json"}"#,
        #"{"scene": "../outside/scene.json", "output": "7.png"}"#,
        #"{"scene": "ok.json", "output": "8.png", "overlays": [{"geojson": "../outside/secret.geojson"}]}"#,
        #"{"scene": "leaky.json", "output": "9.png", "report": "9.json"}"#,
      ]
      try Files.write(lines.joined(separator: "\n") + "\n", to: root + "/m.jsonl")
      let r = try CLI.run(["batch", "m.jsonl", "--quiet", "--root", ".", "--summary", "summary.json"], in: root)
      #expect(r.status == 1, "\(r)")
      for n in 2...7 {
        #expect(r.stderr.contains("m.jsonl:\(n): error:") && r.stderr.contains("outside --root"), "line \(n): \(r.stderr)")
      }
      #expect(Files.exists(root + "/out/1.png") && Files.exists(root + "/out/1.json"))
      #expect(Files.list(dir + "/outside").sorted() == ["icon.png", "scene.json", "secret.geojson"], "\(Files.list(dir + "/outside"))")
      #expect(!Files.exists(root + "/new"), "no folder made for a refused output")
      #expect(!Files.exists(root + "/6.png") && !Files.exists(root + "/7.png"))
      #expect(r.stderr.contains("m.jsonl:8: warning") && r.stderr.contains("m.jsonl:9: warning"), "\(r.stderr)")
      #expect(try Self.layerMessage(root, "9.json").contains("outside --root"))
      #expect(Files.leftovers(in: dir).isEmpty)
      // Without --root every line is written.
      try? FileManager.default.removeItem(atPath: dir + "/outside/2.png")
      let free = try CLI.run(["batch", "m.jsonl", "--quiet"], in: root)
      #expect(free.status == 0, "\(free)")
      #expect(Files.exists(dir + "/outside/2.png") && Files.exists(dir + "/outside/5.png"))
    }
  }
}
