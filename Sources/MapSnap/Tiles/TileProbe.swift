/// For the `tilematrixset` and `gpkgtiles` fuzz targets: the tile matrix set
/// decoder, the GeoPackage tile reader and the tile decoder, called as a
/// `tiles` layer calls them. Not API.
package enum _TileProbe {
  /// `bytes` read as a tile matrix set file (OGC 2.0 JSON) is read
  /// (`TileMatrixSetDecoder`); `shown` names it in errors.
  package static func tileMatrixSet(_ bytes: [UInt8], shown: String) throws(TileError) -> TileMatrixSet {
    try TileMatrixSetDecoder(shown: shown).decode(bytes)
  }

  /// A GeoPackage tile pyramid opened as a `geopackage` source opens it
  /// (`GeoPackageTileReader`).
  package final class GeoPackage {
    private let reader: GeoPackageTileReader

    /// Opens `path` (resolved): the pyramid `table` or, when nil, the
    /// file's only one; `shown` names the file in errors.
    package init(path: String, shown: String, table: String?) throws(TileError) {
      reader = try GeoPackageTileReader(path: path, shown: shown, table: table)
    }

    /// The pyramid's table.
    package var table: String { reader.table }

    /// Its levels.
    package var tileMatrixSet: TileMatrixSet { reader.tileMatrixSet }

    /// The bytes of the tile at level `z`, column `x`, row `y` (row 0 at
    /// the top); nil when there is no such tile or SQLite fails.
    package func tile(z: Int, x: Int, y: Int) -> [UInt8]? {
      if case .bytes(let b) = reader.tile(z: z, x: x, y: y) { return b }
      return nil
    }
  }

  /// The pixel count of `bytes` decoded as a tile of `size` × `size` pixels
  /// is (`TileCache.decode`: a PNG or a JPEG of that size), nil when it is
  /// undecodable.
  package static func decodedTilePixels(_ bytes: [UInt8], size: Int) -> Int? {
    if case .image(let pixels) = TileCache.decode(bytes, size: size) { return pixels.count }
    return nil
  }
}
