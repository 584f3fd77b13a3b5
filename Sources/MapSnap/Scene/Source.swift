/// Where a `features` layer's GeoJSON comes from.
public enum Source: Sendable {
  /// A file; relative paths resolve against the scene file's folder.
  case file(path: String, resolved: String)
  /// An inline FeatureCollection, already decoded.
  case inline(FeatureCollection)
  /// A file or inline source whose coordinates are in the spatial reference
  /// `crs` (`"EPSG:3067"`, any that PROJ knows), re-projected when loaded.
  indirect case reprojected(Source, crs: String)
  /// A layer of a dataset read through GDAL/OGR, per frame, only the
  /// features the frame needs (`SourceLoader.ogr`).
  case ogr(OGRSource)
}

extension Source {
  /// Whether the features come from an `ogr` dataset, read per frame (so
  /// nothing is worth loading ahead of a frame).
  public var isOGR: Bool {
    if case .ogr = self { return true }
    return false
  }
}
