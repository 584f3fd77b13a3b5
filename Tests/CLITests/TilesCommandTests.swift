import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// `tiles` layers through the built binary: the report's tiles block,
/// `explain`'s tiles row, and `--strict` on a tiled layer in another
/// spatial reference.
@Suite("tiles layers (built binary)")
struct TilesCommandTests {
  static let tiles = Repository.root + "/Examples/data/tiles"

  static func scene(_ source: String, map: String) -> String {
    #"{"version": 1, "map": {\#(map)}, "layers": [{"id": "base", "type": "tiles", "source": \#(source)}]}"#
  }

  @Test("render --report: the tiles block, the attribution and the spatial reference")
  func report() throws {
    try withTemporaryDirectory { dir in
      let map = #""center": [24.9444580078125, 60.17157405145976], "zoom": 16, "size": [512, 512], "attribution": true"#
      try Files.write(Self.scene(#"{"mbtiles": "\#(Self.tiles)/helsinki-3857.mbtiles"}"#, map: map), to: dir + "/scene.json")
      let r = try CLI.run(["scene.json", "-o", "out.png", "--report", "report.json"], in: dir)
      #expect(r.status == 0, "\(r)")
      let report = try JSONParser.parse(try Files.read(dir + "/report.json"))
      #expect(report["map"]?["spatialReference"] == .number(3857))
      #expect(report["map"]?["attribution"] == .string("© OpenStreetMap contributors"))
      let t = report["layers"]?[0]?["tiles"]
      #expect(t?["zoom"] == .number(16) && t?["drawn"] == .number(4) && t?["missing"] == .number(0))
      #expect(t?["tileMatrixSet"] == .string("WebMercatorQuad"))
      let explain = try CLI.run(["explain", "scene.json"], in: dir)
      #expect(explain.stdoutText.contains("4/4 tiles"), "\(explain.stdoutText)")
      #expect(explain.stdoutText.contains("level 16"), "\(explain.stdoutText)")
    }
  }

  @Test("--strict with tiles in another spatial reference: exit 1, nothing written")
  func strictMismatch() throws {
    try withTemporaryDirectory { dir in
      let map = #""center": [0, 0], "zoom": 2, "size": [256, 256], "spatialReference": 3857"#
      try Files.write(Self.scene(#"{"xyz": "\#(Self.tiles)/world-4326/{z}/{x}/{y}.png"}"#, map: map), to: dir + "/scene.json")
      let lenient = try CLI.run(["scene.json", "-o", "out.png"], in: dir)
      #expect(lenient.status == 0, "\(lenient)")
      #expect(lenient.stderr.contains("the tiles are in EPSG:4326 but the map is in EPSG:3857"), "\(lenient.stderr)")
      let strict = try CLI.run(["scene.json", "-o", "strict.png", "--strict"], in: dir)
      #expect(strict.status == 1, "\(strict)")
      #expect(!Files.exists(dir + "/strict.png"))
    }
  }
}
