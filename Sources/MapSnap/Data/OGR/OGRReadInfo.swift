internal import _MapSnapRaster

/// What reading an `ogr` layer for a frame found, for the report and
/// `explain`.
public struct OGRReadInfo: Sendable, Equatable {
  /// GDAL's driver (`GPKG`, `ESRI Shapefile`, `FlatGeobuf`, `OpenFileGDB`,
  /// `PostgreSQL`).
  public var driver: String
  /// The layer read, as its dataset names it.
  public var layer: String
  /// The reference features were read in: `EPSG:3067`, the scene's `crs`,
  /// or `WKT` for a reference without an authority code.
  public var spatialReference: String
  /// Features read for this frame (those whose bounds meet the frame grown
  /// by the layer's reach).
  public var featuresRead: Int
  /// Features in the layer, when the driver knows it cheaply.
  public var featuresInLayer: Int?
  /// Why the layer was read whole rather than through its spatial index
  /// (GeoPackage's R-tree, FlatGeobuf's packed R-tree, a Shapefile's
  /// `.qix`/`.sbn`, PostGIS's GiST); nil when the read went through it.
  public var scan: OGRScan?

  /// True when the driver filtered through a spatial index.
  public var spatialIndex: Bool { scan == nil }
}

/// Why an `ogr` read did not go through the layer's spatial index: the
/// report's `scanned` and `explain`'s words, so that "scanned" never
/// reads as "the file has no index" when it has one.
public enum OGRScan: String, Sendable, Equatable {
  /// No spatial filter: every feature of the layer is wanted (a view
  /// annotation names one of them, or the layer's reach has no bound).
  case everyFeature
  /// The layer has no spatial index (or the driver offers none).
  case noIndex
  /// The filter covers most of the layer: a scan that tests each row reads
  /// the same rows for less than the index would
  /// (`GeoPackageReader.scanCoverage`).
  case mostOfLayer

  /// The reason of a read with `filter` (nil: none) of a layer that has an
  /// index or not, whose filter the driver was told to scan or not; nil
  /// when the index served the read.
  static func reason(filter: Rect?, indexed: Bool, scanned: Bool = false) -> OGRScan? {
    if filter == nil { return .everyFeature }
    if !indexed { return .noIndex }
    return scanned ? .mostOfLayer : nil
  }

  /// How `explain` says it.
  public var explanation: String {
    switch self {
    case .everyFeature: return "read whole (every feature is wanted: a view annotation names one, or the layer's reach has no bound)"
    case .noIndex: return "scanned whole (the layer has no spatial index)"
    case .mostOfLayer: return "scanned whole (the frame covers most of the layer, where a scan reads the same rows for less than its spatial index)"
    }
  }
}

extension OGRReadInfo {
  /// How the report names the reference features were read in: the
  /// scene's `crs`, else the layer's `AUTHORITY:CODE`, else `WKT` for a
  /// reference given only as WKT, else `none`.
  static func referenceName(crs: String?, layer reference: String?) -> String {
    crs ?? reference.map { $0.contains("[") ? "WKT" : $0 } ?? "none"
  }
}
