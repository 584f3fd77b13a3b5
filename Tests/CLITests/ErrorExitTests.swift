import Foundation
import Testing
import _MapSnapTestSupport

/// `mapsnap` runs that fail: exit statuses 1, 2 and 64, their messages, and
/// that nothing is written (or left half-written) when they do.
@Suite("mapsnap errors and exit statuses (built binary)")
struct ErrorExitTests {
  /// An invalid scene, and what its error message must contain besides the file name.
  struct InvalidScene: CustomTestStringConvertible, Sendable {
    var name: String
    var json: String
    var mustContain: [String]
    var testDescription: String { name }
  }

  static let invalidScenes: [InvalidScene] = [
    InvalidScene(
      name: "unknown key with a hint",
      json: Fixture.sceneJSON().replacingOccurrences(of: "\"fill\": \"#c8e6b0\"", with: "\"fil\": \"#c8e6b0\""),
      mustContain: ["layers[0].rules[0].style.fil", "did you mean \"fill\"?"]),
    InvalidScene(
      name: "unknown key in a layer's style",
      json: """
        { "version": 1, "map": { "center": [24.94, 60.17], "scale": 2000, "size": [100, 80] },
          "layers": [ { "id": "a", "type": "features", "source": { "geojson": "data/areas.geojson" },
                        "style": { "fil": "#ff0000" } } ] }
        """,
      mustContain: ["layers[0].style.fil", "did you mean \"fill\"?"]),
    InvalidScene(
      name: "JSON syntax error",
      json: "{\n  \"version\": 1,\n  \"map\": { \"center\": [0, 0], \"scale\": 2000, \"size\": [10, 10] }\n  \"layers\": []\n}\n",
      mustContain: ["scene.json:4:"]),
    InvalidScene(
      name: "wrong type",
      json: """
        { "version": 1, "map": { "center": [24.94, 60.17], "scale": 2000, "size": [100, 80] },
          "layers": [ { "id": "a", "type": "features", "source": { "geojson": "data/areas.geojson" },
                        "style": { "stroke": "#000", "strokeWidth": "wide" } } ] }
        """,
      mustContain: ["layers[0].style.strokeWidth"]),
    InvalidScene(
      name: "missing required key",
      json: """
        { "version": 1, "map": { "center": [24.94, 60.17], "scale": 2000 }, "layers": [] }
        """,
      mustContain: ["map.size"]),
    InvalidScene(
      name: "bad color",
      json: """
        { "version": 1, "map": { "center": [24.94, 60.17], "scale": 2000, "size": [100, 80], "background": "#ggg" },
          "layers": [] }
        """,
      mustContain: ["map.background"]),
    InvalidScene(
      name: "duplicate layer id",
      json: """
        { "version": 1, "map": { "center": [24.94, 60.17], "scale": 2000, "size": [100, 80] },
          "layers": [ { "id": "a", "type": "graphics", "graphics": [] }, { "id": "a", "type": "graphics", "graphics": [] } ] }
        """,
      mustContain: ["layers[1].id", "duplicate"]),
    InvalidScene(
      name: "minScale < maxScale",
      json: """
        { "version": 1, "map": { "center": [24.94, 60.17], "scale": 2000, "size": [100, 80] },
          "layers": [ { "id": "a", "type": "graphics", "graphics": [], "minScale": 1000, "maxScale": 5000 } ] }
        """,
      mustContain: ["layers[0]"]),
  ]

