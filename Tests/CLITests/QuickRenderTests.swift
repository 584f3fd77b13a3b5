import Testing

@testable import MapSnapCLI

/// The start-up reader of `mapsnap scene.json [options]` (`QuickRender`)
/// must read every argument list it accepts exactly as ArgumentParser reads
/// it, and hand back (nil) every list it cannot be sure of.
@Suite struct QuickRenderTests {
  /// ArgumentParser's reading of `arguments`, as `render` settings.
  private func parsed(_ arguments: [String]) throws -> RenderSettings {
    let command = try Mapsnap.parseAsRoot(arguments)
    let render = try #require(command as? Render, "\(arguments) did not parse as render")
    return render.settings
  }

  @Test(
    "every option, in both spellings and in any order, reads as ArgumentParser reads it",
    arguments: [
      ["scene.json"],
      ["render", "scene.json"],
      ["scene.json", "-o", "out.png"],
      ["-o", "out.png", "scene.json"],
      ["scene.json", "--output=out.png", "--scale", "2000"],
      ["scene.json", "--scale=2000.5", "--pixel-ratio", "2", "--size", "300x200"],
      ["scene.json", "--zoom", "12.5", "--center", "-73.98,40.71"],
      ["scene.json", "--center=-73.98,40.71", "--bounds", "-74.1,40.6,-73.8,40.9", "--padding", "10,20,30,40"],
      ["scene.json", "--fit", "roads:42", "--floor", "2"],
      ["scene.json", "--marker", "24.94,60.17|label:Here", "--marker", "24.95,60.18", "--highlight", "roads:1"],
      // West of Greenwich (issue 37, item 8): a leading minus is a value, not an option.
      ["scene.json", "--marker", "-74.0,40.7", "--marker=-0.1,51.5|label:London"],
      ["scene.json", "--geojson", "extra.geojson|color:#f00", "--font-dir", "fonts", "--font-dir", "more"],
      ["scene.json", "--max-pixels", "4096", "--max-source-bytes", "64M", "--root", "."],
      ["scene.json", "--report", "r.json", "--report-detail", "counts", "--strict"],
      ["scene.json", "--threads", "1", "--tile-rows", "7", "--compression", "small"],
      ["scene.json", "--palette", "64", "--dither"],
      ["scene.json", "--palette=16", "--threads=2", "--tile-rows=1"],
    ])
  func sameAsArgumentParser(_ arguments: [String]) throws {
    let quick = try #require(QuickRender.settings(from: arguments), "\(arguments) was handed back")
    #expect(quick == (try parsed(arguments)))
  }

  @Test(
    "what it cannot be sure of goes to ArgumentParser",
    arguments: [
      [],
      ["--help"], ["-h"], ["--version"], ["render", "--help"],
      ["explain", "scene.json"], ["batch", "m.jsonl"], ["diff", "a.png", "b.png"], ["test", "cases"], ["help"],
      ["scene.json", "other.json"],
      ["scene.json", "--unknown"],
      ["scene.json", "--scale"],
      ["scene.json", "--scale", "2000", "--scale", "4000"],
      ["scene.json", "-o", "a.png", "--output", "b.png"],
      ["scene.json", "--strict", "--strict"],
      ["scene.json", "--strict=yes"],
      ["scene.json", "--scale", "big"],
      ["scene.json", "--threads", "1.5"],
      ["scene.json", "--compression", "tiny"],
      ["scene.json", "--report-detail", "some"],
      ["scene.json", "--max-source-bytes", "12Q"],
      ["scene.json", "-o", "-"],
      ["scene.json", "-o", "--scale"],
      ["scene.json", "--size", "-3x4"],
      ["scene.json", "-o=out.png"],
      ["scene.json", "--", "x"],
      ["-"],
      // Valid to read, invalid to run: ArgumentParser prints the message.
      ["scene.json", "--scale", "0"],
      ["scene.json", "--zoom", "31"],
      ["scene.json", "--scale", "2000", "--zoom", "3"],
      ["scene.json", "--threads", "100000"],
      ["scene.json", "--palette", "1"],
      ["scene.json", "--dither"],
      ["scene.json", "-o", "out.jpg"],
      ["scene.json", "--center", "200,0"],
      ["scene.json", "--bounds", "1,2,3"],
      ["scene.json", "--bounds", "1,2,3,4", "--fit", "a:b"],
      ["scene.json", "--marker", "nowhere"],
    ])
  func handedBack(_ arguments: [String]) {
    #expect(QuickRender.settings(from: arguments) == nil)
  }

  @Test("what it hands back for failing validation, ArgumentParser refuses")
  func refusedByArgumentParser() {
    for arguments in [["scene.json", "--scale", "0"], ["scene.json", "--palette", "1"], ["scene.json", "-o", "out.jpg"]] {
      #expect(throws: (any Error).self, "\(arguments)") { _ = try Mapsnap.parseAsRoot(arguments) }
    }
  }
}
