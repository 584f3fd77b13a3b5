import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

/// `mapsnap` runs that succeed: outputs, overrides, determinism, help.
@Suite("mapsnap render (built binary)")
struct RenderCommandTests {
  // MARK: - PNG output

  @Test("scene.json --scale 2000 -o out.png writes a PNG of size × pixel ratio, nothing on stdout",
    arguments: [(nil, 160, 120), (2.0, 320, 240), (1.5, 240, 180)] as [(Double?, Int, Int)])
  func rendersPNG(pixelRatio: Double?, width: Int, height: Int) throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir, pixelRatio: pixelRatio)
      let r = try CLI.run(["scene.json", "--scale", "2000", "-o", "out.png"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stdout.isEmpty, "stdout must stay empty when the PNG goes to a file: \(r.stdoutText)")
      #expect(r.stderr.isEmpty, "no warnings expected: \(r.stderr)")
      let png = try Files.read(dir + "/out.png")
      #expect(PNG.hasSignature(png))
      #expect(PNG.endsWithIEND(png))
      let size = try #require(PNG.size(png))
      #expect(size.width == width && size.height == height, "IHDR says \(size.width)×\(size.height)")
      // The image is not just the background.
      let image = try PNGDecoder.decode(png)
      #expect(image.width == width && image.height == height)
      let first = Array(image.pixels[0..<4])
      #expect(stride(from: 0, to: image.pixels.count, by: 4).contains { Array(image.pixels[$0..<$0 + 4]) != first })
      #expect(Files.list(dir) == ["data", "out.png", "scene.json"], "only out.png is added")
    }
  }

  @Test("outputs get the usual permissions (0666 minus the umask), not mkstemp's 0600")
  func outputPermissions() throws {
    let mask = try #require(Files.currentUmask(), "cannot read the umask")
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      for name in ["out.png", "r.json"] {
        let mode = try #require(Files.permissions(dir + "/" + name))
        #expect(mode == 0o666 & ~mask, "\(name) has mode \(String(mode, radix: 8)), umask \(String(mask, radix: 8))")
      }
    }
  }

  @Test("`render` spelled out is the same as the default subcommand")
  func explicitRenderSubcommand() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let implicit = try CLI.run(["scene.json", "--scale", "2000", "-o", "a.png"], in: dir)
      let explicit = try CLI.run(["render", "scene.json", "--scale", "2000", "-o", "b.png"], in: dir)
      #expect(implicit.status == 0, "\(implicit)")
      #expect(explicit.status == 0, "\(explicit)")
      #expect(explicit.stdout.isEmpty)
      let a = try Files.read(dir + "/a.png")
      let b = try Files.read(dir + "/b.png")
      #expect(PNG.hasSignature(b))
      #expect(a == b, "the same render must give the same bytes")
    }
  }

  @Test("without -o the PNG is <scene name>.png in the working directory")
  func defaultOutputName() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--scale", "2000"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stdout.isEmpty)
      #expect(PNG.hasSignature(try Files.read(dir + "/scene.png")))
      #expect(Files.list(dir) == ["data", "scene.json", "scene.png"])
    }
  }

  @Test("without -o, a scene in another folder renders into the working directory, not next to the scene")
  func defaultOutputGoesToWorkingDirectory() throws {
    try withTemporaryDirectory { dir in
      try Files.write("", to: dir + "/cwd/.keep")
      try Fixture.write(in: dir + "/maps", name: "city.json")
      let r = try CLI.run(["../maps/city.json"], in: dir + "/cwd")
      #expect(r.status == 0, "\(r)")
      let png = try Files.read(dir + "/cwd/city.png")
      #expect(PNG.size(png).map { [$0.width, $0.height] } == [160, 120])
      #expect(!Files.exists(dir + "/maps/city.png"))
      #expect(Files.list(dir + "/cwd") == [".keep", "city.png"])
    }
  }

  @Test("-o - writes the PNG, and only the PNG, to stdout")
  func pngToStandardOutput() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--scale", "2000", "-o", "-"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(PNG.hasSignature(r.stdout))
      #expect(PNG.endsWithIEND(r.stdout), "nothing may follow IEND on stdout")
      #expect(PNG.size(r.stdout).map { [$0.width, $0.height] } == [160, 120])
      #expect(Files.list(dir) == ["data", "scene.json"], "no file is written for -o -")
      // Exactly the bytes the same render writes to a file.
      let f = try CLI.run(["scene.json", "--scale", "2000", "-o", "file.png"], in: dir)
      #expect(f.status == 0, "\(f)")
      #expect(try Files.read(dir + "/file.png") == r.stdout)
    }
  }

  // MARK: - Report

  @Test("--report r.json: map.scale is the given scale, layer status arrays and feature counts")
  func reportFile() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--scale", "2500", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stdout.isEmpty)
      #expect(PNG.hasSignature(try Files.read(dir + "/out.png")))
      let raw = try Files.read(dir + "/r.json")
      #expect(raw.last == UInt8(ascii: "\n"), "the report ends with a newline")
      let report = try Report(raw)
      #expect(report.scale == 2500)
      #expect(report.center == [Fixture.center.lon, Fixture.center.lat])
      #expect((report.map?["size"] as? [NSNumber])?.map(\.intValue) == [160, 120])
      #expect(report.layers.map { $0["id"] as? String } == ["areas", "roads", "route"])
      for layer in report.layers {
        let status = layer["status"] as? [String]
        #expect(status == ["active"], "layer \(layer["id"] ?? "?") status \(String(describing: layer["status"]))")
      }
      #expect(report.features("areas").map { [$0.total, $0.drawn] } == [2, 2])
      #expect(report.features("roads").map { [$0.total, $0.drawn] } == [3, 3])
      #expect(report.features("route").map { [$0.total, $0.drawn] } == [2, 2])
      #expect(Files.list(dir) == ["data", "out.png", "r.json", "scene.json"])
    }
  }

  @Test("--report - writes the JSON report to stdout, the PNG still to its file")
  func reportToStandardOutput() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--scale", "2000", "-o", "out.png", "--report", "-"], in: dir)
      #expect(r.status == 0, "\(r)")
      let report = try Report(r.stdout)
      #expect(report.scale == 2000)
      #expect(report.layers.count == 3)
      #expect(PNG.hasSignature(try Files.read(dir + "/out.png")))
      // Without -o the PNG goes to scene.png, and stdout still holds only the report.
      let d = try CLI.run(["scene.json", "--report", "-"], in: dir)
      #expect(d.status == 0, "\(d)")
      #expect(try Report(d.stdout).scale == 2000)
      #expect(PNG.hasSignature(try Files.read(dir + "/scene.png")))
    }
  }

  // MARK: - Overrides

  @Test("--size 300x200 --pixel-ratio 2 gives a 600×400 PNG")
  func sizeAndPixelRatio() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--size", "300x200", "--pixel-ratio", "2", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      let png = try Files.read(dir + "/out.png")
      #expect(PNG.size(png).map { [$0.width, $0.height] } == [600, 400])
      let report = try Report(path: dir + "/r.json")
      #expect((report.map?["size"] as? [NSNumber])?.map(\.intValue) == [300, 200])
      #expect((report.map?["pixelRatio"] as? NSNumber)?.doubleValue == 2)
    }
  }

  @Test("--zoom 17 reports scale 591657527.591555 / 2^17")
  func zoomOverride() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--zoom", "17", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      let report = try Report(path: dir + "/r.json")
      let expected = 591657527.591555 / 131072
      let scale = try #require(report.scale)
      #expect(abs(scale - expected) <= expected * 1e-12, "scale \(scale), expected \(expected)")
      let zoom = try #require((report.map?["zoom"] as? NSNumber)?.doubleValue)
      #expect(abs(zoom - 17) < 1e-9)
      #expect(PNG.hasSignature(try Files.read(dir + "/out.png")))
    }
  }

  @Test("--center lon,lat moves map.center in the report")
  func centerOverride() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let a = try CLI.run(["scene.json", "-o", "a.png", "--report", "a.json"], in: dir)
      let b = try CLI.run(["scene.json", "--center", "24.95,60.18", "-o", "b.png", "--report", "b.json"], in: dir)
      #expect(a.status == 0, "\(a)")
      #expect(b.status == 0, "\(b)")
      #expect(try Report(path: dir + "/a.json").center == [24.94, 60.17])
      let moved = try Report(path: dir + "/b.json")
      #expect(moved.center == [24.95, 60.18])
      #expect(moved.scale == 2000, "--center leaves the scene's scale alone")
      // The extent moves with the centre.
      let ea = try Report(path: dir + "/a.json").map?["extent"] as? [NSNumber]
      let eb = moved.map?["extent"] as? [NSNumber]
      #expect(ea != nil && eb != nil && ea != eb)
      // Away from all the features, the image differs.
      #expect(try Files.read(dir + "/a.png") != Files.read(dir + "/b.png"))
    }
  }

  // MARK: - Determinism and compression

  @Test("--threads 1, --threads 2 and --tile-rows 7 give byte-identical PNGs",
    arguments: ["fixture", "helsinki"])
  func threadsAndTileRowsAreByteIdentical(scene: String) throws {
    try withTemporaryDirectory { dir in
      let path: String
      var extra: [String] = []
      if scene == "fixture" {
        path = try Fixture.write(in: dir, pixelRatio: 2)
      } else {
        path = Fixture.helsinkiExample
        extra = ["--size", "240x180", "--pixel-ratio", "1.5"]
      }
      let variants: [[String]] = [
        ["--threads", "1"], ["--threads", "2"], ["--tile-rows", "7"], ["--threads", "2", "--tile-rows", "7"],
        ["--threads", "3", "--tile-rows", "1"],
      ]
      var outputs: [[UInt8]] = []
      for (i, v) in variants.enumerated() {
        let r = try CLI.run([path, "-o", "out\(i).png"] + extra + v, in: dir)
        #expect(r.status == 0, "\(v): \(r)")
        outputs.append(try Files.read(dir + "/out\(i).png"))
      }
      #expect(PNG.hasSignature(outputs[0]))
      for (i, o) in outputs.enumerated().dropFirst() {
        #expect(o == outputs[0], "\(variants[i]) differs from \(variants[0])")
      }
    }
  }

  @Test("--compression balanced and small give valid PNGs of the same image, each smaller than the last on a full map frame")
  func compressionPresets() throws {
    try withTemporaryDirectory { dir in
      // Compare on a full 800×600 frame with labels: on tiny images zlib's
      // levels can swap places (and fast is zlib's level 2 below two
      // segments).
      let args = [Fixture.helsinkiExample]
      let fast = try CLI.run(args + ["-o", "fast.png"], in: dir)
      let balanced = try CLI.run(args + ["--compression", "balanced", "-o", "balanced.png"], in: dir)
      let small = try CLI.run(args + ["--compression", "small", "-o", "small.png"], in: dir)
      let explicitFast = try CLI.run(args + ["--compression", "fast", "-o", "fast2.png"], in: dir)
      #expect(fast.status == 0, "\(fast)")
      #expect(balanced.status == 0, "\(balanced)")
      #expect(small.status == 0, "\(small)")
      #expect(explicitFast.status == 0, "\(explicitFast)")
      let f = try Files.read(dir + "/fast.png")
      let b = try Files.read(dir + "/balanced.png")
      let s = try Files.read(dir + "/small.png")
      #expect(try Files.read(dir + "/fast2.png") == f, "fast is the default")
      for png in [b, s] {
        #expect(PNG.hasSignature(png) && PNG.endsWithIEND(png))
        #expect(PNG.size(png).map { [$0.width, $0.height] } == [800, 600])
        #expect(try PNGDecoder.decode(png) == PNGDecoder.decode(f), "compression must not change pixels")
      }
      #expect(b.count < f.count, "balanced (zlib) \(b.count) bytes >= fast (igzip) \(f.count) bytes")
      #expect(s.count <= b.count, "small \(s.count) bytes > balanced \(b.count) bytes")
    }
  }

  // MARK: - Relative paths

  @Test("relative source paths resolve against the scene's folder, not the working directory",
    arguments: [false, true])
  func relativePathsResolveAgainstSceneFolder(absoluteScenePath: Bool) throws {
    try withTemporaryDirectory { dir in
      try Files.write("", to: dir + "/elsewhere/.keep")
      try Fixture.write(in: dir + "/project/maps")
      let scene = absoluteScenePath ? dir + "/project/maps/scene.json" : "../project/maps/scene.json"
      let r = try CLI.run([scene, "-o", "out.png", "--report", "r.json"], in: dir + "/elsewhere")
      #expect(r.status == 0, "\(r)")
      #expect(r.stderr.isEmpty, "no warning expected: the sources exist next to the scene: \(r.stderr)")
      let report = try Report(path: dir + "/elsewhere/r.json")
      #expect(report.status("areas") == ["active"])
      #expect(report.status("roads") == ["active"])
      #expect(report.features("areas")?.drawn == 2)
      #expect(report.features("roads")?.drawn == 3)
      #expect(PNG.hasSignature(try Files.read(dir + "/elsewhere/out.png")))
    }
  }

  // MARK: - Help and version

  @Test("--help exits 0 and documents --scale", arguments: [["--help"], ["render", "--help"], ["help", "render"]])
  func help(arguments: [String]) throws {
    try withTemporaryDirectory { dir in
      let r = try CLI.run(arguments, in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stdoutText.contains("--scale"), "help text: \(r.stdoutText)")
      #expect(Files.list(dir).isEmpty)
    }
  }

  /// The main options table is laid out by hand in the discussion: each of
  /// its lines must fit ArgumentParser's 80 columns, or it wraps mid-entry
  /// (`--geojson` once broke onto a line of its own).
  @Test("mapsnap --help: the main options table keeps its columns")
  func helpTableFitsItsWidth() throws {
    try withTemporaryDirectory { dir in
      let r = try CLI.run(["--help"], in: dir)
      #expect(r.status == 0, "\(r)")
      let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
      guard let start = lines.firstIndex(where: { $0.hasPrefix("Main options") }),
        let end = lines[start...].firstIndex(where: \.isEmpty)
      else {
        Issue.record("no main options table: \(r.stdoutText)")
        return
      }
      let table = lines[(start + 1)..<end]
      #expect(table.count >= 8, "\(table)")
      for line in table {
        #expect(line.hasPrefix("  -"), "an entry broke onto a line of its own: \(line)")
        #expect(line.count <= 80, "\(line.count) columns: \(line)")
      }
    }
  }

  @Test("--version exits 0 and prints the version")
  func version() throws {
    try withTemporaryDirectory { dir in
      let r = try CLI.run(["--version"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stdoutText == "0.2.0\n", "MapSnapVersion.current")
    }
  }

  @Test("a negative longitude or number after an option is a value, not an option")
  func negativeValues() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--center", "-73.9778,40.7062", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      let report = try Report(path: dir + "/r.json")
      #expect(report.center == [-73.9778, 40.7062])
      let bad = try CLI.run(["scene.json", "--scale", "-3"], in: dir)
      #expect(bad.status == 64)
      #expect(bad.stderr.contains("--scale must be a scale denominator from 0.000001 to 1e12"), "stderr: \(bad.stderr)")
    }
  }
}
