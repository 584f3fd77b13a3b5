/// Why a style source (or another resource a style names) gives nothing: a
/// layer problem of each style layer that reads it, with the source's JSON
/// path. One message builder (`description`).
package enum StyleSourceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `mapbox://` needs Mapbox's servers and an access token.
  case mapboxURL(String)
  /// An http(s) URL with `--offline`, or a URL mapsnap cannot read yet.
  case network(String, reason: String)
  /// `local://` outside the render-test harness.
  case localWithoutRoot(String)
  case unsupportedScheme(String)
  case missing(String)
  case unreadable(String, reason: String)
  case notTileJSON(String, reason: String)
  /// A source without `url`, `tiles` or `data`.
  case noTiles
  case unsupportedType(String)
  /// A `video` source: a snapshot has no time to show a frame at.
  case video

  package var description: String {
    switch self {
    case .mapboxURL(let u):
      return "\(Echo.quoted(u)): mapbox:// URLs need Mapbox's servers and an access token; give a local file (mbtiles://, pmtiles://, a path) or an http(s) URL"
    case .network(let u, let reason):
      return "\(Echo.quoted(u)): \(reason)"
    case .localWithoutRoot(let u):
      return "\(Echo.quoted(u)): local:// URLs name files of the render-test suite and are read only by `mapsnap test`; give a path relative to the style"
    case .unsupportedScheme(let u):
      return "\(Echo.quoted(u)): unsupported URL scheme (expected a path, file://, mbtiles://, pmtiles://, http:// or https://)"
    case .missing(let p):
      return "\(p): no such file"
    case .unreadable(let p, let reason):
      return "\(p): cannot read: \(reason)"
    case .notTileJSON(let p, let reason):
      return "\(p): not a TileJSON document: \(reason)"
    case .noTiles:
      return "the source names no tiles: give \"url\" (TileJSON, mbtiles://, pmtiles://) or \"tiles\" (URL templates)"
    case .unsupportedType(let t):
      return "source type \(Echo.quoted(t)) is not drawn by mapsnap"
    case .video:
      return "video sources are not drawn (a snapshot has no moment of the video to show); give an \"image\" source with a still frame over the same \"coordinates\""
    }
  }
}
