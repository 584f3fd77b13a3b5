import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// The batch manifest (scene format section 8) and overlays: what a line
/// may say, and the errors that name the line.
@Suite struct ManifestTests {
  private func validate(_ text: String, shard: (Int, Int) = (0, 1)) throws -> Result<(frames: Int, inShard: Int, lines: Int), ManifestError> {
    try withTemporaryDirectory { dir in
      try Files.write(text, to: dir + "/jobs.jsonl")
      let reader = ManifestReader(path: dir + "/jobs.jsonl")
      do throws(ManifestError) {
        return .success(try reader.validate(shard: shard))
      } catch {
        return .failure(error)
      }
    }
  }

  @Test("a valid manifest: blank lines skipped but counted; shards count their lines")
  func validManifest() throws {
    let text = """
      {"scene": "a.json", "output": "out/1.png", "scale": 2000, "center": [24.9, 60.1], "size": [256, 256], "pixelRatio": 2}

      {"scene": "a.json", "output": "out/3.png", "zoom": 14, "floor": 2, "padding": [1, 2, 3, 4], "bounds": [24, 60, 25, 61]}
      {"scene": "a.json", "output": "out/4.png", "fit": {"layer": "pois", "id": 7}, "report": "out/4.json", "overlays": [{"marker": [24.9, 60.1], "label": "A"}, {"highlight": {"layer": "pois", "id": "x"}}, {"geojson": {"type": "Point", "coordinates": [24.9, 60.1]}, "color": "#06f", "width": 2}]}

      """
    let r = try validate(text).get()
    #expect(r.frames == 3 && r.lines == 4)
    // Index = line − 1: shard 0/2 takes lines 1 and 3; shard 1/2 takes line 4 (line 2 is blank).
    #expect(try validate(text, shard: (0, 2)).get().inShard == 2)
    #expect(try validate(text, shard: (1, 2)).get().inShard == 1)
  }

  @Test("every invalid line is listed with its number, and nothing else counts as valid")
  func invalidLines() throws {
    let text = """
      {"scene": "a.json", "output": "x.png"}
      [1, 2]
      {"scene": "a.json", "output": "y.png", "centre": [1, 2]}
      {"scene": "a.json", "output": "z.jpg"}
      {"scene": "a.json", "output": "w.png", "scale": -3}
      {"scene": "a.json", "output": "./sub/../x.png"}
      {"scene": "a.json", "output": "v.png", "scale": 1000, "zoom": 3}
      {"scene": "a.json"
      {"output": "u.png"}
      {"scene": "a.json", "output": "t.png", "bounds": [1, 2, 3, 4], "fit": {"layer": "a", "id": 1}}
      {"scene": "a.json", "output": "s.png", "overlays": [{"marker": [200, 0]}]}
      """
    guard case .failure(let e) = try validate(text) else {
      Issue.record("the manifest should be invalid")
      return
    }
    #expect(e.problems.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    let message = e.description
    #expect(message.contains("jobs.jsonl:3: centre: unknown key \"centre\""), "\(message)")
    #expect(message.contains("did you mean \"center\"?"), "\(message)")
    #expect(message.contains("jobs.jsonl:4: output: expected a path ending in .png"), "\(message)")
    #expect(message.contains("jobs.jsonl:6: output:") && message.contains("line 1's output too"), "\(message)")
    #expect(message.contains("jobs.jsonl:8:"), "\(message)")
    #expect(message.contains("no frame was drawn"), "\(message)")
  }

  @Test("a report path that another line writes is a duplicate too")
  func reportDuplicates() throws {
    let text = """
      {"scene": "a.json", "output": "a.png", "report": "r.json"}
      {"scene": "a.json", "output": "b.png", "report": "r.json"}
      {"scene": "a.json", "output": "c.png", "report": "c.png"}
      """
    guard case .failure(let e) = try validate(text) else {
      Issue.record("the manifest should be invalid")
      return
    }
    #expect(e.problems.map(\.line) == [2, 3])
    #expect(e.description.contains("jobs.jsonl:2: report:") && e.description.contains("line 1's report"), "\(e.description)")
    #expect(e.description.contains("its own output"), "\(e.description)")
  }