  @Test("an invalid scene exits 2 naming the file and JSON path; nothing is written, old outputs are untouched",
    arguments: invalidScenes)
  func invalidScene(_ scene: InvalidScene) throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(scene.json, to: dir + "/scene.json")
      // First: no previous outputs; nothing may appear.
      let r = try CLI.run(["scene.json", "--scale", "2000", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.hasPrefix("error: "), "stderr: \(r.stderr)")
      #expect(r.stderr.contains("scene.json"), "the message names the file: \(r.stderr)")
      for part in scene.mustContain {
        #expect(r.stderr.contains(part), "expected \(part) in: \(r.stderr)")
      }
      #expect(r.stdout.isEmpty)
      #expect(Files.list(dir) == ["data", "scene.json"], "nothing is written for an invalid scene")
      #expect(Files.leftovers(in: dir).isEmpty)

      // Then: outputs from an earlier run stay exactly as they were.
      let oldPNG: [UInt8] = PNG.signature + Array("an earlier render".utf8)
      let oldReport = Array("{\"earlier\": true}\n".utf8)
      try Files.write(oldPNG, to: dir + "/out.png")
      try Files.write(oldReport, to: dir + "/r.json")
      let again = try CLI.run(["scene.json", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(again.status == 2, "\(again)")
      #expect(try Files.read(dir + "/out.png") == oldPNG, "an existing output must be left untouched")
      #expect(try Files.read(dir + "/r.json") == oldReport, "an existing report must be left untouched")
      #expect(Files.list(dir) == ["data", "out.png", "r.json", "scene.json"])
      #expect(Files.leftovers(in: dir).isEmpty, "leftover temporary files: \(Files.leftovers(in: dir))")

      // The default output name is not created either, and -o - prints nothing.
      let toDefault = try CLI.run(["scene.json"], in: dir)
      #expect(toDefault.status == 2, "\(toDefault)")
      #expect(!Files.exists(dir + "/scene.png"))
      let toStdout = try CLI.run(["scene.json", "-o", "-"], in: dir)
      #expect(toStdout.status == 2, "\(toStdout)")
      #expect(toStdout.stdout.isEmpty)
    }
  }

  @Test("an unknown key: the exact message with path and hint")
  func unknownKeyMessage() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(Self.invalidScenes[1].json, to: dir + "/bad.json")
      let r = try CLI.run(["bad.json", "-o", "out.png"], in: dir)
      #expect(r.status == 2, "\(r)")
      let firstLine = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
      #expect(firstLine.hasPrefix("error: bad.json: layers[0].style.fil: "), "stderr: \(r.stderr)")
      #expect(firstLine.contains("unknown key \"fil\""), "stderr: \(r.stderr)")
      #expect(firstLine.contains("did you mean \"fill\"?"), "stderr: \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "one line of error: \(r.stderr)")
    }
  }

  /// Issue 37, item 15: a 1 MB unknown key was echoed whole (1,000,347
  /// bytes of standard error).
  @Test("a huge unknown key is cut in the message at any depth, top level included", arguments: ["top", "map", "layer", "deep"])
  func hugeKeyIsCut(_ depth: String) throws {
    let key = String(repeating: "k", count: 1_000_000)
    let map = #""map": { "center": [24.94, 60.17], "scale": 2000, "size": [100, 80] }"#
    let json: String
    switch depth {
    case "top": json = "{ \"\(key)\": 1, \(map), \"layers\": [] }"
    case "map": json = #"{ "map": { "center": [24.94, 60.17], "scale": 2000, "size": [100, 80], ""# + key + #"": 2 }, "layers": [] }"#
    case "layer":
      json = "{ \(map), \"layers\": [ { \"id\": \"a\", \"type\": \"graphics\", \"graphics\": [], \"\(key)\": 3 } ] }"
    default:
      // In a graphic's style, four levels down.
      json =
        "{ \(map), \"layers\": [ { \"id\": \"a\", \"type\": \"graphics\", \"graphics\": [ { \"geometry\": "
        + "{ \"type\": \"Point\", \"coordinates\": [0, 0] }, \"style\": { \"\(key)\": 1 } } ] } ] }"
    }
    try withTemporaryDirectory { dir in
      try Files.write(json, to: dir + "/scene.json")
      let r = try CLI.run(["scene.json", "-o", "out.png"], in: dir)
      #expect(r.status == 2, "\(r.stderr.prefix(300))")
      #expect(r.stderr.utf8.count < 1_000, "\(r.stderr.utf8.count) bytes: \(r.stderr.prefix(300))")
      #expect(r.stderr.contains("unknown key \"kkkk"), "\(r.stderr.prefix(300))")
      #expect(r.stderr.contains("…"), "the key is cut: \(r.stderr.prefix(300))")
    }
  }

  /// Issue 37, item 19: the "Numbers" rule (docs/scene-format.md section 9) said exit 2 for every value
  /// out of range; a command-line option's is a usage error (64).
  @Test("a number out of range: exit 2 from a scene or a manifest line, 64 from a command-line option")
  func numberStatuses() throws {
    try withTemporaryDirectory { dir in
      let scene = #"{ "version": 1, "map": { "center": [0, 0], "scale": 2000, "size": [10, 10] }, "layers": [] }"#
      try Files.write(scene, to: dir + "/ok.json")
      try Files.write(scene.replacingOccurrences(of: "2000", with: "0"), to: dir + "/bad.json")
      #expect(try CLI.run(["bad.json", "-o", "a.png"], in: dir).status == 2)
      #expect(try CLI.run(["ok.json", "--scale", "0", "-o", "a.png"], in: dir).status == 64)
      #expect(try CLI.run(["ok.json", "--pixel-ratio", "17", "-o", "a.png"], in: dir).status == 64)
      try Files.write(#"{"scene": "ok.json", "output": "a.png", "scale": 0}"# + "\n", to: dir + "/m.jsonl")
      #expect(try CLI.run(["batch", "m.jsonl"], in: dir).status == 2)
      #expect(!Files.exists(dir + "/a.png"))
    }
  }

  /// Issue 37, item 19: a message quoted the first word of any file a scene
  /// names; under --root it quotes no content of the files read.
  @Test("under --root, messages about files read quote none of their content")
  func rootMessagesQuoteNoContent() throws {
    try withTemporaryDirectory { dir in
      try Files.write("SECRET_TOKEN=abc123\n", to: dir + "/env.txt")
      try Files.write(#"{"type": "SECRETTYPE", "features": []}"#, to: dir + "/odd.geojson")
      try Files.write(
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "SECRETGEOMETRY", "coordinates": [0, 0]}}]}"#,
        to: dir + "/feature.geojson")
      let layers = ["env.txt", "odd.geojson", "feature.geojson"].enumerated().map { i, f in
        ##"{"id": "l\##(i)", "type": "features", "source": {"geojson": "\##(f)"}, "style": {"fill": "#f00"}}"##
      }
      try Files.write(
        #"{"version": 1, "map": {"center": [0, 0], "scale": 2000, "size": [10, 10]}, "layers": [\#(layers.joined(separator: ", "))]}"#,
        to: dir + "/scene.json")
      let free = try CLI.run(["scene.json", "-o", "a.png"], in: dir)
      #expect(
        free.stderr.contains("SECRET_TOKEN") && free.stderr.contains("SECRETTYPE") && free.stderr.contains("SECRETGEOMETRY"),
        "without --root the content helps: \(free.stderr)")
      let rooted = try CLI.run(["scene.json", "-o", "b.png", "--root", "."], in: dir)
      #expect(rooted.status == 0, "\(rooted)")
      #expect(!rooted.stderr.contains("SECRET"), "\(rooted.stderr)")
      #expect(rooted.stderr.contains("env.txt:1:1: invalid JSON: expected a value, found something else"), "\(rooted.stderr)")
      #expect(rooted.stderr.contains("odd.geojson: type: not GeoJSON"), "\(rooted.stderr)")
      #expect(rooted.stderr.contains("features[0].geometry.type: expected"), "\(rooted.stderr)")
      // A manifest's scene under --root: the same.
      try Files.write(#"{"scene": "env.txt", "output": "c.png"}"# + "\n", to: dir + "/m.jsonl")
      let batch = try CLI.run(["batch", "m.jsonl", "--root", "."], in: dir)
      #expect(batch.status == 1, "\(batch)")
      #expect(!batch.stderr.contains("SECRET") && batch.stderr.contains("env.txt:1:1"), "\(batch.stderr)")
    }
  }

  @Test("a JSON syntax error names file:line:col")
  func syntaxErrorLineAndColumn() throws {
    try withTemporaryDirectory { dir in
      // Line 4 is missing the comma before it; the parser stops at `"layers"`, line 4 column 3.
      try Files.write(Self.invalidScenes[2].json, to: dir + "/scene.json")
      let r = try CLI.run(["scene.json", "-o", "out.png"], in: dir)
      #expect(r.status == 2, "\(r)")
      let prefix = "error: scene.json:"
      #expect(r.stderr.hasPrefix(prefix), "stderr: \(r.stderr)")
      let numbers = r.stderr.dropFirst(prefix.count).split(separator: ":", maxSplits: 2)
      #expect(numbers.count == 3, "stderr: \(r.stderr)")
      #expect(numbers.count > 1 && Int(numbers[0]) == 4, "line: \(r.stderr)")
      #expect(numbers.count > 1 && Int(numbers[1]) == 3, "column: \(r.stderr)")
      #expect(Files.list(dir) == ["scene.json"])
    }
  }

  @Test("a missing scene file exits 2 with \"no such file\", writing nothing")
  func missingSceneFile() throws {
    try withTemporaryDirectory { dir in
      let r = try CLI.run(["nope.json", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.hasPrefix("error: "), "stderr: \(r.stderr)")
      #expect(r.stderr.contains("nope.json"), "stderr: \(r.stderr)")
      #expect(r.stderr.contains("no such file"), "stderr: \(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(Files.list(dir).isEmpty)
      let d = try CLI.run(["nope.json"], in: dir)
      #expect(d.status == 2, "\(d)")
      #expect(Files.list(dir).isEmpty)
    }
  }

  @Test("a scene path that is a folder exits 2")
  func sceneIsADirectory() throws {
    try withTemporaryDirectory { dir in
      try Files.write("", to: dir + "/scene.json/.keep")
      let r = try CLI.run(["scene.json", "-o", "out.png"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(r.stderr.hasPrefix("error: scene.json"), "stderr: \(r.stderr)")
      #expect(Files.list(dir) == ["scene.json"])
    }
  }

  // MARK: - Missing layer source

  @Test("a layer's missing GeoJSON: warning, exit 0, PNG written, the layer's status is error")
  func missingSourceWithoutStrict() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir, writeRoads: false)
      let r = try CLI.run(["scene.json", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stdout.isEmpty)
      let warning = r.stderr.split(separator: "\n").first { $0.hasPrefix("warning: layer \"roads\": ") }
      #expect(warning != nil, "stderr: \(r.stderr)")
      #expect(warning?.contains("data/roads.geojson") == true, "stderr: \(r.stderr)")
      #expect(warning?.contains("no such file") == true, "stderr: \(r.stderr)")
      #expect(!r.stderr.contains("error:"), "stderr: \(r.stderr)")
      #expect(PNG.size(try Files.read(dir + "/out.png")).map { [$0.width, $0.height] } == [160, 120])
      let report = try Report(path: dir + "/r.json")
      #expect(report.status("roads") == ["error"])
      let message = report.layer("roads")?["message"] as? String
      #expect(message?.contains("no such file") == true, "message: \(String(describing: message))")
      #expect(report.features("roads")?.drawn == 0)
      #expect(report.status("areas") == ["active"])
      #expect(report.status("route") == ["active"])
      #expect(report.features("areas").map { [$0.total, $0.drawn] } == [2, 2])
      #expect(report.features("route").map { [$0.total, $0.drawn] } == [2, 2])
      #expect(Files.leftovers(in: dir).isEmpty)
    }
  }

  @Test("a layer's missing GeoJSON with --strict: exit 1, explained on stderr, no PNG and no report")
  func missingSourceWithStrict() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir, writeRoads: false)
      let r = try CLI.run(["scene.json", "--strict", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 1, "\(r)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("roads"), "names the layer: \(r.stderr)")
      #expect(r.stderr.contains("no such file"), "says why: \(r.stderr)")
      #expect(r.stderr.contains("error: "), "stderr: \(r.stderr)")
      #expect(r.stderr.contains("--strict"), "stderr: \(r.stderr)")
      #expect(Files.list(dir) == ["data", "scene.json"], "no PNG or report with --strict")
      #expect(Files.leftovers(in: dir).isEmpty)

      // To stdout: nothing either; an existing output is untouched.
      let s = try CLI.run(["scene.json", "--strict", "-o", "-"], in: dir)
      #expect(s.status == 1, "\(s)")
      #expect(s.stdout.isEmpty)
      let old = Array("previous".utf8)
      try Files.write(old, to: dir + "/out.png")
      let o = try CLI.run(["scene.json", "--strict", "-o", "out.png"], in: dir)
      #expect(o.status == 1, "\(o)")
      #expect(try Files.read(dir + "/out.png") == old)
      #expect(Files.leftovers(in: dir).isEmpty)
    }
  }

  @Test("an unreadable (not GeoJSON) source is a warning too, and a failure with --strict")
  func invalidSource() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir, writeRoads: false)
      try Files.write("{ \"type\": \"FeatureCollection\", \"features\": [ ", to: dir + "/data/roads.geojson")
      let r = try CLI.run(["scene.json", "-o", "out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stderr.hasPrefix("warning: layer \"roads\": data/roads.geojson:"), "stderr: \(r.stderr)")
      #expect(try Report(path: dir + "/r.json").status("roads") == ["error"])
      let s = try CLI.run(["scene.json", "--strict", "-o", "strict.png"], in: dir)
      #expect(s.status == 1, "\(s)")
      #expect(!Files.exists(dir + "/strict.png"))
    }
  }

  // MARK: - Usage errors

  static let usageErrors: [[String]] = [
    ["scene.json", "--scale", "0"],
    ["scene.json", "--scale", "-3"],
    ["scene.json", "--scale=-3"],
    ["scene.json", "--scale", "nan"],
    ["scene.json", "--scale", "abc"],
    ["scene.json", "--scale", "100", "--zoom", "3"],
    ["scene.json", "--zoom", "31"],
    ["scene.json", "--size", "10"],
    ["scene.json", "--size", "0x10"],
    ["scene.json", "--center", "1"],
    ["scene.json", "--center", "0,95"],
    ["scene.json", "--pixel-ratio", "0"],
    ["scene.json", "--threads", "-1"],
    ["scene.json", "--threads=-1"],
    ["scene.json", "--tile-rows", "0"],
    ["scene.json", "--size", "20000x20000", "--pixel-ratio", "2"],
    ["scene.json", "--size", "200x100", "--max-pixels", "19999"],
    ["scene.json", "--max-pixels", "0"],
    ["scene.json", "--max-pixels", "68719476737"],
    ["scene.json", "--pixel-ratio", "16", "--size", "4000x4000"],
    ["scene.json", "--compression", "best"],
    ["scene.json", "-o", "-", "--report", "-"],
    ["scene.json", "--no-such-option"],
    ["render", "scene.json", "--no-such-option"],
    ["scene.json", "extra.json"],
    [],
    ["render"],
    ["--scale", "2000", "-o", "out.png"],
  ]

  @Test("usage errors exit 64 and write nothing", arguments: usageErrors)
  func usageError(_ arguments: [String]) throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(arguments, in: dir)
      #expect(r.status == 64, "\(arguments): \(r)")
      #expect(!r.crashed)
      #expect(!r.stderr.isEmpty, "a usage error is explained on stderr")
      #expect(!PNG.hasSignature(r.stdout), "no PNG on stdout")
      #expect(Files.list(dir) == ["data", "scene.json"], "nothing written for \(arguments)")
    }
  }

  // MARK: - Unwritable output

  @Test("output into a folder that does not exist: exit 1, the path is named, nothing is created")
  func outputFolderMissing() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "-o", "no/such/dir/out.png", "--report", "r.json"], in: dir)
      #expect(r.status == 1, "\(r)")
      #expect(r.stderr.hasPrefix("error: "), "stderr: \(r.stderr)")
      #expect(r.stderr.contains("no/such/dir/out.png"), "names the path: \(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(Files.list(dir) == ["data", "scene.json"])
      #expect(Files.leftovers(in: dir).isEmpty)
    }
  }

  @Test("report into a folder that does not exist: exit 1, the path is named")
  func reportFolderMissing() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "-o", "-", "--report", "missing/r.json"], in: dir)
      #expect(r.status == 1, "\(r)")
      #expect(r.stderr.contains("missing/r.json"), "names the path: \(r.stderr)")
      #expect(Files.list(dir) == ["data", "scene.json"])
    }
  }

  @Test("a report that cannot be written leaves the previous PNG in place: outputs are all or nothing")
  func reportFailureKeepsPreviousPNG() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let previous: [UInt8] = Array("not a png, from an earlier run".utf8)
      try Files.write(previous, to: dir + "/out.png")
      let r = try CLI.run(["scene.json", "-o", "out.png", "--report", "missing/r.json"], in: dir)
      #expect(r.status == 1, "\(r)")
      #expect(try Files.read(dir + "/out.png") == previous, "out.png was replaced although the run failed")
      #expect(Files.leftovers(in: dir).isEmpty)
    }
  }

  @Test("output path that is a folder: usage error 64 before anything is drawn; the folder and the directory are left as they were")
  func outputIsADirectory() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write("keep", to: dir + "/out.png/inside.txt")
      let r = try CLI.run(["scene.json", "-o", "out.png"], in: dir)
      #expect(r.status == 64, "\(r)")
      #expect(r.stderr.contains("not a file that can be written"), "stderr: \(r.stderr)")
      #expect(r.stderr.contains("out.png"), "stderr: \(r.stderr)")
      #expect(Files.listRecursively(dir + "/out.png") == ["inside.txt"])
      #expect(Files.list(dir) == ["data", "out.png", "scene.json"])
      #expect(Files.leftovers(in: dir).isEmpty, "leftover temporary files: \(Files.leftovers(in: dir))")
    }
  }
}

