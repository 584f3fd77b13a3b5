import MapSnap
import Testing
import _MapSnapTestSupport

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

  /// The arguments `command` declares, from ArgumentParser's help dump:
  /// each with its names (`--long`, `-s`), kind, repetition and parsing.
  private func declared(_ command: [String]) throws -> [(names: [String], kind: String, repeating: Bool, parsing: String)] {
    let dump = try CLI.run(command + ["--experimental-dump-help"], in: "/")
    let json = try JSONParser.parse(dump.stdout)
    guard case .array(let arguments)? = member(member(json, "command"), "arguments") else {
      Issue.record("no arguments in \(command)'s help dump")
      return []
    }
    return arguments.compactMap { a in
      guard case .string(let kind)? = member(a, "kind"), kind != "positional", case .array(let names)? = member(a, "names") else { return nil }
      let spelt = names.compactMap { n -> String? in
        guard case .string(let name)? = member(n, "name"), case .string(let k)? = member(n, "kind") else { return nil }
        return (k == "long" ? "--" : "-") + name
      }
      guard case .bool(let repeating)? = member(a, "isRepeating"), case .string(let parsing)? = member(a, "parsingStrategy") else { return nil }
      return (spelt, kind, repeating, parsing)
    }
  }

  @Test("every option render declares has a reader of the same arity and parsing, under every name it has")
  func readersFollowTheDeclarations() throws {
    for option in try declared(["render"]) where !option.names.contains("--help") && !option.names.contains("--version") {
      for name in option.names {
        let reader = try #require(QuickRender.reader(for: name), "\(name) is declared but QuickRender does not read it")
        let arity = reader.arity
        #expect(
          arity.kind == option.kind && arity.repeating == option.repeating && arity.parsing == option.parsing,
          "\(name): declared \(option.kind), repeating \(option.repeating), parsing \(option.parsing); QuickRender reads \(arity)")
      }
    }
  }

  @Test("QuickRender reads no option render does not declare (one other commands have, say)")
  func noReaderWithoutDeclaration() throws {
    let render = Set(try declared(["render"]).flatMap(\.names))
    for command in [["explain"], ["batch"], ["diff"], ["test"]] {
      for name in try declared(command).flatMap(\.names) where !render.contains(name) {
        #expect(QuickRender.reader(for: name) == nil, "QuickRender reads \(name), which render does not declare")
      }
    }
  }

  @Test("its defaults are the declarations' defaults")
  func sameDefaults() throws {
    #expect(RenderSettings(scene: "scene.json") == (try parsed(["scene.json"])))
  }
}
