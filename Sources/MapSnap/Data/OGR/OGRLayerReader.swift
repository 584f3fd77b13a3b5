internal import _MapSnapRaster

/// An `ogr` source's layer, open: a GeoPackage file through SQLite
/// (`GeoPackageReader`), a PostGIS table through libpq (`PostGISReader`)
/// when its rules cover it, anything else through GDAL (`OGRDataset`).
enum OGRLayerReader {
  /// The reader of `source`'s layer, by the first rule that covers it: a
  /// `.gpkg` file (`GeoPackageReader.reads`), a connection and table
  /// `PostGISReader` reads (`conninfo`, and the table's columns), else GDAL.
  static func open(_ source: OGRSource, confinement: Confinement?) -> Result<any LayerReader, SourceError> {
    if GeoPackageReader.reads(source) {
      return GeoPackageReader.shared(source, confinement: confinement).flatMap { r in
        r.table(source.layer, source: source).map { GeoPackageLayer(reader: r, table: $0, source: source) }
      }
    }
    if let conninfo = PostGISReader.conninfo(source) {
      switch PostGISReader.shared(conninfo, source: source).flatMap({ r in r.table(source.layer, source: source).map { (r, $0) } }) {
      case .failure(let e): return .failure(e)
      case .success((let r, let table?)): return .success(PostGISLayer(reader: r, table: table, source: source))
      case .success((_, nil)): break  // GDAL's to read
      }
    }
    return OGRDataset.shared(source).flatMap { d in
      d.layer(source.layer, source: source).map { GDALLayer(dataset: d, layer: $0, source: source) }
    }
  }
}

/// A GeoPackage table read through SQLite.
struct GeoPackageLayer: LayerReader {
  let reader: GeoPackageReader
  let table: GeoPackageReader.Table
  let source: OGRSource
  var layerName: String { table.name }
  var reference: String? { table.reference }
  func read(filter: Rect?, fields: Set<String>?) -> Result<FeatureRead<OGRReadInfo>, SourceError> {
    reader.read(table, filter: filter, fields: fields, source: source)
  }
}

/// A PostGIS table read through libpq.
struct PostGISLayer: LayerReader {
  let reader: PostGISReader
  let table: PostGISReader.Table
  let source: OGRSource
  var layerName: String { table.name }
  var reference: String? { table.reference }
  func read(filter: Rect?, fields: Set<String>?) -> Result<FeatureRead<OGRReadInfo>, SourceError> {
    reader.read(table, filter: filter, fields: fields, source: source)
  }
}

/// A layer of any dataset GDAL opens.
struct GDALLayer: LayerReader {
  let dataset: OGRDataset
  let layer: OGRDataset.Layer
  let source: OGRSource
  var layerName: String { layer.name }
  var reference: String? { layer.reference }
  func read(filter: Rect?, fields: Set<String>?) -> Result<FeatureRead<OGRReadInfo>, SourceError> {
    dataset.read(layer: layer.name, filter: filter, fields: fields, source: source)
  }
}
