extension SceneDecoder {
  /// A `tiles` layer (3.4): `source` is `{ "mbtiles": "file" }`,
  /// `{ "xyz": "template", "scheme": "xyz" | "tms" }` or
  /// `{ "geopackage": "file", "table": "name" }`.
  func decodeTiles(_ r: ObjectReader) throws(SceneError) -> TileLayer {
    let sv = try r.require(
      "source", "{ \"mbtiles\": \"file\" }, { \"xyz\": \"tiles/{z}/{x}/{y}.png\" } or { \"geopackage\": \"file.gpkg\" }")
    let sp = r.path.key("source")
    let s = try ObjectReader(sv, at: sp, file: file, what: "a tile source", allowed: ["mbtiles", "xyz", "scheme", "geopackage", "table"])
    let spec: TileSourceSpec
    let kinds = ["mbtiles", "xyz", "geopackage"].filter { s.has($0) }
    if kinds.count > 1 { throw s.conflict(kinds[0], kinds[1]) }
    if s.has("table") && kinds != ["geopackage"] {
      throw s.invalid("table", expected: "no \"table\" except with \"geopackage\"", found: s.object["table"]!)
    }
    switch (s.object["mbtiles"], s.object["xyz"]) {
    case (.some, .some):
      throw s.conflict("mbtiles", "xyz")
    case (.none, .none):
      guard s.has("geopackage") else {
        throw SceneError(
          file: file, at: sp, kind: .missingKey,
          expected: "\"mbtiles\" (a file path), \"xyz\" (a path template) or \"geopackage\" (a file path)")
      }
      if s.has("scheme") { throw s.invalid("scheme", expected: "no \"scheme\" with \"geopackage\" (its rows count from the top)", found: s.object["scheme"]!) }
      let p = try s.string("geopackage", nonEmpty: true)!
      spec = .geopackage(path: p, resolved: FileIO.resolve(p, against: baseDirectory), table: try s.string("table", nonEmpty: true))
    case (.some, .none):
      if s.has("scheme") { throw s.invalid("scheme", expected: "no \"scheme\" with \"mbtiles\" (MBTiles rows are always TMS)", found: s.object["scheme"]!) }
      let p = try s.string("mbtiles", nonEmpty: true)!
      spec = .mbtiles(path: p, resolved: FileIO.resolve(p, against: baseDirectory))
    case (.none, .some):
      let t = try s.string("xyz", nonEmpty: true)!
      for part in ["{z}", "{x}", "{y}"] where !t.contains(part) {
        throw s.invalid("xyz", expected: "a path template with {z}, {x} and {y}", found: .string(t))
      }
      let scheme = try s.choice("scheme", ["xyz", "tms"])
      spec = .xyz(template: t, resolved: FileIO.resolve(t, against: baseDirectory), tms: scheme.map { $0 == "tms" })
    }
    var layer = TileLayer(source: spec)
    if let m = try r.string("tileMatrixSet", nonEmpty: true) {
      guard let set = TileMatrixSetSpec.parse(m, relativeTo: baseDirectory) else {
        throw r.invalid(
          "tileMatrixSet", expected: "a tile matrix set of the OGC registry (\(TileMatrixSet.registryNames.joined(separator: ", "))) or a .json file",
          found: .string(m))
      }
      // A GeoPackage pyramid has its own levels, which another set would misplace.
      if case .geopackage = spec {
        throw r.invalid("tileMatrixSet", expected: "no tileMatrixSet with a geopackage source (the pyramid has its own)", found: .string(m))
      }
      layer.tileMatrixSet = set
    }
    layer.tileSize = try r.number("tileSize", "a tile size in pixels, a whole number from 16 to 4096") {
      $0 >= 16 && $0 <= 4096 && $0 == $0.rounded()
    }.map { Int($0) }
    let zoom = "a zoom level, a whole number from 0 to 30"
    layer.minZoom = try r.number("minZoom", zoom) { $0 >= 0 && $0 <= 30 && $0 == $0.rounded() }.map { Int($0) }
    layer.maxZoom = try r.number("maxZoom", zoom) { $0 >= 0 && $0 <= 30 && $0 == $0.rounded() }.map { Int($0) }
    if let lo = layer.minZoom, let hi = layer.maxZoom, lo > hi {
      throw r.invalid("minZoom", expected: "minZoom ≤ maxZoom (\(hi))", found: .number(Double(lo)))
    }
    return layer
  }
}
