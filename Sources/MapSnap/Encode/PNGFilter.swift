/// How PNG rows are filtered before compression.
public enum PNGFilter: Sendable, Equatable, Hashable {
  /// Filter type 0 (None) on every row. Fastest; on flat-colour map images it
  /// usually compresses as well as adaptive filtering.
  case none
  /// libpng's adaptive per-row choice among all five filters (libpng's default).
  /// Better for photographic content, slower to encode.
  case adaptive

  /// The case's name, as written into the input digest (spelled out, since
  /// interpolating an enum reflects on it at run time).
  public var name: String {
    switch self {
    case .none: "none"
    case .adaptive: "adaptive"
    }
  }
}
