import MapSnap

/// `wkb`: bytes read as an `ogr` source's geometry: ISO WKB as GDAL hands
/// it over (`WKBReader`), or, starting with `GP`, a GeoPackage geometry
/// blob (`GeoPackageGeometry`), through `_WKBProbe`.
public enum WKBFuzzTarget {
  public static func run(_ data: UnsafeRawBufferPointer) -> FuzzOutcome {
    let gp = data.count >= 2 && data[0] == 0x47 && data[1] == 0x50
    let n = gp ? _WKBProbe.geoPackagePositions(data) : _WKBProbe.positions(data)
    return n == nil ? .rejected : .accepted
  }
}
