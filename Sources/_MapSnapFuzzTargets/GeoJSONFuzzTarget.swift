import MapSnap

/// `geojson`: a GeoJSON source file read as a `features` layer reads it:
/// `SourceLoader.load` of a file source (FileIO, `GeoJSONFastReader` or else
/// the JSON parser and `GeoJSONDecoder`), in degrees and projected to Web
/// Mercator with its index (the R-tree) built.
///
/// Traps when the fast reader reads the input other than the reference way
/// does (`SourceLoader._fastReaderDisagreement`): it may only give up.
public enum GeoJSONFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    if let disagreement = SourceLoader._fastReaderDisagreement(Array(data)) {
      fatalError("mapsnap-fuzz: \(disagreement)")
    }
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