/// What mapsnap echoes from input on standard error: escaped, cut, one line.
@Suite("mapsnap echoes input safely (built binary)")
struct SafeMessageTests {
  @Test("an escape sequence in a scene key and on the command line reaches standard error escaped")
  func escapesReachTheTerminalEscaped() throws {
    try withTemporaryDirectory { dir in
      let key = "fil\\u001b[2J" + String(repeating: "z", count: 100_000)
      try Files.write(
        """
        { "version": 1, "map": { "center": [0, 0], "scale": 2000, "size": [10, 10], "\(key)": 1 },
          "layers": [] }
        """, to: dir + "/scene.json")
      let r = try CLI.run(["scene.json", "-o", "out.png"], in: dir)
      #expect(r.status == 2, "\(r)")
      #expect(!r.stderr.unicodeScalars.contains { $0 == "\u{1B}" }, "raw ESC on stderr")
      #expect(r.stderr.contains(#"map["fil\u{1B}[2Jzz"#), "\(r.stderr.prefix(300))")
      #expect(r.stderr.utf8.count < 1500, "message grows with its input: \(r.stderr.utf8.count) bytes")
      #expect(r.stderr.split(separator: "\n").count == 1)

      let c = try CLI.run(["scene.json", "--center", "1,\u{1B}[31m"], in: dir)
      #expect(c.status == 64, "\(c)")
      #expect(!c.stderr.unicodeScalars.contains { $0 == "\u{1B}" }, "raw ESC on stderr: \(c.stderr)")
      #expect(c.stderr.contains(#""1,\u{1B}[31m""#), "\(c.stderr)")
    }
  }
}
