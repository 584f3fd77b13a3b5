import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap

/// The view in map units (scene format 1.2) through the built binary:
/// `--view-crs` with `--center`, `--bounds` and `--marker`, a manifest line's
/// `viewCrs`, and their errors.
@Suite("the view in map units (built binary)")
struct ViewCrsCommandTests {
  /// A map in ETRS-TM35FIN with one POI layer in WGS84.
  static let scene = ##"""
    { "version": 1, "map": { "spatialReference": "EPSG:3067", "center": [24.94, 60.17], "scale": 4000, "size": [300, 200] },
      "layers": [ { "id": "pois", "type": "features", "source": { "geojson": "POIS" }, "style": { "marker": {} } } ] }
    """##

  private func write(_ dir: String) throws {
    try Files.write(Self.scene.replacingOccurrences(of: "POIS", with: Repository.root + "/Examples/data/helsinki_pois.geojson"), to: dir + "/scene.json")
  }

  private func centerMap(_ path: String) throws -> (Double, Double)? {
    let report = try JSONParser.parse(try Files.read(path))
    guard case .number(let x)? = report["map"]?["centerMap"]?[0], case .number(let y)? = report["map"]?["centerMap"]?[1] else { return nil }
    return (x, y)
  }

  @Test("--view-crs map and EPSG:3067 put the centre at the metres given; degrees stay the default")
  func centreInMapUnits() throws {
    try withTemporaryDirectory { dir in
      try write(dir)
      for crs in ["map", "EPSG:3067", "3067"] {
        let r = try CLI.run(["scene.json", "--view-crs", crs, "--center", "385950,6672000", "-o", "a.png", "--report", "a.json"], in: dir)
        #expect(r.status == 0, "\(r)")
        let c = try #require(try centerMap(dir + "/a.json"))
        #expect(abs(c.0 - 385_950) < 1e-6 && abs(c.1 - 6_672_000) < 1e-6, "\(crs): \(c)")
      }
      // Metres without --view-crs are not degrees: a usage error that says what to add.
      let plain = try CLI.run(["scene.json", "--center", "385950,6672000", "-o", "b.png"], in: dir)
      #expect(plain.status == 64, "\(plain)")
      #expect(plain.stderr.contains("--view-crs"), "\(plain.stderr)")
      for bad in ["bogus", "EPSG:999999"] {
        let r = try CLI.run(["scene.json", "--view-crs", bad, "--center", "385950,6672000", "-o", "b.png"], in: dir)
        #expect(r.status == 64 && r.stderr.contains("--view-crs must be"), "\(r)")
      }
      #expect(!Files.exists(dir + "/b.png"))
    }
  }

  @Test("--bounds in metres fits the box; a marker in metres lands at its point")
  func boundsAndMarkerInMapUnits() throws {
    try withTemporaryDirectory { dir in
      try write(dir)
      let r = try CLI.run(
        [
          "scene.json", "--view-crs", "map", "--bounds", "385600,6671800,386300,6672700", "--marker", "385950,6672250|color:#ff0000|shape:circle",
          "-o", "a.png", "--report", "a.json",
        ], in: dir)
      #expect(r.status == 0, "\(r)")
      let c = try #require(try centerMap(dir + "/a.json"))
      #expect(abs(c.0 - 385_950) < 1e-6 && abs(c.1 - 6_672_250) < 1e-6)
      let png = try PNGDecoder.decode(contentsOf: dir + "/a.png")
      let o = ((png.height / 2) * png.width + png.width / 2) * 4
      #expect(png.pixels[o] > 200 && png.pixels[o + 1] < 60, "the marker at the centre")
    }
  }

  @Test("a manifest line's viewCrs reads its centre, bounds and markers in that reference")
  func manifestLines() throws {
    try withTemporaryDirectory { dir in
      try write(dir)
      let lines = [
        #"{"scene": "scene.json", "output": "a.png", "report": "a.json", "viewCrs": "EPSG:3067", "center": [385950, 6672000]}"#,
        #"{"scene": "scene.json", "output": "b.png", "viewCrs": "map", "bounds": [385600, 6671800, 386300, 6672700], "overlays": [{"marker": [385950, 6672250]}]}"#,
      ]
      try Files.write(lines.joined(separator: "\n") + "\n", to: dir + "/jobs.jsonl")
      let r = try CLI.run(["batch", "jobs.jsonl"], in: dir)
      #expect(r.status == 0, "\(r)")
      #expect(Files.exists(dir + "/a.png") && Files.exists(dir + "/b.png"))
      let c = try #require(try centerMap(dir + "/a.json"))
      #expect(abs(c.0 - 385_950) < 1e-6 && abs(c.1 - 6_672_000) < 1e-6)
      // Metres without viewCrs are degrees out of range: the line, and so the manifest, is invalid.
      try Files.write(#"{"scene": "scene.json", "output": "c.png", "center": [385950, 6672000]}"# + "\n", to: dir + "/bad.jsonl")
      let bad = try CLI.run(["batch", "bad.jsonl"], in: dir)
      #expect(bad.status == 2 && bad.stderr.contains("bad.jsonl:1: center[0]"), "\(bad)")
      #expect(!Files.exists(dir + "/c.png"))
    }
  }
}
