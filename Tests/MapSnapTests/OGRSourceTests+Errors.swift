import Foundation
import Testing
import _MapSnapTestSupport

@testable import MapSnap
@testable import _MapSnapRaster

/// OGR source errors, each a layer error with what to do.
extension OGRSourceTests {
  @Test func aMissingLayerNamesTheLayersAndTheClosest() throws {
    let p = try plan([#"{"ogr": "\#(Self.data)helsinki.gpkg", "layer": "road"}"#])
    let message = p.layers[0].message ?? ""
    #expect(p.layers[0].status.contains(.error))
    #expect(message.contains(#"no layer "road""#) && message.contains(#"did you mean "roads"?"#), "\(message)")
  }

  @Test func severalLayersAndNoneNamedIsAnError() throws {
    let p = try plan([#"{"ogr": "\#(Self.data)helsinki.gpkg"}"#])
    let message = p.layers[0].message ?? ""
    #expect(message.contains("has 4 layers") && message.contains(#"name one with "layer""#), "\(message)")
  }

  @Test func aDatasetWithoutAReferenceNeedsCrs() throws {
    try withTemporaryDirectory { dir in
      for ext in ["shp", "shx", "dbf", "cpg"] {
        try FileManager.default.copyItem(atPath: Self.data + "helsinki_roads." + ext, toPath: dir + "/roads." + ext)
      }
      let bare = try plan([#"{"ogr": "\#(dir)/roads.shp"}"#])
      let message = bare.layers[0].message ?? ""
      #expect(message.contains("has no spatial reference") && message.contains(#"give the source a "crs""#), "\(message)")
      let given = try plan([#"{"ogr": "\#(dir)/roads.shp", "crs": "EPSG:4326"}"#])
      #expect(given.layers[0].status.contains(.active))
      #expect(given.layers[0].ogr?.spatialReference == "EPSG:4326")
    }
  }

  @Test func aFileGDALCannotOpenIsALayerErrorWithItsMessage() throws {
    let p = try plan([#"{"ogr": "\#(Self.data)no-such.fgb"}"#])
    #expect(p.layers[0].status.contains(.error))
    #expect(p.layers[0].message?.contains("GDAL:") == true, "\(p.layers[0].message ?? "")")
    // A GeoPackage is opened by mapsnap itself (SQLite).
    let gpkg = try plan([#"{"ogr": "\#(Self.data)no-such.gpkg"}"#])
    #expect(gpkg.layers[0].message?.contains("no such file") == true, "\(gpkg.layers[0].message ?? "")")
    try withTemporaryDirectory { dir in
      try Data("not a database".utf8).write(to: URL(fileURLWithPath: dir + "/bad.gpkg"))
      let bad = try plan([#"{"ogr": "\#(dir)/bad.gpkg"}"#])
      #expect(bad.layers[0].status.contains(.error), "\(bad.layers[0].message ?? "")")
    }
  }

  @Test func underRootOnlyFilesInsideAreRead() throws {
    let database = try plan([#"{"ogr": "PG:dbname=gis"}"#], root: Repository.root)
    #expect(database.layers[0].message?.contains("not allowed under --root") == true)
    try withTemporaryDirectory { dir in
      let outside = try plan([#"{"ogr": "\#(Self.data)helsinki_pois.fgb"}"#], root: dir)
      #expect(outside.layers[0].message?.contains("outside --root") == true, "\(outside.layers[0].message ?? "")")
    }
  }

  @Test func sourceKeysAreChecked() throws {
    for (source, key) in [
      (#"{"ogr": "a.gpkg", "geojson": "a.geojson"}"#, "geojson"), (#"{"geojson": "a.geojson", "layer": "x"}"#, "layer"),
    ] {
      #expect(throws: SceneError.self) { _ = try plan([source]) }
      do {
        _ = try plan([source])
      } catch let e as SceneError {
        #expect(e.path.description == "layers[0].source.\(key)")
      }
    }
  }
}
