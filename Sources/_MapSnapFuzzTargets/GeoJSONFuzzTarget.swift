import MapSnap

/// `geojson`: a GeoJSON source file read as a `features` layer reads it:
/// `SourceLoader.load` of a file source (FileIO, the JSON parser,
/// `GeoJSONDecoder`), in degrees and projected to Web Mercator with its
/// index (the R-tree) built.
public enum GeoJSONFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let folder = ScratchFolder("geojson")
    defer { folder.remove() }
    let path = folder.write(data, to: "source.geojson")
    let source = Source.file(path: "source.geojson", resolved: path)
    let loader = SourceLoader()
    switch loader.load(source) {
    case .failure(let error):
      _ = error.description
      return .rejected
    case .success(let degrees):
      _ = degrees.features.count
      switch loader.load(source, projection: .webMercator) {
      case .failure: return .rejected
      case .success: return .accepted
      }
    }
  }
}
