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

  public var description: String {
    switch self {
    case .missing(let p): return "\(p): no such file"
    case .unreadable(let p, let r): return "\(p): cannot read: \(r)"
    case .notTiles(let p, let r): return "\(p): not a tile set: \(r)"
    case .unsupportedFormat(let p, let f): return "\(p): tile format \(Echo.quoted(f)) is not supported (expected png or jpg)"
    }
  }
}