  @Test("the command-line forms of overlays read as the JSON forms")
  func overlayForms() throws {
    let d = OverlayDecoder(file: "jobs.jsonl", baseDirectory: "")
    let json = try d.decode(["marker": [24.9, 60.1], "label": "Café", "color": "#06f", "size": 20], at: "overlays[0]")
    let cli = try d.decode(commandLine: "24.9,60.1|label:Café|color:#06f|size:20", kind: "marker")
    #expect(json.digestKey == cli.digestKey)
    let h1 = try d.decode(["highlight": ["layer": "pois", "id": 7], "width": 4], at: "overlays[0]")
    let h2 = try d.decode(commandLine: "pois:7|width:4", kind: "highlight")
    #expect(h1.digestKey == h2.digestKey, "a numeric id and its text are the same id")
    #expect(throws: SceneError.self) { try d.decode(["marker": [1, 2], "highlight": ["layer": "a", "id": 1]], at: "o") }
    #expect(throws: SceneError.self) { try d.decode(["marker": [1, 2], "style": ["size": 3], "color": "red"], at: "o") }
    #expect(throws: SceneError.self) { try d.decode(commandLine: "1,2|colour:red", kind: "marker") }
    #expect(throws: SceneError.self) { try d.decode(commandLine: "pois", kind: "highlight") }
    // Sizes that would overflow the rasteriser are refused.
    #expect(throws: SceneError.self) { try d.decode(commandLine: "1,2|size:1e300", kind: "marker") }
    #expect(throws: SceneError.self) { try d.decode(["geojson": "a.geojson", "style": ["stroke": "red", "strokeWidth": 1e300]], at: "o") }
  }

  @Test("a marker overlay may be an icon, in both forms; the path's spelling does not change the digest")
  func iconMarker() throws {
    let d = OverlayDecoder(file: "jobs.jsonl", baseDirectory: "/data")
    let json = try d.decode(["marker": [24.9, 60.1], "icon": "icons/valve.png", "size": 20], at: "overlays[0]")
    #expect(json.style.marker?.icon == "/data/icons/valve.png")
    #expect(json.style.marker?.size == 20)
    let cli = try OverlayDecoder(file: "cli", baseDirectory: "").decode(commandLine: "24.9,60.1|icon:./icons/valve.png|size:20", kind: "marker")
    #expect(cli.style.marker?.icon == "./icons/valve.png")
    #expect(json.digestKey == cli.digestKey, "the icon's bytes, not its path, are in the digest")
    #expect(throws: SceneError.self) { try d.decode(["marker": [1, 2], "icon": "a.png", "shape": "pin"], at: "o") }
  }

  @Test("a highlight draws the named feature above the scene; an unknown id is an error naming it")
  func highlightLayer() throws {
    var scene = try SceneLoader.load(path: Repository.root + "/Examples/helsinki.json")
    let index = try #require(scene.layers.firstIndex { $0.id == "pois" })
    scene.layers[index].idField = "id"  // the POIs' own "id" property
    let d = OverlayDecoder(file: "cli", baseDirectory: "")
    let sources = SourceLoader()
    let pois = try #require(scene.layers.first { $0.id == "pois" })
    guard case .features(let source, _) = pois.content, case .success(let all) = sources.load(source) else {
      Issue.record("the example's pois layer")
      return
    }
    let first = try #require(all.features.first { f in (pois.idField.flatMap { f.properties[$0] } ?? f.id) != nil })
    let id = try #require((pois.idField.flatMap { first.properties[$0] } ?? first.id).flatMap(FloorValue.init(json:)))
    let added = try scene.adding([try d.decode(commandLine: "pois:\(id.text)", kind: "highlight")], sources: sources)
    #expect(added.layers.count == scene.layers.count + 1)
    #expect(added.layers.last?.id == "@overlay-1")
    #expect(added.contentDigest != scene.contentDigest)
    guard case .features(.inline(let c), _)? = added.layers.last?.content else {
      Issue.record("an inline layer")
      return
    }
    #expect(c.features.count >= 1)
    do {
      _ = try scene.adding([try d.decode(commandLine: "pois:no-such-id", kind: "highlight")], sources: sources)
      Issue.record("an unknown id must be an error")
    } catch {
      #expect(error.description.contains("no-such-id"), "\(error)")
    }
    do {
      _ = try scene.adding([try d.decode(commandLine: "poi:1", kind: "highlight")], sources: sources)
      Issue.record("an unknown layer must be an error")
    } catch {
      #expect(error.hint == "did you mean \"pois\"?", "\(error)")
    }
  }
}
