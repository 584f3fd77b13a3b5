internal import _MapSnapRaster

/// An `ogr` source (scene format 3.1): a dataset GDAL/OGR reads —
/// GeoPackage, Shapefile, FlatGeobuf, an Esri File Geodatabase folder, or a
/// PostGIS connection `PG:…` — and one of its layers.
public struct OGRSource: Sendable, Hashable {
  /// The dataset as the scene names it.
  public var name: String
  /// A file path resolved against the scene's folder, or the `PG:` string.
  public var resolved: String
  /// The layer; nil when the dataset has exactly one.
  public var layer: String?
  /// The scene's `crs`, overriding the dataset's own reference.
  public var crs: String?

  /// True for a PostGIS connection (`PG:…`), not a file.
  public var isDatabase: Bool { name.hasPrefix("PG:") }

  /// For the reach of labels when only part of a dataset is read: texts
  /// are taken to have at most this many characters on a line and this
  /// many lines (a GeoJSON source measures its own texts instead). A label
  /// of a feature farther outside the frame than such a text reaches is not
  /// considered.
  static let labelTextBound = TextExtent(longestLine: 32, lines: 2)

  /// And their characters are taken to be at most 1 em wide: the widest of
  /// Latin, Greek, Cyrillic and CJK text (an em square). Not the fonts'
  /// widest advance: Noto Sans Arabic's is 7.22 em, one ligature code point
  /// (U+FDFD) no map label is made of, and it would grow the area read for a
  /// labelled layer some fifty-fold.
  static let labelAdvanceBound = 1.0

  /// Seconds a PostGIS connection may take before it fails (libpq's
  /// `connect_timeout`, added to the connection string when it has none).
  static let connectTimeoutSeconds = 5

  /// How long a failure to open a dataset or to connect to it is kept, in
  /// seconds: 10, twice `connectTimeoutSeconds` (libpq's timeout, per
  /// address of the host), so a batch over a database that is down spends
  /// at most about a third of its time waiting to connect, however many
  /// frames it has; then the next frame tries again (`OpenDatasets`,
  /// `HandlePool`).
  static let failureKeptSeconds = 10.0
}
