/// Why a tile source cannot be used: the layer is then `error` and not drawn.
/// One message builder, naming the source as the scene wrote it.
public enum TileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The MBTiles file (or the XYZ template's folder) does not exist.
  case missing(path: String)
  /// It exists but cannot be opened or read.
  case unreadable(path: String, reason: String)
  /// It opens but is not what it claims: an SQLite file without the MBTiles
  /// tables, a text file, a `tiles.json` that is not TileJSON.
  case notTiles(path: String, reason: String)
  /// The metadata names a tile format mapsnap does not decode.
  case unsupportedFormat(path: String, format: String)
  /// A tile matrix set file (OGC 2.0 JSON) or a GeoPackage's tile matrix
  /// tables hold something other than the format wants at `at` (a JSON path
  /// or a table and column).
  case badTileMatrixSet(path: String, at: String, expected: String, found: String, hint: String?)
  /// The tile matrix set names neither a registry set nor a file.
  case unknownTileMatrixSet(name: String)

  public var description: String {
    switch self {
    case .missing(let p): return "\(p): no such file"
    case .unreadable(let p, let r): return "\(p): cannot read: \(r)"
    case .notTiles(let p, let r): return "\(p): not a tile set: \(r)"
    case .unsupportedFormat(let p, let f): return "\(p): tile format \(Echo.quoted(f)) is not supported (expected png or jpg)"
    case .badTileMatrixSet(let p, let at, let expected, let found, let hint):
      return "\(p)\(at.isEmpty ? "" : " at \(at)"): not a tile matrix set: expected \(expected), found \(found)" + (hint.map { " (\($0))" } ?? "")
    case .unknownTileMatrixSet(let name):
      return "tile matrix set \(Echo.quoted(name)) is not in the OGC registry (\(TileMatrixSet.registryNames.joined(separator: ", "))) "
        + "and not a path to a .json file"
    }
  }
}
