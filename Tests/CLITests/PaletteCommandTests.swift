import Foundation
import MapSnap
import Testing
import _MapSnapTestSupport

/// `--palette N` and `--dither` end to end: a palette PNG from `render` and
/// `batch`, and the usage errors.
@Suite("mapsnap --palette (built binary)")
struct PaletteCommandTests {
  @Test("--palette 16 writes a colour-type-3 PNG with the input digest; --dither changes the file")
  func renderPalette() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      let r = try CLI.run(["scene.json", "--palette", "16", "-o", "p.png"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(r.stderr.isEmpty, "\(r.stderr)")
      let png = try Files.read(dir + "/p.png")
      #expect(PNG.hasSignature(png) && PNG.endsWithIEND(png))
      #expect(png[25] == 3, "IHDR colour type 3 (palette)")
      #expect(png[24] == 4, "16 entries are 4-bit indices")
      #expect(PNGTextChunk.text(keyword: PNGTextChunk.inputsKeyword, in: png)?.hasPrefix("sha256:") == true)
      let image = try PNGDecoder.decode(png)
      #expect(image.width == 160 && image.height == 120)
      let colours = Set(image.packedPixels)
      #expect(colours.count <= 16 && colours.count > 2, "\(colours.count) colours")
      // The same frame in true colour has more colours and a larger file.
      #expect(try CLI.run(["scene.json", "-o", "t.png"], in: dir).status == 0)
      let truecolour = try Files.read(dir + "/t.png")
      #expect(Set(try PNGDecoder.decode(truecolour).packedPixels).count > 16)
      #expect(png.count < truecolour.count)
      // Deterministic, and dithering is another file.
      #expect(try CLI.run(["scene.json", "--palette", "16", "-o", "again.png", "--threads", "1"], in: dir).status == 0)
      #expect(try Files.read(dir + "/again.png") == png)
      #expect(try CLI.run(["scene.json", "--palette", "16", "--dither", "-o", "d.png"], in: dir).status == 0)
      let dithered = try Files.read(dir + "/d.png")
      #expect(dithered[25] == 3)
      #expect(dithered != png)
    }
  }

  @Test("batch --palette writes the same bytes as render --palette, and --resume redraws when the palette changes")
  func batchPalette() throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      try Files.write(#"{"scene": "scene.json", "output": "out/a.png"}"# + "\n", to: dir + "/jobs.jsonl")
      let b = try CLI.run(["batch", "jobs.jsonl", "--palette", "32", "--quiet"], in: dir)
      #expect(b.status == 0, "\(b)")
      #expect(try CLI.run(["scene.json", "--palette", "32", "-o", "single.png"], in: dir).status == 0)
      let batch = try Files.read(dir + "/out/a.png")
      #expect(batch[25] == 3)
      #expect(batch == (try Files.read(dir + "/single.png")))
      func resumed(_ extra: [String]) throws -> String {
        let r = try CLI.run(["batch", "jobs.jsonl", "--resume", "--summary", "s.json"] + extra, in: dir)
        #expect(r.status == 0, "\(r)")
        let s = try JSONSerialization.jsonObject(with: Data(Files.read(dir + "/s.json"))) as? [String: Any]
        let f = s?["frames"] as? [String: Any]
        return "\(f?["rendered"] as? Int ?? -1)/\(f?["skipped"] as? Int ?? -1)"
      }
      #expect(try resumed(["--palette", "32"]) == "0/1", "same palette: up to date")
      #expect(try resumed(["--palette", "64"]) == "1/0", "another size: drawn again")
      #expect(try resumed(["--palette", "64", "--dither"]) == "1/0", "dithering: drawn again")
      #expect(try resumed([]) == "1/0", "true colour: drawn again")
      #expect(try Files.read(dir + "/out/a.png")[25] != 3)
    }
  }

  @Test("out-of-range --palette and --dither without it: usage errors (exit 64), nothing written",
    arguments: [
      (["--palette", "1"], "--palette must be 2 to 256 colours, got 1"),
      (["--palette", "257"], "--palette must be 2 to 256 colours, got 257"),
      (["--palette", "-4"], "--palette must be 2 to 256 colours, got -4"),
      (["--palette", "many"], "--palette"),
      (["--dither"], "--dither needs --palette N"),
    ])
  func usageErrors(_ arguments: [String], message: String) throws {
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir)
      for command in [["scene.json", "-o", "out.png"], ["batch", "jobs.jsonl"]] {
        try Files.write(#"{"scene": "scene.json", "output": "out.png"}"# + "\n", to: dir + "/jobs.jsonl")
        let r = try CLI.run(command + arguments, in: dir)
        #expect(r.status == 64, "\(command + arguments): \(r)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!Files.exists(dir + "/out.png"))
      }
    }
  }

  @Test("mapsnap test: a case with \"palette\": 16 records a PNG8 and passes against it; a bad palette key cannot run")
  func testCommandPalette() throws {
    let clean: [String: String?] = ["CI": nil, "MAPSNAP_RECORD": nil, "GITHUB_ACTIONS": nil]
    try withTemporaryDirectory { dir in
      try Fixture.write(in: dir + "/cases/roads")
      try Files.write(#"{"scales": [2000], "palette": 16}"#, to: dir + "/cases/roads/golden.json")
      #expect(try CLI.run(["test", "cases", "--record", "missing"], in: dir, environment: clean).status == 1)
      let recorded = try Files.read(dir + "/cases/roads/2000.png")
      #expect(recorded[25] == 3, "recorded as a palette PNG")
      let again = try CLI.run(["test", "cases"], in: dir, environment: clean)
      #expect(again.status == 0, "\(again)")
      // The true-colour frame is not the PNG8's pixels: without the key the case fails.
      try Files.write(#"{"scales": [2000]}"#, to: dir + "/cases/roads/golden.json")
      let truecolour = try CLI.run(["test", "cases"], in: dir, environment: clean)
      #expect(truecolour.status == 1 && truecolour.stderr.contains("px differ"), "\(truecolour)")
      for bad in [#"{"scales": [2000], "palette": 300}"#, #"{"scales": [2000], "palette": 2.5}"#, #"{"scales": [2000], "dither": true}"#] {
        try Files.write(bad, to: dir + "/cases/roads/golden.json")
        let r = try CLI.run(["test", "cases"], in: dir, environment: clean)
        #expect(r.status == 2 && r.stderr.contains("palette"), "\(bad): \(r)")
      }
    }
  }
}
